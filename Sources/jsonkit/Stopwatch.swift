#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Times pieces of work against each other: warm-up runs, then interleaved
/// timed rounds, reporting each piece's median.
struct Stopwatch {
  /// The median time of one run and the bytes a run processed.
  struct Reading {
    /// The median over the timed rounds.
    var median: Duration
    /// The bytes one run read or wrote, as the work reported them.
    var bytes: Int
  }

  /// Untimed runs first, so that caches, the allocator and lazily made
  /// state (such as a decoder's key cache) are warm, as in a running program.
  var warmUps = 1
  /// A fixed number of timed rounds, or `nil` to fit the rounds into ``budget``.
  var rounds: Int?
  /// Whether to time with the thread's CPU clock rather than the wall clock:
  /// on a machine busy with other work, what the work costs rather than how
  /// long it also waited for a core.
  var cpuTime = false
  /// Without fixed rounds: stop once this much time per piece of work has
  /// been measured…
  static let budget = Duration.milliseconds(250)
  /// …but only after this many rounds…
  static let minimumRounds = 5
  /// …and never after more than this many.
  static let maximumRounds = 25

  /// The median time of each of `bodies`, which return how many bytes they
  /// processed, or the error that stopped one.
  ///
  /// Every round times each body once, in the order given (A, B, A, B, …),
  /// so that a slow spell of a busy machine falls on all of them alike
  /// rather than on whichever happened to run then. A body that throws is
  /// left out of the rounds that follow; the others go on.
  func measure(_ bodies: [() throws -> Int]) -> [Result<Reading, any Error>] {
    var bytes = Array(repeating: 0, count: bodies.count)
    var failures: [(any Error)?] = Array(repeating: nil, count: bodies.count)
    func attempt(_ index: Int) -> Duration? {
      guard failures[index] == nil else { return nil }
      let start = now()
      do {
        bytes[index] = try bodies[index]()
      } catch {
        failures[index] = error
        return nil
      }
      return now() - start
    }
    for _ in 0..<warmUps {
      for index in bodies.indices { _ = attempt(index) }
    }
    var times = Array(repeating: [Duration](), count: bodies.count)
    var total = Duration.zero
    var round = 0
    while !isDone(rounds: round, total: total, pieces: bodies.count),
      failures.contains(where: { $0 == nil })
    {
      for index in bodies.indices {
        if let time = attempt(index) {
          times[index].append(time)
          total += time
        }
      }
      round += 1
    }
    return bodies.indices.map { index in
      if let failure = failures[index] { return .failure(failure) }
      return .success(Reading(median: Self.median(of: times[index]), bytes: bytes[index]))
    }
  }

  /// The time on the chosen clock, from an arbitrary start.
  private func now() -> Duration {
    var time = timespec()
    clock_gettime(cpuTime ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  private static func median(of times: [Duration]) -> Duration {
    let sorted = times.sorted()
    guard !sorted.isEmpty else { return .zero }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  private func isDone(rounds done: Int, total: Duration, pieces: Int) -> Bool {
    if let rounds { return done >= rounds }
    return done >= Self.maximumRounds
      || (done >= Self.minimumRounds && total >= Self.budget * pieces)
  }
}

/// Keeps the optimizer from removing work whose result is otherwise unused.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}
