import Foundation

/// Decodes `Decodable` values from JSON: a drop-in for Foundation's
/// `JSONDecoder`, several times faster, with JSONKit's strict rules.
///
/// Change the type name and keep the rest:
///
/// ```swift
/// let decoder = JKDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let user = try decoder.decode(User.self, from: data)
/// ```
///
/// The strategies are Foundation's own types and behave as Foundation's.
/// Differences are deliberate and stricter: the whole input is validated
/// before any value is produced; numbers convert exactly or throw (with the
/// coding path); a `Decimal` keeps every digit or throws; duplicate keys
/// resolve to the last value, as do keys that the key strategy converts to
/// one name (`a_b` and `aB`). Syntax errors are
/// `DecodingError.dataCorrupted` whose description says the line, column and
/// byte offset, with a ``JKParseError`` as the underlying error.
///
/// One decoder may be used from many threads at once. Decoders keep a cache
/// of the object keys they have seen (each key's `String` is made once, and
/// `.convertFromSnakeCase` converts each distinct key once), shared by every
/// decoder in the process and reused by later calls, so a decoder made for
/// one call costs no more than one kept; ``clearCache()`` empties it.
public final class JKDecoder: LockedOptions, @unchecked Sendable {
  // Unchecked: the mutable state is `options`, guarded by `optionsLock`; the
  // cache pool synchronizes itself.

  /// How keys in the JSON are matched with coding keys: Foundation's type.
  public typealias KeyDecodingStrategy = JSONDecoder.KeyDecodingStrategy
  /// How dates are read: Foundation's type.
  public typealias DateDecodingStrategy = JSONDecoder.DateDecodingStrategy
  /// How `Data` is read: Foundation's type.
  public typealias DataDecodingStrategy = JSONDecoder.DataDecodingStrategy
  /// How NaN and infinities written as strings are read: Foundation's type.
  public typealias NonConformingFloatDecodingStrategy = JSONDecoder
    .NonConformingFloatDecodingStrategy

  /// Everything that configures one `decode` call, copied at its start:
  /// how the JSON text is read, and how its tape is decoded.
  struct Options: Sendable {
    /// How the tape is decoded into the model, as it is for CBOR too.
    var decoding = DecodingOptions()
    var parseOptions: JKParseOptions = []
    var assumesTopLevelDictionary = false
    var decompression = JKDecompression.gzip
  }

  /// What to do with a member of a JSON object that the model never asks
  /// about.
  public enum UnknownKeyStrategy: Sendable, Hashable {
    /// Skip it, as `JSONDecoder` does.
    case ignore
    /// Throw `DecodingError.dataCorrupted` at the object's coding path,
    /// naming the key and pointing at it (`DecodingError.jsonLocation`).
    ///
    /// A member is known when the `init(from:)` that read its object asked
    /// about its key in any way: `decode`, `decodeIfPresent`, `contains`,
    /// `decodeNil`, a nested container or `superDecoder(forKey:)`, or by
    /// reading `allKeys`; `superDecoder()` asks about `super`. Keys are
    /// compared as the key strategy names them, and a superclass that reads
    /// the same decoder adds what it asks. Dictionaries and ``JSONValue``
    /// take any key. An object whose decode returns without asking about
    /// it at all (the `init(from:)` of a struct with no properties, one that
    /// ignores its decoder, a superclass that reads nothing behind
    /// `superDecoder()`) has only unknown members. An object is checked when
    /// the decode of the value that holds it returns, so a value that a
    /// model drops with `try?` is not checked, nor are the elements of an
    /// array that a model leaves unread, or an object that a `.custom` date
    /// or data strategy does not read.
    case reject
  }

  /// Guards ``storedOptions``.
  let optionsLock = NSLock()
  /// The settings, read whole at the start of each call.
  @exclusivity(unchecked) var storedOptions = Options()
  /// The scan contexts, with their buffers and key caches: process-wide,
  /// so that what one decoder builds up serves every other.
  private var contexts: ContextPool<DecodingContext> { DecodingContext.shared }

  /// Creates a decoder with Foundation's defaults and strict parsing.
  public init() {}

  /// A new JKDecoder with all of this one's settings (strategies, options,
  /// limits, `userInfo`), to change without changing this one: for
  /// example, a per-request variant of a JKDecoder that requests share.
  public func copy() -> JKDecoder {
    copyWithSettings()
  }

  /// How keys in the JSON are matched with coding keys. Default: `.useDefaultKeys`.
  public var keyDecodingStrategy: KeyDecodingStrategy {
    get { withOptions { $0.decoding.keyDecodingStrategy } }
    set { withOptions { $0.decoding.keyDecodingStrategy = newValue } }
  }

  /// How `Date` values are read. Default: `.deferredToDate`.
  public var dateDecodingStrategy: DateDecodingStrategy {
    get { withOptions { $0.decoding.dateDecodingStrategy } }
    set { withOptions { $0.decoding.dateDecodingStrategy = newValue } }
  }

