import Foundation

/// Encodes `Encodable` values as CBOR (RFC 8949), the binary counterpart
/// of ``JKEncoder``: the same Codable semantics, written as CBOR items in
/// preferred serialization (every length and integer in its shortest head,
/// every float in the shortest precision that holds it exactly, definite
/// lengths only).
///
/// ```swift
/// struct Reading: Codable { var sensor: String; var at: Date; var values: [Double] }
///
/// let encoder = JKCBOREncoder()
/// encoder.options = .selfDescribed  // starts with tag 55799
/// let bytes = try encoder.encodeToBytes(Reading(sensor: "t1", at: .now, values: [20.5]))
/// let item = try CBORValue(cbor: bytes)
/// ```
///
/// Keyed containers become maps with text keys, unkeyed containers arrays,
/// and dictionaries with integer keys (`[Int: V]`) maps with integer keys.
/// Some Foundation types get CBOR's own tags: `Date` is tag 1 (seconds since
/// 1970), `UUID` tag 37, `URL` tag 32, `Decimal` tag 4 (a decimal
/// fraction), and `Int128`/`UInt128` beyond 64 bits tags 2 and 3
/// (bignums); `Data` is a byte string. NaN and the infinities are plain
/// CBOR floats.
///
/// Values are written straight into one buffer as they are encoded; a
/// value that writes into a container after a later sibling was written
/// (which Codable allows) moves what is written into a tree, and each
/// value's `encode(to:)` still runs exactly once. Where Foundation's
/// `JSONEncoder` traps (two containers of different kinds, or a container
/// and a single value, for one place), `encode` throws
/// `EncodingError.invalidValue` with the coding path of that place.
///
/// One encoder may be used from many threads at once.
public final class JKCBOREncoder: LockedOptions, @unchecked Sendable {
  // Unchecked: the only mutable state, `storedOptions`, is guarded by `optionsLock`.

  /// How coding keys become map keys: Foundation's type.
  public typealias KeyEncodingStrategy = JSONEncoder.KeyEncodingStrategy

  /// Choices about the CBOR written.
  public struct Options: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int

    /// A set of options from its bits.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// Starts the output with tag 55799, "self-described CBOR" (the bytes
    /// `D9 D9 F7`), which tells CBOR from other data without changing the
    /// item (RFC 8949 §3.4.6).
    public static let selfDescribed = Options(rawValue: 1 << 0)

    /// Writes maps in RFC 8949's core deterministic encoding (§4.2.1):
    /// members ordered by the bytes of their encoded keys, so that equal
    /// values give equal bytes, for hashing, signing and caching. (Lengths
    /// are always definite and every head and float always the shortest.)
    /// For maps whose keys are all text this is the order Python's `cbor2`
    /// writes with `canonical=True`.
    public static let deterministic = Options(rawValue: 1 << 1)

    /// Writes a class instance that is encoded more than once once, as
    /// tag 28 (a shared value), and each later occurrence as tag 29 with
    /// its number (cbor.schmorp.de/value-sharing). ``JKCBORDecoder`` then
    /// gives back one instance for all of them. Only instances met more
    /// than once are tagged; value types are written where they occur.
    /// Identity is the instance's: every instance is kept alive until the
    /// encode ends. An instance that contains itself (a cycle) is written
    /// as a reference inside its own value when its class conforms to
    /// ``JKCBORCyclicDecodable``, which the decoder can rebuild; any other
    /// makes `encode` throw `EncodingError.invalidValue`.
    public static let sharedReferences = Options(rawValue: 1 << 2)

