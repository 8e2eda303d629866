/// Decodes the records of one stream (JSON Lines, or the elements of one
/// top-level array), each a document of its own, with one scan context and
/// one session for all of them.
///
/// A record of a hundred bytes decodes in a few thousand instructions, and
/// making a session, taking a scan context from the pool and copying the
/// decoder's options would cost nearly as much again per record: here each
/// record scans into the context the last one used and the session begins
/// the new document (``DecodingSession/beginDocument(_:)``), with the
/// keyed containers of the record before given out again
/// (``DecodingSession/endRecord(_:)``). A session
/// that a decoded value kept (a model that stores its decoder) keeps its
/// context for good, as after any decode, and the next record starts
/// afresh; so does a record that grew the context's buffers or key cache
/// past what a pool keeps, which goes back to the pool to be trimmed, so
/// that memory stays bounded by the largest record.
///
/// Records are read in batches (``decode(_:records:bytes:deliver:)``):
/// every record of a batch is scanned onto one tape, each after the one
/// before, and then each is decoded. The scanner and the decoder are each
/// more code than a processor's instruction cache holds beside the other,
/// and alternating between them for every record of a hundred bytes
/// costs more time than decoding the record; a batch runs each of them
/// over many records in turn.
///
/// One stream's reader uses it, one record or batch at a time.
final class RecordDecoder {
  private let options: JKDecoder.Options
  private let configuration: ScanConfiguration
  /// The session of the record before, free for the next one; nil before
  /// the first record and after one that left it unfit to reuse.
  private var session: DecodingSession?

  /// A record of a batch on the tape: the bytes scanned (its own, or `{}`
  /// for an empty one whose object's braces may be left out) and the
  /// tape indexes of its root and of its end entry.
  private struct ScannedRecord {
    var input: UnsafeRawBufferPointer
    var root: Int
    var end: Int
  }

  /// The record of a batch that failed, by its index, and its error.
  struct Failure: Error {
    let index: Int
    let error: any Error
  }

  /// The most records one batch holds.
  static let batchRecords = 64
  /// The bytes of records after which a batch takes no more (its last
  /// record may be of any length).
  static let batchBytes = 16 << 10

  /// Records decoded with `options`.
  init(options: JKDecoder.Options) {
    self.options = options
    configuration = JKDecoder.scanConfiguration(options)
  }

  deinit {
    session?.giveBack(to: DecodingContext.shared)
  }

  /// Decodes the records `records` of a batch in order, `bytes(i)` being
  /// the UTF-8 of the record at `i` (valid for the call), and passes each
  /// value to `deliver` as it is decoded. Stops at the first record that
  /// fails, whose failure it returns: the records before it have been
  /// delivered.
  func decode<T: Decodable>(
    _ type: T.Type, records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer,
    deliver: (consuming T) -> Void
  ) -> Failure? {
    guard !records.isEmpty else { return nil }
    var held = session.take()
    let context = held?.owner ?? DecodingContext.shared.take()
    var scanned: [ScannedRecord] = []
    scanned.reserveCapacity(records.count)
    let scanFailure = scan(records, bytes: bytes, into: context, &scanned)
    var failure: Failure?
    for (offset, record) in scanned.enumerated() {
      let index = records.lowerBound + offset
      let document = Tape(
        context: context.scan, input: record.input, root: record.root, end: record.end)
      var current = Self.session(&held, owner: context, document: document, options)
      let free: Bool
      do {
        let value = try current.decodeDocument(InputText(utf8: bytes(index))) {
          try $0.session.unwrap(type, at: 0, path: [])
        }
        free = DecodingSession.endRecord(&current)
        deliver(consume value)
      } catch {
        failure = Failure(index: index, error: error)
        free = DecodingSession.endRecord(&current)
      }
      if free {
        held = current
      } else {
        // A decoded value kept the session, and the context with the
        // rest of the batch's tape: the rest is read record by record.
        if failure == nil {
          failure = decodeAlone(
            type, records: index + 1..<records.lowerBound + scanned.count, bytes: bytes,
            deliver: deliver)
        }
        break
      }
      if failure != nil { break }
    }
    if let held {
      keepOrGiveBack(held)
    } else if scanned.isEmpty {
      // No session was made over the context: it goes straight back.
      DecodingContext.shared.give(context)
    }
    return failure ?? scanFailure
  }