  /// How `Data` values are read. Default: `.base64`.
  public var dataDecodingStrategy: DataDecodingStrategy {
    get { withOptions { $0.decoding.dataDecodingStrategy } }
    set { withOptions { $0.decoding.dataDecodingStrategy = newValue } }
  }

  /// How strings standing for NaN and infinities are read. Default: `.throw`.
  public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
    get { withOptions { $0.decoding.nonConformingFloatDecodingStrategy } }
    set { withOptions { $0.decoding.nonConformingFloatDecodingStrategy = newValue } }
  }

  /// Values that `init(from:)` implementations can read from their decoder.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { withOptions { $0.decoding.userInfo } }
    set { withOptions { $0.decoding.userInfo = newValue } }
  }

  /// Extensions to strict JSON that the decoder accepts. Default: `[]`.
  public var parseOptions: JKParseOptions {
    get { withOptions { $0.parseOptions } }
    set { withOptions { $0.parseOptions = newValue } }
  }

  /// The deepest nesting of arrays and objects accepted; deeper input is an
  /// error. Default: 512, as `JSONDecoder`'s fixed limit; values above
  /// ``JSONValue/maxDepthLimit`` act as that limit.
  ///
  /// A type that decodes itself recursively (a tree of nodes) needs call
  /// stack in proportion to the depth of its input.
  public var maxDepth: Int {
    get { withOptions { $0.decoding.maxDepth } }
    set { withOptions { $0.decoding.maxDepth = newValue } }
  }

  /// Whether input compressed with gzip is inflated before it is decoded,
  /// and to at most how many bytes. Default: ``JKDecompression/gzip``,
  /// which recognises gzip's signature and inflates up to 1 GiB.
  ///
  /// ```swift
  /// decoder.decompression = .gzip(maxInflatedSize: 10 << 20)  // 10 MiB of JSON at most
  /// decoder.decompression = .disabled  // read every input as JSON text
  /// ```
  ///
  /// A corrupt, truncated or oversized stream is
  /// `DecodingError.dataCorrupted` with a ``JKParseError`` underneath whose
  /// offset counts compressed bytes; errors in the JSON inside say where in
  /// the inflated text.
  public var decompression: JKDecompression {
    get { withOptions { $0.decompression } }
    set { withOptions { $0.decompression = newValue } }
  }

  /// Whether JSON5 is accepted, as Foundation's `allowsJSON5`: the same as
  /// ``JKParseOptions/json5`` in ``parseOptions``. Default: `false`.
  ///
  /// The grammar is the one Foundation's `JSONDecoder` reads (see
  /// ``JKParseOptions/json5``), and JSONKit's Unicode and number rules
  /// still apply:
  ///
  /// ```swift
  /// let decoder = JKDecoder()
  /// decoder.allowsJSON5 = true
  /// let sizes = try decoder.decode([String: Int].self, from: "{small: 0x10, large: +64,}")
  /// ```
  public var allowsJSON5: Bool {
    get { parseOptions.contains(.json5) }
    set {
      withOptions {
        if newValue {
          $0.parseOptions.insert(.json5)
        } else {
          $0.parseOptions.remove(.json5)
        }
      }
    }
  }

  /// Whether a top level that does not begin with `{` is read as the
  /// members of an object whose braces are left out (`"a": 1, "b": 2`), as
  /// Foundation's `assumesTopLevelDictionary`. Default: `false`.
  ///
  /// As in Foundation, it works with and without ``allowsJSON5``; input
  /// that holds no member at all is the empty object, and input that does
  /// begin with `{` is an ordinary object.
  public var assumesTopLevelDictionary: Bool {
    get { withOptions { $0.assumesTopLevelDictionary } }
    set { withOptions { $0.assumesTopLevelDictionary = newValue } }
  }

  /// What to do with members of JSON objects that the model never asks
  /// about. Default: ``UnknownKeyStrategy/ignore``, as `JSONDecoder`.
  ///
  /// ```swift
  /// let decoder = JKDecoder()
  /// decoder.unknownKeyStrategy = .reject
  /// // {"id": 1, "nmae": "Ada"} into a model of `id` and `name` throws:
  /// // Unknown key "nmae": the model does not read it, …
  /// ```
  public var unknownKeyStrategy: UnknownKeyStrategy {
    get { withOptions { $0.decoding.unknownKeyStrategy } }
    set { withOptions { $0.decoding.unknownKeyStrategy = newValue } }
  }

  /// Empties the key caches that speed up repeated decoding: the one every
  /// `JKDecoder` shares, and `JSONValue` parsing's.
  public func clearCache() {
    contexts.removeAll()
    ScanContextPool.shared.removeAll()
  }

  // MARK: - Decoding

  /// Decodes a value of type `T` from JSON bytes: UTF-8, or UTF-16 or
  /// UTF-32 of either byte order with or without a byte order mark, told
  /// apart as `JSONDecoder` tells them (UTF-8 is read in place; the others
  /// are transcoded first).
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try data.withUnsafeBytes { try decode(type, fromBytes: $0) }
  }

  /// Decodes a value of type `T` from JSON bytes in any of the encodings
  /// that `decode(_:from:)` with `Data` reads.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try bytes.withUnsafeBytes { try decode(type, fromBytes: $0) }
  }

  /// Decodes a value of type `T` from JSON text. A `String` is text
  /// already, so its UTF-8 is read as it is, never taken for UTF-16.
  public func decode<T: Decodable>(_ type: T.Type, from string: String) throws -> T {
    try InputBytes.with(string) { bytes in
      try withRootDecoder(InputText(utf8: bytes), withOptions { $0 }) { decoder in
        try decoder.session.unwrap(type, at: 0, path: [])
      }
    }
  }

  /// Decodes a value of type `T` from JSON bytes in memory the caller owns,
  /// in any of the encodings that `decode(_:from:)` with `Data` reads;
  /// nothing is retained after the call returns.
  public func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeRawBufferPointer) throws -> T
  {
    try decode(type, fromBytes: buffer)
  }

  /// Decodes a value that needs a configuration, as Foundation's
  /// `decode(_:from:configuration:)` does.
  public func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
  ) throws -> T {
    try data.withUnsafeBytes { bytes in
      try withRootDecoder(bytes) { decoder in
        try decoder.session.checkingUnknownKeys(at: 0) {
          try type.init(from: decoder, configuration: configuration)
        }
      }
    }
  }

  /// Decodes a value whose configuration a provider type supplies.
  public func decode<T, C>(
    _ type: T.Type, from data: Data, configuration: C.Type
  ) throws -> T
  where
    T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
    T.DecodingConfiguration == C.DecodingConfiguration
  {
    try decode(type, from: data, configuration: C.decodingConfiguration)
  }

  private func decode<T: Decodable>(_ type: T.Type, fromBytes bytes: UnsafeRawBufferPointer) throws
    -> T
  {
    try withRootDecoder(bytes) { decoder in
      try decoder.session.unwrap(type, at: 0, path: [])
    }
  }

  /// `{}`, in static storage that lives as long as the process.
  private static var emptyObject: UnsafeRawBufferPointer {
    let text: StaticString = "{}"
    return UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
  }

  /// Inflates `bytes` if they are gzip, reads the text in whichever Unicode
  /// encoding it is (UTF-8 passes straight through) and runs `body` with a
  /// decoder for the root value.
  func withRootDecoder<R>(
    _ bytes: UnsafeRawBufferPointer, _ body: (TapeDecoder) throws -> R
  ) throws -> R {
    let options = withOptions { $0 }
    return try InputText.withText(bytes, options.decompression, wrap: DecodingErrors.notJSON) {
      text throws in try withRootDecoder(text, options, body)
    }
  }

  /// Scans `text` and runs `body` with a decoder for the root value. The
  /// scan context goes back to the cache pool unless a decoded value kept a
  /// decoder, in which case the session takes ownership of its input copy.
  func withRootDecoder<R>(
    _ text: InputText, _ options: Options, _ body: (TapeDecoder) throws -> R
  ) throws -> R {
    let context = contexts.take()
    let bytes: UnsafeRawBufferPointer
    do {
      bytes = try Self.scan(text, into: context.scan, options, Self.scanConfiguration(options))
    } catch {
      contexts.give(context)
      throw error
    }
    var session = context.session(
      for: Tape(context: context.scan, input: bytes), options: options.decoding)
    defer { DecodingSession.endCall(&session, pool: contexts) }
    return try session.decodeDocument(text, body)
  }

  /// How documents are scanned under `options`.
  static func scanConfiguration(_ options: Options) -> ScanConfiguration {
    ScanConfiguration(
      options: options.parseOptions,
      maxDepth: min(options.decoding.maxDepth, ScanConfiguration.maxDepthLimit),
      allowsBigIntegers: true, assumesTopLevelDictionary: options.assumesTopLevelDictionary)
  }

  /// Scans `text` into `context` as `configuration` says, returning the
  /// bytes read: the text's, or `{}` for empty text when `options` let an
  /// object's braces be left out (the scanner reads no input at all as an
  /// error). Throws `DecodingError` for a syntax error.
  static func scan(
    _ text: InputText, into context: ScanContext, _ options: Options,
    _ configuration: ScanConfiguration
  ) throws -> UnsafeRawBufferPointer {
    let bytes =
      text.utf8.isEmpty && options.assumesTopLevelDictionary ? Self.emptyObject : text.utf8
    do {
      try text.scan(into: context, configuration: configuration, reading: bytes)
    } catch {
      throw DecodingErrors.invalidJSON(error)
    }
    return bytes
  }
}
