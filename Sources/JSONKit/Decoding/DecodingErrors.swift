/// The `DecodingError`s JSONKit throws, with Foundation's cases, coding paths
/// and wording, so that code written against `JSONDecoder` handles them alike.
enum DecodingErrors {
  /// How Foundation names the JSON kind that was found instead.
  static func describe(_ kind: TapeEntry.Kind) -> String {
    switch kind {
    case .null: "null"
    case .true, .false: "bool"
    case .int, .uint, .double, .bigInteger: "number"
    case .string, .key: "a string"
    case .bytes: "a byte string"
    case .array: "an array"
    case .object: "a dictionary"
    case .sharedReference: "a shared value"
    }
  }

  static func typeMismatch(
    _ type: Any.Type, found kind: TapeEntry.Kind, path: [any CodingKey]
  ) -> DecodingError {
    if kind == .null {
      return valueNotFound(type, path: path)
    }
    return .typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "Expected to decode \(type) but found \(describe(kind)) instead."))
  }

  /// Foundation's error for a Bool that is not `true` or `false`: always
  /// `typeMismatch`, also for `null`.
  static func notBool(found kind: TapeEntry.Kind, path: [any CodingKey]) -> DecodingError {
    .typeMismatch(
      Bool.self,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "Expected to decode Bool but found \(describe(kind)) instead."))
  }

  static func valueNotFound(_ type: Any.Type, path: [any CodingKey]) -> DecodingError {
    .valueNotFound(
      type,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "Cannot get value of type \(type) -- found null value instead"))
  }

  static func keyNotFound(_ key: any CodingKey, path: [any CodingKey]) -> DecodingError {
    .keyNotFound(
      key,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
  }

  static func atEnd(_ type: Any.Type, path: [any CodingKey], message: String) -> DecodingError {
    .valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: message))
  }

  static func corrupted(_ message: String, path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
  }

  /// `dataCorrupted` about the value at tape index `index`, reported at a
  /// `path` that does not lead to it (Foundation reports some values at
  /// their container's path): the index goes with it, in place of an
  /// underlying error, until the error is given its location.
  static func corrupted(_ message: String, path: [any CodingKey], valueAt index: Int)
    -> DecodingError
  {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: path, debugDescription: message, underlyingError: ValueIndex(index: index)))
  }

  /// The error for a member that the model's `init(from:)` never asked
  /// about, under ``JKDecoder/UnknownKeyStrategy/reject``: at the object's
  /// path, pointing at the member's key.
  static func unknownKey(_ key: String, path: [any CodingKey], keyAt index: Int) -> DecodingError {
    corrupted(
      "Unknown key \"\(key)\": the model does not read it, and unknownKeyStrategy is .reject.",
      path: path, valueAt: index)
  }

  /// The tape index of the value an error is about, carried until the
  /// error leaves the decode and is given its location.
  struct ValueIndex: Error {
    let index: Int
  }

  /// The error for input that is not JSON: `dataCorrupted` at the root, with
  /// the scanner's error underneath. Foundation on Apple platforms says "The
  /// given data was not valid JSON." and puts "… around line L, column C."
  /// in its underlying error; the description here holds both sentences, so
  /// that it says where without unwrapping.
  static func invalidJSON(_ error: JKParseError) -> DecodingError {
    let sentence =
      error.isInCompressedInput
      ? "The given data was not valid gzip-compressed JSON." : "The given data was not valid JSON."
    return .dataCorrupted(
      DecodingError.Context(
        codingPath: [], debugDescription: "\(sentence) \(error)", underlyingError: error))
  }

  /// ``invalidJSON(_:)`` as an untyped error, for APIs that throw any error.
  static func notJSON(_ error: JKParseError) -> any Error {
    invalidJSON(error)
  }
}
