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
  private let makeRead: () -> BatchRead

  /// What reads a batch of records in order, passing each one's element to
  /// the function given (none for a skipped record), and throws the error
  /// of the first record that fails, after which it reads none: one per
  /// iteration, which may keep what serves the next batch. A batch that is
  /// one run of records (``RecordPlace/beginsRun``) is read as far as the
  /// scanner takes it, no record longer than the limit given, and the read
  /// says how far that was; any other batch's read returns nil.
  typealias BatchRead = ([StreamRecord], Int, (consuming Element) -> Void) throws ->
    ElementRunEnd?

  /// Records framed by the reader that `makeReader` makes, read in batches
  /// by the function that `makeBatchRead` makes; each iteration makes its
  /// own.
  init(
    makeReader: @escaping () -> any RecordProducing, makeBatchRead: @escaping () -> BatchRead
  ) {
    self.makeReader = makeReader
    self.makeRead = makeBatchRead
  }

  /// Starts reading the stream.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(reader: makeReader(), read: makeRead())
  }

  /// Reads a stream's records one at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private let reader: any RecordProducing
    private let read: BatchRead
    @usableFromInline let batch = RecordBatch<Element>()

    fileprivate init(reader: any RecordProducing, read: @escaping BatchRead) {
      self.reader = reader
      self.read = read
    }

    /// The next record, or `nil` after the last one or after an error.
    ///
    /// Inlined into the caller, so that a record of a batch already read is
    /// delivered without a call: an asynchronous call costs more than
    /// decoding a small record.
    @inlinable
    public mutating func next() async throws -> Element? {
      if batch.hasReady, !Task.isCancelled { return batch.nextReady() }
      return try await nextReading()
    }

    /// The next record, reading a batch first when none is ready; or the
    /// error that ends the stream.
    @usableFromInline
    mutating func nextReading() async throws -> Element? {
      while true {
        if batch.ended { return nil }
        // Cancellation is seen at every record delivered, before a batch
        // is framed and before an error waiting in one.
        do {
          try Task.checkCancellation()
        } catch {
          end()
          throw error
        }
        if batch.hasReady { return batch.nextReady() }
        if let error = batch.error.take() {
          end()
          throw error
        }
        // A record already in the buffer is framed without an `await`.
        var first = try reader.nextBuffered(startingBatch: true)
        if first == nil { first = try await reader.next() }
        guard let first else { return nil }
        readBatch(from: first)
      }
    }

    /// Frames the batch that begins with `first`, with the records after
    /// it that the buffer holds whole (up to what one batch takes), and
    /// reads it into ``RecordBatch``'s ready elements; an error, in the
    /// batch's records or in framing the one after them, waits there until
    /// the elements before it are delivered.
    private func readBatch(from first: StreamRecord) {
      batch.records.removeAll(keepingCapacity: true)
      batch.records.append(first)
      if first.place.beginsRun {
        do {
          let end = try read(batch.records, reader.recordLimit) { (element: consuming Element) in
            batch.push(element)
          }
          if let end { reader.endRun(end) }
        } catch {
          batch.error = error
        }
        return
      }
      let framingError = reader.appendBuffered(
        to: &batch.records, count: StreamBatch.records, bytes: StreamBatch.bytes)
      do {
        _ = try read(batch.records, reader.recordLimit) { (element: consuming Element) in
          batch.push(element)
        }
        batch.error = framingError
      } catch {
        batch.error = error
      }
    }

    /// Ends the stream after an error: nothing is delivered after it, not
    /// even an error that waited in the batch.
    private func end() {
      reader.stop()
      batch.dropReady()
      batch.error = nil
      batch.ended = true
    }
  }
}

/// A record framed in a stream: its bytes, valid until the reader next
/// reads from its source, and its place in the stream.
typealias StreamRecord = (bytes: UnsafeRawBufferPointer, place: RecordPlace)

