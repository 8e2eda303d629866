import Foundation

/// One way of doing the same work, timed against others in the same rounds.
struct Contender {
  /// The name in the tables.
  let name: String
  /// One call of the work.
  let run: () throws -> Void

  /// The median time of one call of each contender, in seconds, in the order given.
  ///
  /// Every contender is called twice to warm up, then timed once to size its batch: the
  /// number of calls that take about `batchSeconds`. Each round then times one batch of
  /// each contender in turn (A, B, C, A, B, C, …), so that a slow spell of a shared
  /// machine falls on all of them alike rather than on whichever ran then; a batch's time
  /// over its calls is one sample, and the median of the rounds' samples is the figure.
  static func medians(_ contenders: [Contender], rounds: Int, batchSeconds: Double) throws
    -> [Double]
  {
    var batches: [Int] = []
    for contender in contenders {
      try contender.run()
      try contender.run()
      let single = try time(contender, calls: 1)
      batches.append(max(1, Int((batchSeconds / single).rounded(.up))))
    }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for _ in 0..<rounds {
      for (index, contender) in contenders.enumerated() {
        samples[index].append(try time(contender, calls: batches[index]))
      }
    }
    return samples.map(median)
  }

  /// Seconds per call over `calls` calls in a row.
  private static func time(_ contender: Contender, calls: Int) throws -> Double {
    let start = ContinuousClock.now
    for _ in 0..<calls { try contender.run() }
    return seconds(start.duration(to: .now)) / Double(calls)
  }
}

/// `duration` in seconds.
func seconds(_ duration: Duration) -> Double {
  let parts = duration.components
  return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// The middle value, or the mean of the two middle ones.
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
