import Foundation

/// Encodes `Encodable` values as JSON: a drop-in for Foundation's
/// `JSONEncoder` that writes the same bytes, faster.
///
/// ```swift
/// let encoder = JKEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// encoder.dateEncodingStrategy = .iso8601
/// let data = try encoder.encode(user)
/// ```
///
/// With `.sortedKeys` the output is byte for byte what `JSONEncoder` writes
/// for the same options: the same number text (shortest round-tripping
/// doubles and floats), the same escapes, the same layout. Without it, keys
/// come out in the order the value encoded them, the same on every run.
/// The strategies are Foundation's own types and behave as Foundation's.
///
/// Values are written straight into one byte buffer as they are encoded.
/// A value that encodes into a container after a later sibling was
/// written, or asks again for a nested container it already wrote (both of
/// which Codable allows), moves what is written so far into a tree and
/// carries on there: each value's `encode(to:)` runs exactly once.
///
/// Where Foundation's `JSONEncoder` traps (two containers of different
/// kinds, or a container and a single value, for one place), `encode`
/// throws `EncodingError.invalidValue` with the coding path of that place.
///
/// One encoder may be used from many threads at once.
public final class JKEncoder: LockedOptions, @unchecked Sendable {
  // Unchecked: the only mutable state, `storedOptions`, is guarded by `optionsLock`.

  /// The output options: ``JKOutputFormatting``.
  public typealias OutputFormatting = JKOutputFormatting
  /// How coding keys become JSON keys: Foundation's type.
  public typealias KeyEncodingStrategy = JSONEncoder.KeyEncodingStrategy
  /// How dates are written: Foundation's type.
  public typealias DateEncodingStrategy = JSONEncoder.DateEncodingStrategy
  /// How `Data` is written: Foundation's type.
  public typealias DataEncodingStrategy = JSONEncoder.DataEncodingStrategy
  /// How NaN and infinities are written: Foundation's type.
  public typealias NonConformingFloatEncodingStrategy = JSONEncoder
    .NonConformingFloatEncodingStrategy

  /// Everything that configures one `encode` call, copied at its start.
  struct Options: Sendable {
    var outputFormatting: OutputFormatting = []
    var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    var dataEncodingStrategy: DataEncodingStrategy = .base64
    var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var maxDepth = 511
    var compression = JKCompression.none
  }

  /// Guards ``storedOptions``.
  let optionsLock = NSLock()
  /// The settings, read whole at the start of each call.
  @exclusivity(unchecked) var storedOptions = Options()

  /// Creates an encoder with Foundation's defaults.
  public init() {}

  /// A new JKEncoder with all of this one's settings (strategies, options,
  /// limits, `userInfo`), to change without changing this one: for
  /// example, a per-request variant of a JKEncoder that requests share.
  public func copy() -> JKEncoder {
    copyWithSettings()
  }

  /// The layout and escaping of the output. Default: `[]` (compact).
  public var outputFormatting: OutputFormatting {
    get { withOptions { $0.outputFormatting } }
    set { withOptions { $0.outputFormatting = newValue } }
  }

  /// How coding keys become JSON keys. Default: `.useDefaultKeys`.
  public var keyEncodingStrategy: KeyEncodingStrategy {
    get { withOptions { $0.keyEncodingStrategy } }
    set { withOptions { $0.keyEncodingStrategy = newValue } }
  }

  /// How `Date` values are written. Default: `.deferredToDate`.
  public var dateEncodingStrategy: DateEncodingStrategy {
    get { withOptions { $0.dateEncodingStrategy } }
    set { withOptions { $0.dateEncodingStrategy = newValue } }
  }

  /// How `Data` values are written. Default: `.base64`.
  public var dataEncodingStrategy: DataEncodingStrategy {
    get { withOptions { $0.dataEncodingStrategy } }
    set { withOptions { $0.dataEncodingStrategy = newValue } }
  }

