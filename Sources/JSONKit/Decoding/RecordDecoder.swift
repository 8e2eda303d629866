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
  /// The record type last found to decode by its initializer alone (see
  /// ``DecodingSession/decodesByInitializer(_:)``): a stream asks once, not
  /// once per batch.
  private var initializerDecoded: ObjectIdentifier?

  /// The record of a batch that failed, by its index, and its error.
  struct Failure: Error {
    let index: Int
    let error: any Error
  }

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
  /// the UTF-8 of the record at `i` (valid for the call, never empty), and
  /// passes each value to `deliver` as it is decoded. Stops at the first
  /// record that fails, whose failure it returns: the records before it
  /// have been delivered.
  ///
  /// When the records lie in one block of memory, in order (the lines of
  /// one `Data`, the records a stream's buffer holds), they are scanned
  /// within that block onto one tape and decoded with one session, as the
  /// elements of an array would be; otherwise each is a batch of its own.
  func decode<T: Decodable>(
    _ type: T.Type, records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer,
    deliver: (consuming T) -> Void
  ) -> Failure? {
    if let region = Scanner.region(of: records, bytes) {
      return decode(type, records, bytes, within: region, deliver)
    }
    for index in records {
      let record = index..<index + 1
      if let failure = decode(type, record, bytes, within: bytes(index), deliver) {
        return failure
      }
    }
    return nil
  }

  /// Decodes the records, which lie in `region`, as
  /// ``decode(_:records:bytes:deliver:)`` does.
  private func decode<T: Decodable>(
    _ type: T.Type, _ records: Range<Int>, _ bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, _ deliver: (consuming T) -> Void
  ) -> Failure? {
    var held = session.take()
    let context = held?.owner ?? DecodingContext.shared.take()
    var roots: [Int] = []
    roots.reserveCapacity(records.count)
    let scanFailure = Scanner.scanRecords(
      records, bytes, within: region, into: context.scan, configuration: configuration,
      roots: &roots
    ).map { Failure(index: $0.index, error: DecodingErrors.invalidJSON($0.error)) }
    let failure = decodeScanned(
      type, roots: roots, first: records.lowerBound, bytes, within: region, held: held.take(),
      context: context, deliver)
    return failure ?? scanFailure
  }

  /// Decodes the elements of a stream's array that `run` holds from its
  /// start, as many as the scanner takes in one batch (see
  /// ``Scanner/scanElements(_:into:configuration:elementSize:)``),
  /// none longer than `limit`, passing each value to `deliver`; returns
  /// what the run took, and the failure of the element that failed to
  /// decode, by its index in the run, if one did.
  func decodeRun<T: Decodable>(
    _ type: T.Type, run: UnsafeRawBufferPointer, limit: Int, deliver: (consuming T) -> Void
  ) -> (taken: ElementRun, failure: Failure?) {
    var held = session.take()
    let context = held?.owner ?? DecodingContext.shared.take()
    let taken = Scanner.scanElements(
      run, into: context.scan, configuration: configuration, elementSize: limit)
    let failure = decodeScanned(
      type, roots: taken.roots, first: 0, { taken.element($0, in: run) },
      within: taken.taken(of: run), held: held.take(), context: context, deliver)
    return (taken, failure)
  }

  /// Decodes the records whose roots a scan of `region` into `context` left
  /// on its tape, the first being record `first`, with the session `held`
  /// when the batch before left one; then keeps the session for the next
  /// batch or gives the context back.
  private func decodeScanned<T: Decodable>(
    _ type: T.Type, roots: [Int], first: Int, _ bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, held: consuming DecodingSession?,
    context: DecodingContext, _ deliver: (consuming T) -> Void
  ) -> Failure? {
    var held = held
    guard !roots.isEmpty else {
      // A record that fails to scan may have grown the buffers as much as
      // one that scans, and they go back to the pool to be trimmed alike.
      if let held { keepOrGiveBack(held) } else { DecodingContext.shared.give(context) }
      return nil
    }
    let document = Tape(context: context.scan, input: region)
    var current: DecodingSession
    if let reused = held.take() {
      reused.beginDocument(document, recordRoots: roots)
      current = reused
    } else {
      current = context.session(for: document, options: options.decoding, recordRoots: roots)
    }
    var failure: Failure?
    let regionStart = region.baseAddress.unsafelyUnwrapped
    var byInitializer = initializerDecoded == ObjectIdentifier(T.self)
    if !byInitializer, current.decodesByInitializer(type) {
      byInitializer = true
      initializerDecoded = ObjectIdentifier(T.self)
    }
    for (offset, root) in roots.enumerated() {
      let index = first + offset
      let text = bytes(index)
      do {
        let value = try current.decodeDocument(
          InputText(utf8: text), root: root, start: text.baseAddress.unsafelyUnwrapped - regionStart
        ) {
          byInitializer
            ? try $0.session.initialize(type, at: root)
            : try $0.session.unwrap(type, at: root, path: [])
        }
        deliver(consume value)
      } catch {
        failure = Failure(index: index, error: error)
        break
      }
    }
    // A decoded value that kept the session keeps the batch's tape and a
    // copy of its text with it: the next batch takes another context.
    if DecodingSession.endRecord(&current) { keepOrGiveBack(current) }
    return failure
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
