/// A scan context with what decoding derives from its key cache, the
/// ``KeyedDecodingTables``: pooled together, so that the tables serve every decoder
/// that takes the context, document after document, and are made again
/// when the key cache has been emptied (its ids then mean other keys).
///
/// Like the scan context, it is used by one decode at a time.
final class DecodingContext: PooledContext, @unchecked Sendable {
  // Unchecked: a context is only ever used by the one caller that took it
  // from a pool (or created it), until it is given back.
  let scan = ScanContext()
  /// The tables of the keys in `scan`'s key cache.
  private(set) var keyTables = KeyedDecodingTables()
  /// The ``ScanState/keyGeneration`` that `keyTables` were made for.
  private var tablesGeneration = 0
  @exclusivity(unchecked) var poolGeneration = 0

  /// The pool that every `JKDecoder` and `JKCBORDecoder` share, so that a
  /// decoder made for one call finds warm buffers, key caches and tables.
  static let shared = ContextPool<DecodingContext>(limit: 4)

  /// The session of the last `decode` call with this context, free, kept
  /// for the next call (``DecodingSession/endCall(_:pool:)``), so that a
  /// call on a small document does not make a session, its lookups and its
  /// keyed containers again; nil while the context is in use. It holds the
  /// context, and the context's makers hold its spare containers, which
  /// hold it: ``retire()`` lets go of both when the pool drops the context.
  private var keptSession: DecodingSession?

  init() {}

  /// A session over `document`, just scanned into this context, decoded
  /// with `options`: the kept session restarted when it can serve them,
  /// otherwise a new one. `sharedValues` decodes the document's shared
  /// values, if it has some; `recordRoots` are the roots of a batch of
  /// records on one tape.
  func session(
    for document: Tape, options: DecodingOptions, recordRoots: [Int] = [],
    sharedValues: (any SharedValueDecoding)? = nil
  ) -> DecodingSession {
    if let kept = keptSession.take() {
      if kept.canRestart(with: options) {
        kept.restart(
          document, recordRoots: recordRoots, options: options, sharedValues: sharedValues)
        return kept
      }
      kept.dropSpareContainers()
    }
    return DecodingSession(
      owner: self, document: document, recordRoots: recordRoots, options: options,
      sharedValues: sharedValues)
  }

  /// Keeps `session`, free, for the next call (see ``keptSession``).
  func keep(_ session: DecodingSession) {
    keptSession = session
  }

  func readyForReuse() {
    scan.readyForReuse()
    if scan.state.keyGeneration != tablesGeneration {
      // The kept session's lookups name the keys of the emptied cache.
      retire()
      keyTables = KeyedDecodingTables()
      tablesGeneration = scan.state.keyGeneration
    }
  }

  func retire() {
    keptSession?.dropSpareContainers()
    keptSession = nil
  }
}
