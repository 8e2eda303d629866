import Foundation

/// One way of doing the same work, timed against others in the same rounds.
struct Contender {
  /// The name in the tables.
  let name: String
  /// One call of the work.
  let run: () throws -> Void

  /// The time of one call of each contender, in the order given.
  ///
  /// Every contender is called twice to warm up, then timed once to size its batch: the
  /// number of calls that take about `batchSeconds`. Each round then times one batch of
  /// each contender in turn (A, B, C, A, B, C, …), so that a slow spell of a shared
  /// machine falls on all of them alike rather than on whichever ran then; a batch's time
  /// over its calls is one sample, and the median of the rounds' samples is the figure.
  static func timings(_ contenders: [Contender], rounds: Int, batchSeconds: Double) throws
    -> [Timing]
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
    return samples.map(Timing.init)
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

/// The time of one call, summarized over the rounds' samples.
struct Timing {
  /// The median, in seconds.
  let median: Double
  /// The interquartile range over the median: how much the rounds disagree, which on a
  /// busy machine says how far to trust the median.
  let spread: Double
  /// Each round's seconds per call, in the order of the rounds.
  let samples: [Double]

  init(_ samples: [Double]) {
    self.samples = samples
    let sorted = samples.sorted()
    func quantile(_ fraction: Double) -> Double {
      let position = Double(sorted.count - 1) * fraction
      let lower = Int(position)
      let upper = min(lower + 1, sorted.count - 1)
      return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
    median = quantile(0.5)
    spread = (quantile(0.75) - quantile(0.25)) / median
  }

  /// The median over the rounds of this timing's sample ÷ `other`'s from the same round:
  /// how many times longer this took. Pairing the rounds cancels what a busy machine does
  /// to both contenders of a round alike, which a ratio of the two medians would not.
  func ratio(to other: Timing) -> Double {
    middle(of: zip(samples, other.samples).map { $0 / $1 })
  }
}

/// The middle value, or the mean of the two middle ones.
func middle(of values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
