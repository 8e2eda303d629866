import Foundation
import JSONKit
import Testing

/// Where `JKSerialization.data(withJSONObject:)` writes differently from
/// `JSONSerialization`, as README and the Switching from Foundation article
/// list it: `.sortedKeys` is JSONKit's (and `JSONEncoder`'s) byte order, and
/// a `Decimal` that no 64-bit integer or `Double` holds exactly throws.
/// Foundation is asked too, so that a change on either side is noticed.
@Suite("JKSerialization's writing beside JSONSerialization's")
struct SerializationDifferenceTests {
  static let keys = ["k10", "K2", "k9", "k1", "é", "Z", "_"]

  /// The keys of a one-level object in the order `data` writes them.
  func keyOrder(_ data: Data) throws -> [String] {
    let value = try JSONValue(parsing: data)
    guard case .object(let object) = value else { return [] }
    return object.map(\.key)
  }

  @Test("sortedKeys orders keys by their UTF-8 bytes, as JSONEncoder does")
  func sortedKeysIsByteOrder() throws {
    var dictionary: [String: Int] = [:]
    for (index, key) in Self.keys.enumerated() { dictionary[key] = index }
    let ours = try keyOrder(
      JKSerialization.data(withJSONObject: dictionary, options: .sortedKeys))
    #expect(ours == ["K2", "Z", "_", "k1", "k10", "k9", "é"])
    #expect(ours == Self.keys.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) })

    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try keyOrder(encoder.encode(dictionary)) == ours)

    #if !canImport(Darwin)
      // Linux's JSONSerialization compares case-insensitively, digits by value.
      let four = ["k10": 0, "K2": 1, "k9": 2, "k1": 3]
      let theirs = try keyOrder(
        JSONSerialization.data(withJSONObject: four, options: .sortedKeys))
      #expect(theirs == ["k1", "K2", "k9", "k10"])
      let fourOurs = try keyOrder(JKSerialization.data(withJSONObject: four, options: .sortedKeys))
      #expect(fourOurs == ["K2", "k1", "k10", "k9"])
    #endif
  }

  @Test("A Decimal that no 64-bit integer or Double holds exactly throws, naming it")
  func inexactDecimalThrows() throws {
    let digits = "123456789012345678901"  // 21 digits; a Double holds 15 to 17
    let decimal = try #require(Decimal(string: digits))
    let error = #expect(throws: EncodingError.self) {
      try JKSerialization.data(withJSONObject: ["total": decimal])
    }
    guard case .invalidValue(_, let context) = error else {
      Issue.record("expected invalidValue, got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["total"])
    #expect(context.debugDescription.contains(digits))
    #expect(!JKSerialization.isValidJSONObject(["total": decimal]))

    // Foundation writes the digits, and JKEncoder does too.
    let theirs = try JSONSerialization.data(withJSONObject: ["total": decimal])
    #expect(String(decoding: theirs, as: UTF8.self) == #"{"total":\#(digits)}"#)
    let encoded = try JKEncoder().encode(["total": decimal])
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"total":\#(digits)}"#)

    // A Decimal that a Double holds exactly is written as that Double.
    let exact = try JKSerialization.data(withJSONObject: [Decimal(string: "12.5")!])
    #expect(String(decoding: exact, as: UTF8.self) == "[12.5]")
  }
}
