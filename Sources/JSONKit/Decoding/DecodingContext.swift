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
  var poolGeneration = 0

  /// The pool that every `JKDecoder` and `JKCBORDecoder` share, so that a
  /// decoder made for one call finds warm buffers, key caches and tables.
  static let shared = ContextPool<DecodingContext>(limit: 4)

  init() {}

  func readyForReuse() {
    scan.readyForReuse()
    if scan.state.keyGeneration != tablesGeneration {
      keyTables = KeyedDecodingTables()
      tablesGeneration = scan.state.keyGeneration
    }
  }
}
