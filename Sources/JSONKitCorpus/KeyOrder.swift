import Foundation

/// The order in which a corpus variant lists each object's keys.
///
/// The corpora list keys in the order their models declare properties, which a decoder
/// that tries "the next expected key" first is rewarded for. Much JSON is not like that:
/// Go, Rust and Postgres `jsonb` sort keys, hash maps in Java or Python scatter them. The
/// reordered variants are minified, with every scalar spelled as in the original.
///
/// ```swift
/// let shuffled = try KeyOrder.shuffled.reorder(original)
/// ```
public enum KeyOrder: String, CaseIterable, Sendable {
  /// The file as it is: keys in the order the models declare them, whitespace kept.
  case declaration
  /// Every object's keys sorted by their UTF-8 bytes, as Go's `encoding/json` and
  /// Postgres `jsonb` write them; minified.
  case sorted
  /// Every object's keys shuffled by SplitMix64 (a small generator written out here) seeded with ``shuffleSeed``, one
  /// generator for the whole document, objects taken depth first; minified.
  case shuffled

  /// The seed of the shuffled variants. Changing it changes what the benchmarks measure.
  public static let shuffleSeed: UInt64 = 0x4A53_4F4E_4B69_7415

  /// `document` with its objects' keys in this order; ``declaration`` returns it as it is.
  ///
  /// - Throws: an error when `document` is not well-formed JSON.
  public func reorder(_ document: Data) throws -> Data {
    switch self {
    case .declaration:
      return document
    case .sorted:
      var tree = try RawJSON(parsing: Array(document))
      tree.reorderMembers { members in
        // Ties (duplicate keys) keep their order, whatever the sort algorithm.
        members = members.enumerated().sorted { left, right in
          left.element.name == right.element.name
            ? left.offset < right.offset
            : left.element.name.lexicographicallyPrecedes(right.element.name)
        }.map(\.element)
      }
      return Data(tree.minified())
    case .shuffled:
      var tree = try RawJSON(parsing: Array(document))
      var generator = SplitMix64(seed: Self.shuffleSeed)
      tree.reorderMembers { generator.shuffle(&$0) }
      return Data(tree.minified())
    }
  }
}
