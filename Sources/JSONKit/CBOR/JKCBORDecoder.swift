import Foundation

/// Decodes `Decodable` values from CBOR (RFC 8949), JSONKit's binary format,
/// as `JKDecoder` decodes them from JSON, and as strictly.
///
/// ```swift
/// let order = try JKCBORDecoder().decode(Order.self, from: bytes)
/// ```
///
/// CBOR is read onto the same tape as JSON and decoded by the same
/// machinery: keys are matched in any order at the same cost, coding paths
/// and error cases are `JSONDecoder`'s, and `keyDecodingStrategy` applies
/// as it does for JSON. What differs is what the bytes say directly:
///
/// - integers of every width, up to `Int128` and `UInt128` from bignums
///   (tags 2 and 3); a float where an integer is asked for only when it is
///   whole;
/// - `Float` and `Double` from floats of any precision and from integers;
///   NaN and infinities are floats, so no strategy is needed;
/// - `Data` from a byte string; `Date` from seconds since 1970 (tag 1, or
///   a plain number) or RFC 3339 text (tag 0); `UUID` from tag 37's 16 bytes
///   or its text; `Decimal` from a decimal fraction (tag 4) exactly, or an
///   integer or float; `URL` from text (tag 32 or plain);
/// - maps with text keys, or integer keys for `[Int: V]` and other keyed
///   containers whose keys have integer values;
/// - string references (tags 256 and 25) and shared values (tags 28 and
///   29): a reference reads as the string or value it refers to, and a
///   class that a model decodes at a shared value and at its references is
///   one instance, however often referred to (value types get equal
///   copies). A reference to nothing, or to a value that contains it
///   (a cycle) but for a class that conforms to ``JKCBORCyclicDecodable``, is
///   an error, as are copies for value types of more than four items for
///   each one read (and 65,536).
///
/// Input that is not well-formed CBOR, a repeated map key, bytes after the
/// item, a tag JSONKit does not read or one on the wrong content, and
/// nesting deeper than ``maxDepth`` are `DecodingError.dataCorrupted` with a
/// ``JKCBORError`` underneath that says what and at which byte;
/// ``readingOptions`` relaxes the rules one at a time. Errors about a value
/// (a type mismatch, a missing key) point at its byte offset
/// (`DecodingError.jsonLocation`).
///
/// One decoder may be used from many threads at once.
public final class JKCBORDecoder: LockedOptions, @unchecked Sendable {
  // Unchecked: the only mutable state, `storedOptions`, is guarded by `optionsLock`.

  /// Rules of JSONKit's CBOR reading that a decoder may relax.
  public struct ReadingOptions: OptionSet, Sendable, Hashable {
    /// The option's bit.
    public let rawValue: Int

    /// The options with the bits of `rawValue`.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// Bytes after the top-level item are ignored rather than an error.
    public static let allowsBytesAfterItem = ReadingOptions(rawValue: 1)
    /// A map key that an earlier key of the same map equals is taken, its
    /// last value winning, rather than an error.
    public static let allowsDuplicateKeys = ReadingOptions(rawValue: 2)
    /// A tag JSONKit does not read is skipped, its content read as if it
    /// were not tagged, rather than an error.
    public static let skipsUnknownTags = ReadingOptions(rawValue: 4)
  }

  /// Everything that configures one `decode` call, copied at its start.
  struct Options: Sendable {
    var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var maxDepth = 512
    var maxCollectionCount = 1 << 24
    var maxStringLength = 1 << 28
    var readingOptions: ReadingOptions = []
  }

  /// Guards ``storedOptions``.
  let optionsLock = NSLock()
  /// The settings, read whole at the start of each call.
  @exclusivity(unchecked) var storedOptions = Options()

  /// Creates a decoder with strict reading and the default limits.
  public init() {}

  /// A new decoder with all of this one's settings, to change without
  /// changing this one.
  public func copy() -> JKCBORDecoder {
    copyWithSettings()
  }