  /// How NaN and infinities are written. Default: `.throw`.
  public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
    get { withOptions { $0.nonConformingFloatEncodingStrategy } }
    set { withOptions { $0.nonConformingFloatEncodingStrategy = newValue } }
  }

  /// The deepest nesting of arrays and objects written; a value that nests
  /// deeper makes `encode` throw `EncodingError.invalidValue`. Default: 511,
  /// as `JSONEncoder`, which refuses to write 512 levels.
  ///
  /// Encoding stops where the limit is passed: no value inside a container
  /// nested too deep is encoded (its `encode(to:)` is not called), so a
  /// recursive model deeper than the call stack (a long linked list, an
  /// indirect enum) gets the error instead of overflowing the stack. For
  /// the containers of a model, a limit above 2,048 acts as 2,048: each
  /// level's `encode(to:)` takes its own stack frames, and 2,048 levels of
  /// an ordinary model fit an 8 MiB stack (a model with large frames may
  /// need a lower limit). A ``JSONValue``, written without a frame per level,
  /// nests as deep as the limit allows. The
  /// error's coding path is empty, as Foundation's is; its
  /// `underlyingError`, when encoding stopped early, is the error thrown
  /// there, with the coding path of the value that was not encoded.
  ///
  /// ```swift
  /// let encoder = JKEncoder()
  /// encoder.maxDepth = 1000  // for a reader that accepts as deep
  /// ```
  public var maxDepth: Int {
    get { withOptions { $0.maxDepth } }
    set { withOptions { $0.maxDepth = newValue } }
  }

  /// Whether the output is compressed. Default: ``JKCompression/none``,
  /// plain JSON text.
  ///
  /// ```swift
  /// encoder.compression = .gzip  // for Content-Encoding: gzip, or a .json.gz file
  /// encoder.compression = .gzip(level: 1)  // faster, a little larger
  /// ```
  ///
  /// Every `encode` method compresses, `encode(_:appendingTo:)` included
  /// (it appends one gzip member). ``JKDecoder`` inflates the result by
  /// default.
  public var compression: JKCompression {
    get { withOptions { $0.compression } }
    set { withOptions { $0.compression = newValue } }
  }

  /// Values that `encode(to:)` implementations can read from their encoder.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { withOptions { $0.userInfo } }
    set { withOptions { $0.userInfo = newValue } }
  }

  // MARK: - Encoding

  /// Encodes `value` as JSON.
  ///
  /// - Throws: `EncodingError.invalidValue` for NaN or an infinity (unless
  ///   the non-conforming float strategy says how to write them), for a
  ///   string or key holding U+0000 or a noncharacter (U+FDD0 to U+FDEF,
  ///   U+nFFFE, U+nFFFF), which JSONKit's reader rejects and so could not
  ///   read back, for a value that encodes nothing at all, for two
  ///   containers of different kinds (or a container and a single value)
  ///   asked for one place, for a value (or a custom date or data
  ///   strategy) that writes into the container it is being encoded into
  ///   (even if it then fails and the error is caught), for arrays and
  ///   objects nested deeper than ``maxDepth``, and for whatever
  ///   `encode(to:)` throws, which, as in Foundation, is thrown rather than
  ///   such a write.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    try encodeIntoWriter(value).finishData()
  }

  /// Encodes `value` as JSON bytes.
  public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    try encodeIntoWriter(value).finishBytes()
  }

  /// Encodes `value` as JSON and appends the bytes to `buffer`; on error
  /// `buffer` is left as it was.
  public func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) throws {
    let writer = try encodeIntoWriter(value)
    writer.withBytes { buffer.append(contentsOf: $0) }
  }

  /// Encodes a value that needs a configuration, as Foundation's
  /// `encode(_:configuration:)` does.
  public func encode<T: EncodableWithConfiguration>(
    _ value: T, configuration: T.EncodingConfiguration
  ) throws -> Data {
    try encodeIntoWriter(value) { try value.encode(to: $0, configuration: configuration) }
      .finishData()
  }

  /// Encodes a value whose configuration a provider type supplies.
  public func encode<T, C>(_ value: T, configuration: C.Type) throws -> Data
  where
    T: EncodableWithConfiguration, C: EncodingConfigurationProviding,
    T.EncodingConfiguration == C.EncodingConfiguration
  {
    try encode(value, configuration: C.encodingConfiguration)
  }

  func encodeIntoWriter<T: Encodable>(_ value: T) throws -> ByteWriter {
    try encodeIntoWriter(value) { encoder in
      try encoder.session.encode(value, into: encoder.slot)
    }
  }

  /// Runs `body` with a root encoder: streaming, and in tree form from
  /// the first write that streaming could not honour.
  private func encodeIntoWriter<T>(_ value: T, _ body: (SlotEncoder) throws -> Void) throws
    -> ByteWriter
  {
    let options = withOptions { $0 }
    let isPretty = options.outputFormatting.contains(.prettyPrinted)
    let capacity = OutputSizeHints.shared.capacity(for: T.self, isPretty: isPretty)
    var session = EncodingSession.pool.take()
    session.begin(options: options, capacity: capacity)
    defer {
      session.dropSpareContainers()
      // An encoder or container that a value kept holds the session.
      if isKnownUniquelyReferenced(&session) { EncodingSession.pool.give(session) }
    }
    do {
      try body(SlotEncoder(session: session, slot: .root))
    } catch {
      // A write at which Foundation traps went wrong before the error;
      // after other conflicts, Foundation throws the error.
      try session.throwConflict(value, afterError: true)
      throw session.errorToThrow(error, encoding: value)
    }
    guard let output = try session.finish(value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }
    OutputSizeHints.shared.note(output.count, for: T.self, isPretty: isPretty)
    return output.compressed(options.compression)
  }
}
