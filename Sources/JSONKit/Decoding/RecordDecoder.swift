/// Decodes the records of one stream (JSON Lines, or the elements of one
/// top-level array), each a document of its own, with one scan context and
/// one session for all of them.
///
/// Records are read in batches (``decode(_:records:bytes:deliver:)``):
/// every record of a batch is scanned onto one tape, each after the one
/// before, with offsets in the block of memory that holds them all, and
/// then one session decodes them in turn, each from its root, as it would
/// decode the elements of an array. The scanner and the decoder are each
/// more code than a processor's instruction cache holds beside the other,
/// and alternating between them for every record of a hundred bytes costs
/// more time than decoding the record; and a session that began and ended
/// a document for every record would spend nearly as much again. Errors
/// and coding paths are still each record's own: a record's decode starts
/// at its root and places its errors in its text
/// (``DecodingSession/decodeDocument(_:root:start:_:)``).
///
/// The next batch scans into the context the last one used, and the
/// session begins the new tape (``DecodingSession/beginDocument(_:recordRoots:)``)
/// with the keyed containers of the batch before given out again
/// (``DecodingSession/endRecord(_:)``). A session that a decoded value
/// kept (a model that stores its decoder) keeps its context and a copy of
/// its batch's text for good, as after any decode, and the next batch
/// starts afresh; so does a batch that grew the context's buffers or key
/// cache past what a pool keeps, which goes back to the pool to be
/// trimmed, so that memory stays bounded by the largest batch.
///
/// One stream's reader uses it, one batch at a time.
final class RecordDecoder {
  private let options: JKDecoder.Options
  private let configuration: ScanConfiguration
  /// The session of the batch before, free for the next one; nil before
  /// the first batch and after one that left it unfit to reuse.
  private var session: DecodingSession?

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

  /// Records decoded with `options`: the elements of an array when
  /// `elements` (a byte order mark before one is no mark but an error, as
  /// it is inside a whole array), otherwise documents of their own.
  init(options: JKDecoder.Options, elements: Bool = false) {
    self.options = options
    var configuration = JKDecoder.scanConfiguration(options)
    configuration.skipsByteOrderMark = !elements
    self.configuration = configuration
  }

  deinit {
    session?.giveBack(to: DecodingContext.shared)
  }

  /// Decodes the records `records` of a batch in order, `bytes(i)` being
  /// the UTF-8 of the record at `i` (valid for the call), and passes each
  /// value to `deliver` as it is decoded. Stops at the first record that
  /// fails, whose failure it returns: the records before it have been
  /// delivered.
  ///
  /// When the records lie in one block of memory, in order (the lines of
  /// one `Data`, the records a stream's buffer holds), and none is empty,
  /// they are scanned within that block onto one tape and decoded with one
  /// session, as the elements of an array would be; otherwise each is
  /// scanned and decoded alone.
  func decode<T: Decodable>(
    _ type: T.Type, records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer,
    deliver: (consuming T) -> Void
  ) -> Failure? {
    guard let first = records.first, let region = Scanner.region(of: records, bytes) else {
      return decodeAlone(type, records: records, bytes: bytes, deliver: deliver)
    }
    var held = session.take()
    let context = held?.owner ?? DecodingContext.shared.take()
    var roots: [Int] = []
    roots.reserveCapacity(records.count)
    let scanFailure = scan(records, bytes: bytes, within: region, into: context, &roots)
    guard !roots.isEmpty else {
      if let held { keepOrGiveBack(held) } else { DecodingContext.shared.give(context) }
      return scanFailure
    }
    let document = Tape(context: context.scan, input: region)
    var current: DecodingSession
    if let reused = held.take() {
      reused.beginDocument(document, recordRoots: roots)
      current = reused
    } else {
      current = DecodingSession(
        owner: context, document: document, recordRoots: roots, options: options)
    }
    var failure: Failure?
    let regionStart = region.baseAddress.unsafelyUnwrapped
    for (offset, root) in roots.enumerated() {
      let index = first + offset
      let text = bytes(index)
      do {
        let value = try current.decodeDocument(
          InputText(utf8: text), root: root, start: text.baseAddress.unsafelyUnwrapped - regionStart
        ) { try $0.session.unwrap(type, at: root, path: []) }
        deliver(consume value)
      } catch {
        failure = Failure(index: index, error: error)
        break
      }
    }
    // A decoded value that kept the session keeps the batch's tape and a
    // copy of its text with it: the next batch takes another context.
    if DecodingSession.endRecord(&current) { keepOrGiveBack(current) }
    return failure ?? scanFailure
  }

  /// Scans the records within `region` onto the tape of `context`, each
  /// after the one before, adding each one's root to `roots`; stops at the
  /// first that fails to scan, whose failure it returns.
  private func scan(
    _ records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, into context: DecodingContext, _ roots: inout [Int]
  ) -> Failure? {
    for index in records {
      let appending = index != records.lowerBound
      let root = appending ? context.scan.state.tape.count : 0
      do {
        try JKDecoder.scanRecord(
          InputText(utf8: bytes(index)), into: context.scan, configuration, within: region,
          appending: appending)
      } catch {
        return Failure(index: index, error: error)
      }
      roots.append(root)
    }
    return nil
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
  private func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T
  {
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
