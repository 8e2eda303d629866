import Foundation

/// Frames JSON Lines: each record is the bytes before a `\n` (a `\r` before
/// it is whitespace to the scanner), and the last record may lack its `\n`.
///
/// In strict JSON a raw `\n` is never inside a string, only whitespace
/// between tokens, so a byte search finds every record's end. A record is
/// always exactly one line, also with `.comments` (a block comment cannot
/// span lines) or JSON5 (no escaped line break inside a string).
struct LineFramer: RecordFramer {
  private(set) var pendingStart = 0
  /// Bytes between `pendingStart` and here hold no `\n`.
  private var searched = 0
  /// The line number of the record starting at `pendingStart`.
  private var line = 1

  mutating func nextRecord(in buffer: StreamBuffer, atEnd: Bool, startingBatch: Bool)
    throws(JKParseError) -> FramedRecord?
  {
    let from = Swift.max(searched, pendingStart)
    let start = pendingStart
    let place = RecordPlace(kind: .line, ordinal: line, offset: start, line: line, column: 1)
    if let newline = Self.lineEnd(in: buffer.bytes(from: from, to: buffer.end)) {
      let end = from + newline
      pendingStart = end + 1
      searched = end + 1
      line += 1
      return FramedRecord(start: start, end: end, place: place)
    }
    searched = buffer.end
    guard atEnd, start < buffer.end else { return nil }
    pendingStart = buffer.end
    return FramedRecord(start: start, end: buffer.end, place: place)
  }

  func oversized(limit: Int) -> JKParseError {
    .recordTooLarge(
      RecordPlace(kind: .line, ordinal: line, offset: pendingStart, line: line, column: 1),
      limit: limit)
  }

  /// The index of the first `\n` in `bytes`, if any.
  static func lineEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, bytes.count > 0,
      let found = memchr(base, 0x0A, bytes.count)
    else { return nil }
    return UnsafeRawPointer(found) - base
  }

  /// Whether a line holds only JSON whitespace (spaces, tabs and carriage
  /// returns: a line holds no line feed), and so is skipped without being
  /// scanned.
  static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.allSatisfy(LexicalRules.isJSONWhitespace)
  }

  /// Reads a batch of lines in runs of lines that are not blank, skipping
  /// the blank ones: `read` reads the records of a run in order until one
  /// fails, and returns nil when it has read them all, or the index of a
  /// record that it lets pass (a line that holds only comments), after
  /// which the reading goes on; any other failure it throws.
  static func readLines<Failure: Error>(
    _ batch: [StreamRecord], _ read: (Range<Int>) throws(Failure) -> Int?
  ) throws(Failure) {
    var start = 0
    while start < batch.count {
      if isBlank(batch[start].bytes) {
        start += 1
        continue
      }
      var end = start + 1
      while end < batch.count, !isBlank(batch[end].bytes) { end += 1 }
      start = try read(start..<end).map { $0 + 1 } ?? end
    }
  }
}
