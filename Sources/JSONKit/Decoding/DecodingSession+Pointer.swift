import Foundation

/// Finding the value a JSON Pointer names on the tape.
extension DecodingSession {
  /// Decodes `T` from the value that the reference tokens of a JSON
  /// Pointer name, with the coding path from the document's root.
  func unwrap<T: Decodable>(_ type: T.Type, atTokens tokens: [String]) throws -> T {
    let index = try valueIndex(atTokens: tokens, for: type)
    return try unwrap(type, at: index, path: codingPaths.path(to: index))
  }

  /// Decodes `T`, which needs a configuration, from the value that the
  /// reference tokens of a JSON Pointer name, with the coding path from the
  /// document's root.
  func initialize<T: DecodableWithConfiguration>(
    _ type: T.Type, atTokens tokens: [String], configuration: T.DecodingConfiguration
  ) throws -> T {
    let index = try valueIndex(atTokens: tokens, for: type)
    return try checkingUnknownKeys(at: index) {
      try type.init(from: TapeDecoder(session: self, index: index), configuration: configuration)
    }
  }

  /// The tape index of the value the tokens name, or the error for the
  /// first token that names nothing: `keyNotFound` in an object,
  /// `valueNotFound` in an array or in a value that is neither.
  private func valueIndex(atTokens tokens: [String], for type: Any.Type) throws -> Int {
    var current = 0
    for token in tokens {
      let entry = entries[current]
      switch entry.kind {
      case .object:
        guard let found = lastMember(writtenAs: token, inObject: current) else {
          throw DecodingErrors.keyNotFound(
            AnyCodingKey(stringValue: token), path: codingPaths.path(to: current))
        }
        current = found
      case .array:
        guard let position = JSONPointer.arrayIndex(token), position < entry.childCount else {
          let count = entry.childCount
          throw DecodingErrors.atEnd(
            type, path: codingPaths.path(to: current) + [Self.pathKey(token)],
            message:
              "No value at JSON Pointer token \"\(token)\": the array has \(count) element\(count == 1 ? "" : "s")."
          )
        }
        current = elementIndex(position, inArray: current)
      default:
        throw DecodingErrors.atEnd(
          type, path: codingPaths.path(to: current) + [Self.pathKey(token)],
          message:
            "No value at JSON Pointer token \"\(token)\": \(DecodingErrors.describe(entry.kind)) has no members."
        )
      }
    }
    return current
  }

  /// The coding key that stands for `token` in a path: an index when it
  /// spells one.
  private static func pathKey(_ token: String) -> AnyCodingKey {
    if let index = JSONPointer.arrayIndex(token) { return AnyCodingKey(intValue: index) }
    return AnyCodingKey(stringValue: token)
  }
}
