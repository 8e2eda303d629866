import Foundation
import JSONKit

/// JSONKit's writers refuse to write a string its strict reader would reject
/// (U+0000 and the noncharacters), where Foundation writes it: the
/// documented difference the oracles allow.
enum ReadBack {
  /// Whether JSONKit's strict reader rejects `bytes` (Foundation's output)
  /// for a string holding U+0000 or a noncharacter.
  static func holdsUnreadableScalar(_ bytes: Data) -> Bool {
    do {
      _ = try JSONValue(parsing: bytes)
      return false
    } catch {
      return error.kind == .nullCharacter || error.kind == .noncharacter
    }
  }

  /// Whether `error` is the one JSONKit's writers throw for such a string.
  static func isUnreadableScalarError(_ error: any Error) -> Bool {
    guard case .invalidValue(let value, let context) = error as? EncodingError else {
      return false
    }
    return value is String
      && context.debugDescription.contains("cannot be read back by JSONKit's strict reader")
  }
}
