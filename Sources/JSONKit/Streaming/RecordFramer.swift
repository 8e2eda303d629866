/// Finds where the records of a stream begin and end, a chunk at a time.
///
/// A framer only finds boundaries; the scanner then reads each record as
/// a document of its own, so every rule and option of JSONKit holds inside
/// a record exactly as in a whole document.
protocol RecordFramer {
  /// The stream offset of the first byte the framer still needs: the start
  /// of the record it is inside, or of what it has not yet looked at.
  var pendingStart: Int { get }

  /// How many bytes from ``pendingStart`` on belong to no record and do not
  /// count against a record's size limit: the start of a byte order mark
  /// split across chunks, which the framer holds until it knows.
  var unlimitedPrefix: Int { get }

  /// The next complete record among the bytes held by `buffer`, looking
  /// only at bytes it has not yet looked at; `nil` when more bytes are
  /// needed or, once `atEnd`, when the stream holds no more records.
  ///
  /// A framer that lets the scanner find where its records end returns,
  /// as the first record of a batch (`startingBatch`), a run of them
  /// (``RecordPlace/beginsRun``), and is told how far it got with
  /// ``endRun(_:in:)``; for a later record of a batch, where a run would
  /// begin it returns `nil`, which ends the batch.
  mutating func nextRecord(in buffer: StreamBuffer, atEnd: Bool, startingBatch: Bool)
    throws(JKParseError) -> FramedRecord?

  /// Takes up framing where a run that began at ``pendingStart`` ended.
  mutating func endRun(_ end: ElementRunEnd, in buffer: StreamBuffer)

  /// Tells the framer that `buffer` drops its bytes before `offset`.
  mutating func willDiscard(in buffer: StreamBuffer, upTo offset: Int)

  /// The error for a record that has grown beyond `limit` bytes.
  func oversized(limit: Int) -> JKParseError
}

/// One record that a framer found: its bytes' stream offsets and its place.
struct FramedRecord {
  var start: Int
  var end: Int
  var place: RecordPlace
}

extension RecordFramer {
  mutating func willDiscard(in buffer: StreamBuffer, upTo offset: Int) {}
  mutating func endRun(_ end: ElementRunEnd, in buffer: StreamBuffer) {}
}

extension JKParseError {
  /// The error for a record longer than a stream's limit.
  static func recordTooLarge(_ place: RecordPlace, limit: Int) -> JKParseError {
    let subject =
      switch place.kind {
      case .line: "the record on line \(place.ordinal)"
      case .arrayElement: "array element \(place.ordinal)"
      }
    return JKParseError(
      .inputTooLarge, "\(subject) is longer than the limit of \(limit) bytes for one record",
      offset: place.offset, line: place.line, column: place.column, excerpt: "")
  }
}

extension RecordFramer {
  /// None: every byte held from ``pendingStart`` on counts.
  var unlimitedPrefix: Int { 0 }
}