    /// Writes each repeated text or byte string (map keys above all) once,
    /// and then as tag 25 with its number in one tag-256 string namespace
    /// around the output (cbor.schmorp.de/stringref). A string goes into
    /// the table by the specification's length rule, which every reader
    /// applies in the same way.
    public static let stringReferences = Options(rawValue: 1 << 3)
  }

  /// Everything that configures one `encode` call, copied at its start.
  struct Settings: Sendable {
    var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var options: Options = []
    var maxDepth = 511
  }

  /// Guards ``storedOptions``.
  let optionsLock = NSLock()
  /// The settings, read whole at the start of each call.
  @exclusivity(unchecked) var storedOptions = Settings()

  /// One setting, read or changed under the lock.
  private subscript<Value>(setting path: WritableKeyPath<Settings, Value>) -> Value {
    get { withOptions { $0[keyPath: path] } }
    set { withOptions { $0[keyPath: path] = newValue } }
  }

  /// Creates an encoder: keys as they are, no tag before the output, a
  /// `maxDepth` of 511.
  public init() {}

  /// A new encoder with all of this one's settings (key strategy, options,
  /// limit, `userInfo`), to change without changing this one.
  public func copy() -> JKCBOREncoder {
    copyWithSettings()
  }

  /// How coding keys become map keys. Default: `.useDefaultKeys`.
  ///
  /// As in Foundation, the keys of a `[String: V]` dictionary are written
  /// as they are whatever the strategy; the integer keys of an `[Int: V]`
  /// dictionary are written as integers.
  public var keyEncodingStrategy: KeyEncodingStrategy {
    get { self[setting: \.keyEncodingStrategy] }
    set { self[setting: \.keyEncodingStrategy] = newValue }
  }

  /// Values that `encode(to:)` implementations can read from their encoder.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { self[setting: \.userInfo] }
    set { self[setting: \.userInfo] = newValue }
  }

  /// Choices about the CBOR written. Default: `[]`.
  public var options: Options {
    get { self[setting: \.options] }
    set { self[setting: \.options] = newValue }
  }

  /// The deepest nesting of arrays and maps written; a value that nests
  /// deeper makes `encode` throw `EncodingError.invalidValue`. Default: 511,
  /// as ``JKEncoder``.
  ///
  /// Encoding stops where the limit is passed: no value inside a container
  /// nested too deep is encoded (its `encode(to:)` is not called), so a
  /// recursive model deeper than the call stack gets the error instead of
  /// overflowing the stack. A limit above 2,048 acts as 2,048, as in
  /// ``JKEncoder/maxDepth``.
  public var maxDepth: Int {
    get { self[setting: \.maxDepth] }
    set { self[setting: \.maxDepth] = newValue }
  }

  // MARK: - Encoding

  /// Encodes `value` as CBOR.
  ///
  /// - Throws: `EncodingError.invalidValue` for a NaN `Decimal`, for a
  ///   value that encodes nothing at all, for two containers of different
  ///   kinds (or a container and a single value) asked for one place, for
  ///   arrays and maps nested deeper than ``maxDepth``, and whatever
  ///   `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    let writer = try encodeIntoWriter(value)
    return writer.finishData()
  }

  /// Encodes `value` as CBOR bytes; the errors are those of ``encode(_:)``.
  public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    let writer = try encodeIntoWriter(value)
    return writer.finishBytes()
  }

  /// Encodes `value` as CBOR after the bytes already in `buffer`; on error
  /// (those of ``encode(_:)``) `buffer` is left as it was.
  public func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) throws {
    let writer = try encodeIntoWriter(value)
    writer.withBytes { buffer.append(contentsOf: $0) }
  }

  private func encodeIntoWriter<T: Encodable>(_ value: T) throws -> ByteWriter {
    let settings = withOptions { $0 }
    let capacity = OutputSizeHints.shared.capacity(for: CBOROutput<T>.self, isPretty: false)
    let session = CBOREncodingSession(settings: settings, capacity: capacity)
    defer { session.dropSpareContainers() }
    do {
      try session.encode(value, into: .root)
    } catch {
      try session.throwConflict(value)
      throw session.errorToThrow(error, encoding: value)
    }
    var output = try session.finish(value)
    let work = CBOROutputRewriter.Work(
      sortsKeys: settings.options.contains(.deterministic),
      instanceOccurrences: session.sharing?.hasMarks == true ? session.sharing?.occurrences : nil,
      referencesStrings: settings.options.contains(.stringReferences) && !session.referencesStrings)
    if work.sortsKeys || work.instanceOccurrences != nil || work.referencesStrings {
      output = CBOROutputRewriter.rewrite(output, prefixCount: session.prefixCount, doing: work)
    }
    OutputSizeHints.shared.note(output.count, for: CBOROutput<T>.self, isPretty: false)
    return output
  }
}

/// Names the CBOR output of `T` in ``OutputSizeHints``, apart from its JSON.
private enum CBOROutput<T> {}
