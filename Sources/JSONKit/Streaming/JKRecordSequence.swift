/// The records of a stream of JSON (JSON Lines, or the elements of one
/// top-level array), read and delivered one at a time.
///
/// ```swift
/// for try await record in JKDecoder().decodeLines(Record.self, from: chunks) {
///   handle(record)
/// }
/// ```
///
/// Memory is bounded by the largest record (whose limit the reader's
/// `maxRecordSize` sets), whatever the stream's length. An error in a
/// record, or in what lies between records, ends the sequence; the records
/// before it have been delivered. Cancelling the consuming task ends it
/// too, with `CancellationError`, at the next record or chunk.
///
/// Each iteration reads the underlying sequence afresh, so a sequence that
/// can be iterated only once gives its records only once.
public struct JKRecordSequence<Element>: AsyncSequence {
  private let makeReader: () -> any RecordProducing
  private let makeRead: () -> RecordRead

  /// What makes a record's element, or `nil` for a record that is skipped
  /// (a blank line): one per iteration, which may keep what serves the
  /// next record.
  typealias RecordRead = (UnsafeRawBufferPointer, RecordPlace) throws -> Element?

  /// Records framed by the reader that `makeReader` makes, read by the
  /// function that `makeRead` makes; each iteration makes its own.
  init(
    makeReader: @escaping () -> any RecordProducing, makeRead: @escaping () -> RecordRead
  ) {
    self.makeReader = makeReader
    self.makeRead = makeRead
  }

  /// Starts reading the stream.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(reader: makeReader(), read: makeRead())
  }

  /// Reads a stream's records one at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private let reader: any RecordProducing
    private let read: RecordRead

    fileprivate init(reader: any RecordProducing, read: @escaping RecordRead) {
      self.reader = reader
      self.read = read
    }

    /// The next record, or `nil` after the last one or after an error.
    public mutating func next() async throws -> Element? {
      while true {
        // A record already in the buffer is read without an `await`.
        var record = try reader.nextBuffered()
        if record == nil { record = try await reader.next() }
        guard let record else { return nil }
        if let element = try element(of: record) { return element }
      }
    }

    /// The element `read` makes of `record`, or nil for a skipped one; an
    /// error stops the reader.
    private func element(of record: (bytes: UnsafeRawBufferPointer, place: RecordPlace)) throws
      -> Element?
    {
      do {
        return try read(record.bytes, record.place)
      } catch {
        reader.stop()
        throw error
      }
    }
  }
}

extension JKRecordSequence {
  /// The records of `chunks`, framed by `framer`.
  init<Chunks: AsyncSequence, Framer: RecordFramer>(
    chunks: Chunks, framer: Framer, maxRecordSize: Int,
    makeRead: @escaping () -> RecordRead
  ) where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    self.init(
      makeReader: {
        RecordReader(
          source: ChunkSequenceSource<Chunks>(iterator: chunks.makeAsyncIterator()),
          framer: framer, limit: maxRecordSize)
      }, makeRead: makeRead)
  }

  /// The records of `bytes`, framed by `framer`.
  init<Bytes: AsyncSequence, Framer: RecordFramer>(
    bytes: Bytes, framer: Framer, maxRecordSize: Int,
    makeRead: @escaping () -> RecordRead
  ) where Bytes.Element == UInt8 {
    self.init(
      makeReader: {
        RecordReader(
          source: ByteSequenceSource<Bytes>(iterator: bytes.makeAsyncIterator()),
          framer: framer, limit: maxRecordSize)
      }, makeRead: makeRead)
  }
}
