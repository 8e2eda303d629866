/// Decodes the records of one stream (JSON Lines, or the elements of one
/// top-level array), each a document of its own, with one scan context and
/// one session for all of them.
///
/// A record of a hundred bytes decodes in a few thousand instructions, and
/// making a session, taking a scan context from the pool and copying the
/// decoder's options would cost nearly as much again per record: here each
/// record scans into the context the last one used and the session begins
/// the new document (``DecodingSession/beginDocument(input:)``), with the
/// keyed containers of the record before given out again
/// (``DecodingSession/endRecord(_:)``). A session
/// that a decoded value kept (a model that stores its decoder) keeps its
/// context for good, as after any decode, and the next record starts
/// afresh; so does a record that grew the context's buffers or key cache
/// past what a pool keeps, which goes back to the pool to be trimmed, so
/// that memory stays bounded by the largest record.
///
/// One stream's reader uses it, one record at a time.
final class RecordDecoder {
  private let options: JKDecoder.Options
  private let configuration: ScanConfiguration
  /// The session of the record before, free for the next one; nil before
  /// the first record and after one that left it unfit to reuse.
  private var session: DecodingSession?

  /// Records decoded with `options`.
  init(options: JKDecoder.Options) {
    self.options = options
    configuration = JKDecoder.scanConfiguration(options)
  }

  deinit {
    session?.giveBack(to: DecodingContext.shared)
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
    current.beginDocument(input: input)
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