/// The batch an iterator of a ``JKRecordSequence`` reads at a time: the
/// records framed (kept for their storage), the elements read from them
/// and not yet delivered, and the error that comes after those.
///
/// The elements are moved in and out of memory of their own, not appended
/// to an array, which code not specialized for `Element` does through the
/// array's metadata, looked up every time.
///
/// One iterator uses it, and no access to its members overlaps another
/// (none calls out while it holds one), so they are not checked.
@usableFromInline
final class RecordBatch<Element> {
  @exclusivity(unchecked) var records: [StreamRecord] = []
  /// The error to throw once the ready elements are delivered.
  @exclusivity(unchecked) var error: (any Error)?
  /// Whether an error ended the stream, after which nothing comes.
  @exclusivity(unchecked) var ended = false
  @exclusivity(unchecked) @usableFromInline var elements: UnsafeMutablePointer<Element>
  @exclusivity(unchecked) private var capacity: Int
  /// The ready elements are those at `first..<end`.
  @exclusivity(unchecked) @usableFromInline var first = 0
  @exclusivity(unchecked) @usableFromInline var end = 0

  init() {
    capacity = StreamBatch.records
    elements = .allocate(capacity: capacity)
    records.reserveCapacity(StreamBatch.records)
  }

  deinit {
    dropReady()
    elements.deallocate()
  }

  /// Whether an element is ready.
  @inlinable var hasReady: Bool { first != end }

  /// Adds `element` after the ready ones.
  func push(_ element: consuming Element) {
    if end == capacity { grow() }
    (elements + end).initialize(to: element)
    end += 1
  }

  /// The first ready element, which must exist, moved out.
  @inlinable
  func nextReady() -> Element {
    let element = (elements + first).move()
    first += 1
    if first == end {
      first = 0
      end = 0
    }
    return element
  }

  /// Drops every ready element.
  func dropReady() {
    (elements + first).deinitialize(count: end - first)
    first = 0
    end = 0
  }

  private func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: elements + first, count: end - first)
    elements.deallocate()
    elements = larger
    capacity *= 2
    end -= first
    first = 0
  }
}

extension JKRecordSequence {
  /// The records of `chunks`, framed by `framer`, read in batches (see
  /// ``BatchRead``); with `decoding`, an error between records is a
  /// `DecodingError`, as a `JKDecoder` throws.
  init<Chunks: AsyncSequence, Framer: RecordFramer>(
    chunks: Chunks, framer: Framer, maxRecordSize: Int, decoding: Bool = false,
    makeBatchRead: @escaping () -> BatchRead
  ) where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    self.init(
      makeReader: Self.reader(
        chunks: chunks, framer: framer, limit: maxRecordSize, decoding: decoding),
      makeBatchRead: makeBatchRead)
  }

  /// The records of the bytes that the fillers `makeFill` makes store,
  /// framed by `framer`, read in batches (see ``BatchRead``); with
  /// `decoding`, an error between records is a `DecodingError`.
  init<Framer: RecordFramer>(
    filling makeFill: @escaping () -> ByteGathering.Fill, framer: Framer, maxRecordSize: Int,
    decoding: Bool = false, makeBatchRead: @escaping () -> BatchRead
  ) {
    self.init(
      makeReader: {
        RecordReader(
          source: ByteFillSource(fill: makeFill()), framer: framer, limit: maxRecordSize,
          decoding: decoding)
      },
      makeBatchRead: makeBatchRead)
  }

  /// What makes a reader of the records of `chunks`.
  private static func reader<Chunks: AsyncSequence, Framer: RecordFramer>(
    chunks: Chunks, framer: Framer, limit: Int, decoding: Bool
  ) -> () -> any RecordProducing
  where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    {
      RecordReader(
        source: ChunkSequenceSource<Chunks>(iterator: chunks.makeAsyncIterator()),
        framer: framer, limit: limit, decoding: decoding)
    }
  }
}
