/// An unkeyed container over one array on the tape. A failed decode does not
/// advance it, so a caller may try another type for the same element.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
  let session: DecodingSession
  let array: Int
  /// The tape index of the element at `currentIndex`.
  private var position: Int
  private(set) var currentIndex = 0
  private let elementCount: Int

  init(session: DecodingSession, array: Int) {
    self.session = session
    self.array = array
    position = array + 1
    elementCount = session[array].childCount
  }

  var codingPath: [any CodingKey] {
    session.codingPaths.path(to: array)
  }

  var count: Int? {
    elementCount
  }

  var isAtEnd: Bool {
    currentIndex >= elementCount
  }

  private var elementPath: [any CodingKey] {
    codingPath + [AnyCodingKey(intValue: currentIndex)]
  }

  @inline(__always)
  private func checkNotAtEnd(_ type: Any.Type, _ message: String = "Unkeyed container is at end.")
    throws
  {
    if currentIndex >= elementCount {
      throw DecodingErrors.atEnd(type, path: elementPath, message: message)
    }
  }

  @inline(__always)
  private mutating func advance() {
    position = session.indexAfter(position)
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    try checkNotAtEnd(Never.self)
    guard session[position].kind == .null else { return false }
    advance()
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try checkNotAtEnd(type)
    let value = try session.bool(at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: String.Type) throws -> String {
    try checkNotAtEnd(type)
    let value = try session.string(at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    try checkNotAtEnd(type)
    let value = try session.double(at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    try checkNotAtEnd(type)
    let value = try session.float(at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    try checkNotAtEnd(type)
    let value = try session.integer(type, at: position, path: elementPath)
    advance()
    return value
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try checkNotAtEnd(type)
    let value = try session.unwrap(type, at: position, path: elementPath)
    advance()
    return value
  }

  // MARK: - decodeIfPresent

  // As Foundation's, not the standard library's defaults: past the end the
  // index still moves on (so a later error names the index Foundation's
  // does), and the generic one builds the metatype given, not `T.self`
  // (which differs when it is a subclass's).

  /// Nil for null and past the end, either way moving on; otherwise
  /// `decode`, which throws for a value of another type and stays.
  @inline(__always)
  private mutating func decodeIfPresent<T>(_ decode: (inout Self) throws -> T) throws -> T? {
    if currentIndex >= elementCount {
      currentIndex += 1
      return nil
    }
    if session[position].kind == .null {
      advance()
      return nil
    }
    return try decode(&self)
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    try decodeIfPresent { try $0.decode(type) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
    try decodeIfPresent { try $0.decode(type) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
    try decodeIfPresent { try $0.decode(type) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try checkNotAtEnd(KeyedDecodingContainer<NestedKey>.self)
    let container = try TapeDecoder(session: session, index: position).container(keyedBy: type)
    advance()
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try checkNotAtEnd((any UnkeyedDecodingContainer).self)
    let container = try TapeDecoder(session: session, index: position).unkeyedContainer()
    advance()
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    try checkNotAtEnd(
      (any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
    let decoder = TapeDecoder(session: session, index: position)
    // Checked with the object around this array, as a keyed container's
    // super decoder is (see ``UnknownKeyCheck``).
    if let unknownKeys = session.unknownKeys, session[position].kind == .object {
      unknownKeys.reads(position)
    }
    advance()
    return decoder
  }
}