  /// How map keys are matched with coding keys: Foundation's type, applied
  /// as `JSONDecoder` applies it. Default: `.useDefaultKeys`.
  public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
    get { withOptions { $0.keyDecodingStrategy } }
    set { withOptions { $0.keyDecodingStrategy = newValue } }
  }

  /// Values that `init(from:)` implementations can read from their decoder.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { withOptions { $0.userInfo } }
    set { withOptions { $0.userInfo = newValue } }
  }

  /// The deepest nesting of arrays, maps and tags read; deeper input is an
  /// error, never a stack overflow. Default: 512; at most 1,024 is used.
  ///
  /// The references' tags (string namespaces and references, shared values
  /// and references: 256, 25, 28 and 29) are not levels of their own
  /// unless they hold another tag, so that what ``JKCBOREncoder`` writes
  /// with its reference options reads at the depth of the plain bytes.
  public var maxDepth: Int {
    get { withOptions { $0.maxDepth } }
    set { withOptions { $0.maxDepth = newValue } }
  }

  /// The most elements of an array, or pairs of a map, that one input may
  /// declare. Default: 2²⁴ (16,777,216).
  public var maxCollectionCount: Int {
    get { withOptions { $0.maxCollectionCount } }
    set { withOptions { $0.maxCollectionCount = newValue } }
  }

  /// The longest byte or text string, in bytes, that one input may
  /// declare. Default: 2²⁸ (256 MiB).
  public var maxStringLength: Int {
    get { withOptions { $0.maxStringLength } }
    set { withOptions { $0.maxStringLength = newValue } }
  }

  /// Which of the strict rules are relaxed. Default: none.
  public var readingOptions: ReadingOptions {
    get { withOptions { $0.readingOptions } }
    set { withOptions { $0.readingOptions = newValue } }
  }

  // MARK: - Decoding

  /// Decodes a value of type `T` from the CBOR item in `data`.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try data.withUnsafeBytes { try decode(type, from: $0) }
  }

  /// Decodes a value of type `T` from the CBOR item in `bytes`.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try bytes.withUnsafeBytes { try decode(type, from: $0) }
  }

  /// Decodes a value of type `T` from the CBOR item in memory the caller
  /// owns; nothing is retained after the call returns.
  public func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeRawBufferPointer) throws -> T
  {
    let options = withOptions { $0 }
    // Shared references are first left for classes to read; when another
    // type reads one, the document is read again with each one a copy.
    if let value = try Self.decode(type, from: buffer, options, copyingSharedValues: false) {
      return value
    }
    return try Self.decode(type, from: buffer, options, copyingSharedValues: true)!
  }

  /// Decodes `T` from `buffer` with `options`; `nil` when shared references
  /// were not copied and something other than a class read one.
  private static func decode<T: Decodable>(
    _ type: T.Type, from buffer: UnsafeRawBufferPointer, _ options: Options,
    copyingSharedValues: Bool
  ) throws -> T? {
    let context = DecodingContext.shared.take()
    do {
      var scanning = options.scanning
      scanning.copiesSharedValues = copyingSharedValues
      try CBORTapeScanner.scan(buffer, into: &context.scan.state, configuration: scanning)
    } catch {
      DecodingContext.shared.give(context)
      throw Self.invalidCBOR(error)
    }
    var session = context.session(
      for: Tape(context: context.scan, input: buffer), options: options.decoding,
      sharedValues: context.scan.state.sharedRoots.isEmpty ? nil : CBORSharedValues())
    defer { DecodingSession.endCall(&session, pool: DecodingContext.shared) }
    do {
      let value = try session.unwrap(type, at: 0, path: [])
      return session.needsSharedCopies ? nil : value
    } catch let error as DecodingError {
      if session.needsSharedCopies { return nil }
      throw session.locating(error, inBinary: buffer)
    } catch {
      if session.needsSharedCopies { return nil }
      throw error
    }
  }

  /// Reads the untyped item in `data` with this decoder's limits and
  /// reading options (where `CBORValue(cbor:)` has the defaults).
  public func decode(_ type: CBORValue.Type, from data: Data) throws -> CBORValue {
    try data.withUnsafeBytes { try Self.untyped($0, withOptions { $0 }) }
  }

  /// Reads the untyped item in `bytes` with this decoder's limits and
  /// reading options.
  public func decode(_ type: CBORValue.Type, from bytes: [UInt8]) throws -> CBORValue {
    try bytes.withUnsafeBytes { try Self.untyped($0, withOptions { $0 }) }
  }

  /// The untyped item in `buffer`, read with the decoder's limits.
  private static func untyped(
    _ buffer: UnsafeRawBufferPointer, _ options: Options
  ) throws -> CBORValue {
    do {
      return try CBORValue.read(buffer, configuration: options.scanning.reader)
    } catch {
      throw invalidCBOR(error)
    }
  }

  /// The error for input that is not CBOR JSONKit reads: `dataCorrupted` at
  /// the root, with the reader's error underneath.
  static func invalidCBOR(_ error: any Error) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: [], debugDescription: "The given data was not valid CBOR. \(error)",
        underlyingError: error))
  }
}

extension JKCBORDecoder.Options {
  /// The scanner's configuration these options ask for.
  var scanning: CBORTapeScanner.Configuration {
    var configuration = CBORTapeScanner.Configuration()
    configuration.reader.maxDepth = min(max(maxDepth, 0), ScanConfiguration.maxDepthLimit)
    configuration.reader.maxCollectionCount = max(maxCollectionCount, 0)
    configuration.reader.maxStringLength = max(maxStringLength, 0)
    configuration.reader.allowsBytesAfterItem = readingOptions.contains(.allowsBytesAfterItem)
    configuration.reader.allowsDuplicateKeys = readingOptions.contains(.allowsDuplicateKeys)
    configuration.skipsUnknownTags = readingOptions.contains(.skipsUnknownTags)
    return configuration
  }

  /// The decoding options of the tape these options read.
  var decoding: DecodingOptions {
    var options = DecodingOptions()
    options.keyDecodingStrategy = keyDecodingStrategy
    options.userInfo = userInfo
    options.maxDepth = maxDepth
    options.binaryTape = true
    return options
  }
}