  /// Scans the records onto the tape of `context`, each after the one
  /// before, adding each to `scanned`; stops at the first that fails to
  /// scan, whose failure it returns.
  private func scan(
    _ records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer, into context: DecodingContext,
    _ scanned: inout [ScannedRecord]
  ) -> Failure? {
    for index in records {
      let appending = index != records.lowerBound
      let root = appending ? context.scan.state.tape.count : 0
      do {
        let input = try JKDecoder.scan(
          InputText(utf8: bytes(index)), into: context.scan, options, configuration,
          appending: appending)
        scanned.append(
          ScannedRecord(input: input, root: root, end: context.scan.state.tape.count - 1))
      } catch {
        return Failure(index: index, error: error)
      }
    }
    return nil
  }

  /// The session for the next record, over `document`: the one `held`
  /// (which it takes), or a new one on `owner`.
  private static func session(
    _ held: inout DecodingSession?, owner: DecodingContext, document: Tape,
    _ options: JKDecoder.Options
  ) -> DecodingSession {
    if let reused = held.take() {
      reused.beginDocument(document)
      return reused
    }
    return DecodingSession(owner: owner, document: document, options: options)
  }

  /// Decodes the records one at a time, each scanned and decoded before
  /// the next, as ``decode(_:records:bytes:deliver:)`` does.
  private func decodeAlone<T: Decodable>(
    _ type: T.Type, records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer,
    deliver: (consuming T) -> Void
  ) -> Failure? {
    for index in records {
      do {
        deliver(try decode(type, from: bytes(index)))
      } catch {
        return Failure(index: index, error: error)
      }
    }
    return nil
  }

  /// Decodes `type` from one record's UTF-8 `bytes`, which are valid for
  /// the call only.
  func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
    let text = InputText(utf8: bytes)
    // The session of the record before is moved out, not copied: a stream
    // of small records would otherwise take and drop references to it and
    // its context, atomically, several times per record.
    guard var current = session.take() else { return try decodeFirst(type, text) }
    let input: UnsafeRawBufferPointer
    do {
      input = try JKDecoder.scan(text, into: current.context, options, configuration)
    } catch {
      // A record that fails to scan may have grown the buffers as much as
      // one that scans, and they go back to the pool to be trimmed alike.
      keepOrGiveBack(current)
      throw error
    }
    current.beginDocument(Tape(context: current.context, input: input))
    return try decode(type, text, in: &current)
  }

  /// Decodes the first record, or the first after one that left its
  /// session unfit to reuse: with a context from the pool and a new session.
  @inline(never)
  private func decodeFirst<T: Decodable>(_ type: T.Type, _ text: InputText) throws -> T {
    let context = DecodingContext.shared.take()
    let input: UnsafeRawBufferPointer
    do {
      input = try JKDecoder.scan(text, into: context.scan, options, configuration)
    } catch {
      DecodingContext.shared.give(context)
      throw error
    }
    var current = DecodingSession(owner: context, input: input, options: options)
    return try decode(type, text, in: &current)
  }

  /// Decodes the record that `current` has begun, then keeps the session
  /// for the next record when it is free.
  @inline(__always)
  private func decode<T: Decodable>(
    _ type: T.Type, _ text: InputText, in current: inout DecodingSession
  ) throws -> T {
    defer {
      if DecodingSession.endRecord(&current) { keepOrGiveBack(current) }
    }
    return try current.decodeDocument(text) { try $0.session.unwrap(type, at: 0, path: []) }
  }

  /// Keeps a free session for the next record, or gives it back to the
  /// pool when its context grew past what the pool keeps (so that memory
  /// stays bounded by the largest record).
  private func keepOrGiveBack(_ free: consuming DecodingSession) {
    if free.context.state.outgrewKept {
      session = nil
      free.giveBack(to: DecodingContext.shared)
    } else {
      session = free
    }
  }
}
