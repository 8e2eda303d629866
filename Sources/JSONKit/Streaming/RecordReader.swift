/// Reads a stream's records one at a time: pulls chunks from its source
/// into one buffer, asks its framer where each record ends, and keeps only
/// the unfinished record when it reads on, so that memory is bounded by the
/// largest record (at most `limit` bytes) plus one chunk.
///
/// One iterator reads through it, one call at a time, and no access to one
/// of its members overlaps another to the same member: they are not
/// checked, which cost two checks per record.
final class RecordReader<Framer: RecordFramer, Source: ChunkSource> {
  @exclusivity(unchecked) private var source: Source
  @exclusivity(unchecked) private var framer: Framer
  @exclusivity(unchecked) private var buffer = StreamBuffer()
  private let limit: Int
  @exclusivity(unchecked) private var sourceEnded = false
  @exclusivity(unchecked) private var stopped = false
  /// Whether an error between records is thrown as a `DecodingError`.
  private let decoding: Bool

  /// A reader of the records of `source` that `framer` finds, none longer
  /// than `limit`; with `decoding`, a syntax error between records (or a
  /// record too long) is thrown as `JKDecoder` throws one, a
  /// `DecodingError.dataCorrupted` with the ``JKParseError`` under it.
  init(source: Source, framer: Framer, limit: Int, decoding: Bool = false) {
    self.source = source
    self.framer = framer
    self.decoding = decoding
    // One record is scanned as one document, which may not reach 4 GiB.
    self.limit = Swift.max(0, Swift.min(limit, Int(UInt32.max) - 1))
  }

  deinit {
    buffer.deallocate()
  }

  /// Ends the stream: later calls of ``next()`` return `nil`, as after an error.
  func stop() {
    stopped = true
  }

  /// The next record's bytes (valid until it next reads from the source) and place, or
  /// `nil` at the end of the stream. Throws `CancellationError` when the
  /// task is cancelled before more is read from the source (the sequence's
  /// iterator checks at every record it delivers), and ``JKParseError``
  /// when the stream is not made of records; either ends the stream.
  @inline(__always)
  func next() async throws -> (bytes: UnsafeRawBufferPointer, place: RecordPlace)? {
    while true {
      if let record = try nextBuffered(startingBatch: true) { return record }
      if stopped { return nil }
      if sourceEnded {
        stopped = true
        return nil
      }
      do {
        try Task.checkCancellation()
        if buffer.end - framer.pendingStart - framer.unlimitedPrefix > limit {
          throw failure(framer.oversized(limit: limit))
        }
        let keep = framer.pendingStart
        framer.willDiscard(in: buffer, upTo: keep)
        buffer.discard(upTo: keep)
        sourceEnded = try await !source.read(into: &buffer)
      } catch {
        // What the source throws comes as it was thrown.
        stopped = true
        throw error
      }
    }
  }

  /// The next record when the buffer already holds all of it, without
  /// waiting for the source; `nil` when the stream has ended or more must
  /// be read (``next()`` tells which). Most records of a stream of small
  /// records arrive this way, with no suspension point in between; the
  /// records it gives stay valid until ``next()`` reads from the source, so
  /// that a batch of them can be read at once. A record that begins a
  /// batch may be a run of records (``RecordPlace/beginsRun``), which
  /// ``endRun(_:)`` ends; a later one never is. Throws as ``next()`` does,
  /// but for cancellation.
  func nextBuffered(startingBatch: Bool) throws -> (
    bytes: UnsafeRawBufferPointer, place: RecordPlace
  )? {
    guard !stopped else { return nil }
    do {
      guard
        let record = try framer.nextRecord(
          in: buffer, atEnd: sourceEnded, startingBatch: startingBatch)
      else { return nil }
      guard record.end - record.start <= limit || record.place.beginsRun else {
        throw JKParseError.recordTooLarge(record.place, limit: limit)
      }
      return (buffer.bytes(from: record.start, to: record.end), record.place)
    } catch {
      stopped = true
      throw failure(error)
    }
  }

  /// `error` as this reader throws it.
  private func failure(_ error: any Error) -> any Error {
    guard decoding, let error = error as? JKParseError else { return error }
    return DecodingErrors.invalidJSON(error)
  }

  /// Appends to `records` the records after the first of a batch that the
  /// buffer already holds whole, until `records` holds `count` or their
  /// bytes reach `bytes` (never a run, see
  /// ``nextBuffered(startingBatch:)``); returns the error that ended the
  /// stream among them, if one did. One call per batch: the framer's loop
  /// runs here, where it is specialized, rather than once per record
  /// through ``RecordProducing``.
  func appendBuffered(to records: inout [StreamRecord], count: Int, bytes: Int) -> (any Error)? {
    var length = 0
    for record in records { length += record.bytes.count }
    while records.count < count, length < bytes {
      do {
        guard let record = try nextBuffered(startingBatch: false) else { return nil }
        records.append(record)
        length += record.bytes.count
      } catch {
        return error
      }
    }
    return nil
  }

  /// Takes up framing where the run of records it last gave ended.
  func endRun(_ end: ElementRunEnd) {
    framer.endRun(end, in: buffer)
  }

  /// The longest record accepted, in bytes.
  var recordLimit: Int { limit }
}

/// A record reader with its framer and source hidden, so that one public
/// sequence type serves every kind of stream.
protocol RecordProducing: AnyObject {
  func next() async throws -> (bytes: UnsafeRawBufferPointer, place: RecordPlace)?
  func nextBuffered(startingBatch: Bool) throws -> (
    bytes: UnsafeRawBufferPointer, place: RecordPlace
  )?
  func appendBuffered(to records: inout [StreamRecord], count: Int, bytes: Int) -> (any Error)?
  func endRun(_ end: ElementRunEnd)
  var recordLimit: Int { get }
  func stop()
}

extension RecordReader: RecordProducing {}
