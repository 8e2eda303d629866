import Foundation

/// How the generated samples (``Orders``, ``ValueColumns``) are written: by Foundation's
/// `JSONEncoder`, so that every date, number, UUID and base64 string is spelled as
/// Foundation spells it, then made the same on every run.
enum GeneratedJSON {
  /// `value` as `JSONEncoder` writes it with `strategies`, slashes unescaped (as most
  /// servers write links) and keys sorted; then, when `keyOrder` is given, every object's
  /// members put in that order, for keys in the order the models declare them.
  ///
  /// Sorting first is what makes the bytes the same on every run: on Linux, Foundation
  /// writes unsorted keys in an order that changes from one process to the next.
  static func encode<Value: Encodable>(
    _ value: Value, _ strategies: CodingStrategies, keyOrder: [String]? = nil
  ) throws -> Data {
    let encoder = JSONEncoder()
    strategies.configure(encoder)
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let sorted = try encoder.encode(value)
    guard let keyOrder else { return sorted }
    let ranks = Dictionary(
      keyOrder.enumerated().map { (Array($0.element.utf8), $0.offset) },
      uniquingKeysWith: { first, _ in first })
    var tree = try RawJSON(parsing: Array(sorted))
    tree.reorderMembers { members in
      members.sort { left, right in
        guard let leftRank = ranks[left.name], let rightRank = ranks[right.name] else {
          preconditionFailure("a key missing from the declared order")
        }
        return leftRank < rightRank
      }
    }
    return Data(tree.minified())
  }

  /// The stored properties' names of `value`'s type, in declaration order: the keys that
  /// synthesized `Codable` conformance writes, when the type has no coding keys of its own.
  static func declaredKeys(of value: Any) -> [String] {
    Mirror(reflecting: value).children.compactMap(\.label)
  }
}
