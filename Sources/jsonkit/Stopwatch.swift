/// Times a piece of work: warm-up runs, then timed runs, reporting the median.
struct Stopwatch {
  /// Untimed runs first, so that caches, the allocator and lazily made
  /// state (such as a decoder's key cache) are warm, as in a running program.
  var warmUps = 1
  /// A fixed number of timed runs, or `nil` to fit the runs into ``budget``.
  var iterations: Int?
  /// Without fixed iterations: stop once this much time has been measured…
  static let budget = Duration.milliseconds(250)
  /// …but only after this many runs…
  static let minimumRuns = 5
  /// …and never after more than this many.
  static let maximumRuns = 25

  /// The median time of `body`, which returns how many bytes it processed.
  func measure(_ body: () throws -> Int) rethrows -> (median: Duration, bytes: Int) {
    var bytes = 0
    for _ in 0..<warmUps {
      bytes = try body()
    }
    let clock = ContinuousClock()
    var times: [Duration] = []
    var total = Duration.zero
    while !isDone(runs: times.count, total: total) {
      let start = clock.now
      bytes = try body()
      let time = clock.now - start
      times.append(time)
      total += time
    }
    times.sort()
    let middle = times.count / 2
    let median = times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2
    return (median, bytes)
  }

  private func isDone(runs: Int, total: Duration) -> Bool {
    if let iterations { return runs >= iterations }
    return runs >= Self.maximumRuns || (runs >= Self.minimumRuns && total >= Self.budget)
  }
}

/// Keeps the optimizer from removing work whose result is otherwise unused.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}
