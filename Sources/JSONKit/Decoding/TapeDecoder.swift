/// The `Decoder` JSONKit hands to `init(from:)`: a session and the tape index
/// of the value being decoded. It is also its own single-value container.
///
/// Three words in all, so passing it as `any Decoder` stores it inline in the
/// existential and descending into a nested value allocates nothing.
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
  let session: DecodingSession
  let index: Int
  /// The coding path, for the one decoder whose value is not on the tape
  /// (`superDecoder(forKey:)` with an absent key); otherwise nil, and the
  /// path is rebuilt from the tape when asked for.
  private let explicitPath: [any CodingKey]?

  init(session: DecodingSession, index: Int, explicitPath: [any CodingKey]? = nil) {
    self.session = session
    self.index = index
    self.explicitPath = explicitPath
  }

  var codingPath: [any CodingKey] {
    explicitPath ?? session.codingPaths.path(to: index)
  }

  var userInfo: [CodingUserInfoKey: Any] {
    session.userInfo
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    let kind = session[index].kind
    guard kind == .object else {
      if kind == .null {
        throw DecodingError.valueNotFound(
          [String: Any].self,
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Cannot get keyed decoding container -- found null value instead"))
      }
      throw DecodingErrors.typeMismatch(
        [String: Any].self, found: session.found(kind), path: codingPath)
    }
    return session.keyedContainer(self, keyedBy: type)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let kind = session[index].kind
    guard kind == .array else {
      if kind == .null {
        throw DecodingError.valueNotFound(
          [Any].self,
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
      }
      throw DecodingErrors.typeMismatch([Any].self, found: session.found(kind), path: codingPath)
    }
    return TapeUnkeyedContainer(session: session, array: index)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }

  // MARK: - SingleValueDecodingContainer

  func decodeNil() -> Bool {
    session[index].kind == .null
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try session.bool(at: index, path: codingPath)
  }

  func decode(_ type: String.Type) throws -> String {
    try session.string(at: index, path: codingPath)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try session.double(at: index, path: codingPath)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try session.float(at: index, path: codingPath)
  }

  func decode(_ type: Int.Type) throws -> Int {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try session.integer(type, at: index, path: codingPath)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: Int128.Type) throws -> Int128 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try session.integer(type, at: index, path: codingPath)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 {
    try session.integer(type, at: index, path: codingPath)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let explicitPath { return try session.unwrapAbsent(type, path: explicitPath) }
    return try session.unwrap(type, at: index, path: codingPath, depth: 0)
  }
}
