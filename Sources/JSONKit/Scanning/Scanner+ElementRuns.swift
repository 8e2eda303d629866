/// How far a run of a stream's array elements was scanned (see
/// ``Scanner/scanElements(_:into:configuration:elementSize:)``).
struct ElementRunEnd {
  /// How many whole elements the run's tape holds.
  var elements = 0
  /// Where framing carries on, counted from the run's first byte: after
  /// the last element's comma, or at the end of the last element when the
  /// array's `]` (or what stands in its place) follows it.
  var resume = 0
  /// Whether `resume` is after a comma, so that an element comes next.
  var afterComma = false
  /// Whether the run stopped at an element it could not take whole (cut
  /// off by the end of the bytes held, too long, or in error), which the
  /// framer then reads on its own, byte by byte.
  var stoppedAtTrouble = false
}

/// The elements a run took onto the tape (see
/// ``Scanner/scanElements(_:into:configuration:elementSize:)``).
struct ElementRun {
  /// How far the run got.
  var end = ElementRunEnd()
  /// Each element's root on the tape.
  var roots: [Int] = []
  /// Each element's bytes, counted from the run's first byte.
  var ranges: [Range<Int>] = []

  /// The bytes of element `index` of the run whose bytes are `run`.
  func element(_ index: Int, in run: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: run[ranges[index]])
  }

  /// The part of `run` that its elements took: what a decoder that a value
  /// keeps copies.
  func taken(of run: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: run[..<(ranges.last?.upperBound ?? 0)])
  }
}

extension Scanner where Recording == TapeRecording {
  /// Scans the elements of a stream's top-level array that `run` holds
  /// from its first byte (the first byte of an element) onto the tape of
  /// `context`, each a document of its own whose offsets count from the
  /// run's start, as many as one batch takes (``StreamBatch``): the scan
  /// finds where each element ends, so that no one reads its bytes before
  /// the scanner does.
  ///
  /// An element is taken when a comma or `]` follows it, after JSON
  /// whitespace, within `run`, or when it is a string, array or object
  /// that `run` holds to its end: a number or literal cut off by the end
  /// of the bytes held may go on in the next chunk. The run stops before the
  /// first element that fails to scan, is cut off or is longer than
  /// `elementSize`, leaving the tape as it was before that element; the caller's
  /// framer then reads that element as it reads any, and reports what is
  /// wrong with it in the stream's coordinates. Only for strict JSON
  /// between elements: options that allow more there (comments, JSON5)
  /// leave every element to the framer.
  static func scanElements(
    _ run: UnsafeRawBufferPointer, into context: ScanContext, configuration: ScanConfiguration,
    elementSize: Int
  ) -> ElementRun {
    var taken = ElementRun()
    taken.roots.reserveCapacity(StreamBatch.records)
    taken.ranges.reserveCapacity(StreamBatch.records)
    taken.end = scanElements(
      run, into: context, configuration: configuration, elementSize: elementSize,
      roots: &taken.roots, ranges: &taken.ranges)
    return taken
  }

  private static func scanElements(
    _ run: UnsafeRawBufferPointer, into context: ScanContext, configuration: ScanConfiguration,
    elementSize: Int, roots: inout [Int], ranges: inout [Range<Int>]
  ) -> ElementRunEnd {
    var outcome = ElementRunEnd()
    guard let base = run.baseAddress, run.count < Int(UInt32.max) else {
      outcome.stoppedAtTrouble = true
      return outcome
    }
    var configuration = configuration
    configuration.endsAtValue = true
    // One scanner for the run, each element scanned as a document of its own.
    return Scanner.withScanner(
      over: base, count: run.count, context: context, configuration: configuration
    ) { scanner in
      scanElements(run, with: scanner, elementSize: elementSize, roots: &roots, ranges: &ranges)
    }
  }

  private static func scanElements(
    _ run: UnsafeRawBufferPointer, with scanner: UnsafeMutablePointer<Scanner>,
    elementSize: Int, roots: inout [Int], ranges: inout [Range<Int>]
  ) -> ElementRunEnd {
    var outcome = ElementRunEnd()
    let bytes = run.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    var start = 0
    var length = 0
    while outcome.elements < StreamBatch.records, length < StreamBatch.bytes {
      let appending = outcome.elements > 0
      let root = appending ? scanner.pointee.state.tape.count : 0
      let arenaCount = appending ? scanner.pointee.state.arena.count : 0
      let rest = UnsafeRawBufferPointer(rebasing: run[start...])
      scanner.pointee.index = start
      do {
        try scanner.pointee.scan(rest, appending: appending)
      } catch {
        outcome.stoppedAtTrouble = true
        return outcome
      }
      let valueLength = scanner.pointee.index - start
      let end = start + valueLength
      var next = end
      while next < run.count, LexicalRules.isJSONWhitespace(bytes[next]) { next += 1 }
      // A string, array or object is whole at its closing byte, even at
      // the end of the bytes held (an async sequence of bytes brings one
      // element at a time); a number or literal only once what follows it
      // is seen.
      let closed =
        next == run.count && valueLength > 0
        && (bytes[end - 1] == UInt8(ascii: "}") || bytes[end - 1] == UInt8(ascii: "]")
          || bytes[end - 1] == UInt8(ascii: "\""))
      guard
        closed
          || next < run.count
            && (bytes[next] == UInt8(ascii: ",") || bytes[next] == UInt8(ascii: "]")),
        valueLength <= elementSize
      else {
        // Cut off, too long, or followed by what no array allows there.
        scanner.pointee.state.tape.count = root
        scanner.pointee.state.arena.count = arenaCount
        outcome.stoppedAtTrouble = true
        return outcome
      }
      roots.append(root)
      ranges.append(start..<end)
      outcome.elements += 1
      length += valueLength
      if closed || bytes[next] == UInt8(ascii: "]") {
        outcome.resume = end
        outcome.afterComma = false
        return outcome
      }
      outcome.resume = next + 1
      outcome.afterComma = true
      start = next + 1
      while start < run.count, LexicalRules.isJSONWhitespace(bytes[start]) { start += 1 }
      // The end of the bytes held, or the array's end after a trailing
      // comma, is the framer's.
      guard start < run.count, bytes[start] != UInt8(ascii: "]") else { return outcome }
    }
    return outcome
  }
}
