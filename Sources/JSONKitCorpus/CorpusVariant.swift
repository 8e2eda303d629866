import Foundation

/// One input of the decoding benchmarks: a typed corpus, in one key order, for the
/// literal model or (Twitter only) the app-style one.
///
/// Both the `ordo-one/benchmark` suite and the `compare` tool in `Benchmarks/` take
/// their inputs from here, so they measure the same bytes. Every variant is made from
/// the original file when it is asked for, deterministically.
///
/// ```swift
/// let variant = CorpusVariant(.twitter, .shuffled)
/// let bytes = try variant.data(in: directory)   // variant.name == "twitter-shuffled"
/// ```
public struct CorpusVariant: Hashable, Sendable {
  /// The corpus the variant is made from.
  public let corpus: Corpus
  /// How each object lists its keys.
  public let keyOrder: KeyOrder
  /// Whether this is `twitter.json` for ``TwitterApp``, with ISO 8601 dates
  /// (``TwitterApp/appStyleDocument(from:)``).
  public let appStyle: Bool

  /// The variant of a typed corpus (``Corpus/typed``) in `keyOrder`; `appStyle` is for
  /// ``Corpus/twitter`` only.
  public init(_ corpus: Corpus, _ keyOrder: KeyOrder = .declaration, appStyle: Bool = false) {
    precondition(corpus.typed, "\(corpus.fileName) has no model")
    precondition(!appStyle || corpus == .twitter, "only twitter.json has an app-style model")
    self.corpus = corpus
    self.keyOrder = keyOrder
    self.appStyle = appStyle
  }

  /// Every variant the benchmarks decode: each typed corpus in each key order, then the
  /// app-style Twitter in each key order.
  public static let all: [CorpusVariant] =
    [Corpus.twitter, .citmCatalog, .canada].flatMap { corpus in
      KeyOrder.allCases.map { CorpusVariant(corpus, $0) }
    } + KeyOrder.allCases.map { CorpusVariant(.twitter, $0, appStyle: true) }

  /// The name in benchmark names: the file's name without `.json`, then `-app` for the
  /// app-style variant and the key order unless it is the declaration order, as in
  /// `twitter`, `citm_catalog-sorted`, `twitter-app-shuffled`.
  public var name: String {
    var name = String(corpus.fileName.dropLast(".json".count))
    if appStyle { name += "-app" }
    if keyOrder != .declaration { name += "-\(keyOrder.rawValue)" }
    return name
  }

  /// The variant's bytes, made from the corpus file in `directory`.
  public func data(in directory: URL) throws -> Data {
    try data(fromOriginal: corpus.data(in: directory))
  }

  /// The variant's bytes, made from `original`, the corpus file's bytes.
  public func data(fromOriginal original: Data) throws -> Data {
    try keyOrder.reorder(appStyle ? TwitterApp.appStyleDocument(from: original) : original)
  }

  /// `document` without whitespace, keys and scalars as they are: the declaration-order
  /// counterpart of the minified variants, for telling what key order costs from what
  /// whitespace does.
  public static func minified(_ document: Data) throws -> Data {
    Data(try RawJSON(parsing: Array(document)).minified())
  }

  /// `twitter.json` with its `statuses` array repeated `times` times, minified: the same
  /// kind of content at a multiple of the size, for checking that time and memory grow
  /// linearly with the input.
  public static func twitterRepeated(_ original: Data, times: Int) throws -> Data {
    precondition(times > 0, "times must be positive")
    var tree = try RawJSON(parsing: Array(original))
    guard case .object(var members) = tree.root,
      let index = members.firstIndex(where: { $0.name == Array("statuses".utf8) }),
      case .array(let statuses) = members[index].value
    else { throw RawJSON.Malformed(offset: 0) }
    members[index].value = .array(
      Array([[RawJSON.Node]](repeating: statuses, count: times).joined()))
    tree.root = .object(members)
    return Data(tree.minified())
  }
}
