import Foundation
import JSONKit
import Testing

/// Numbers whose exact value fits the field, which JSONKit reads where
/// Foundation throws: the "Numbers are read by their exact value" and
/// "`Decimal` keeps every digit or throws" differences of README and the
/// Switching from Foundation article. Each example here is one the article
/// names; Foundation is asked too, so that a Foundation that starts reading
/// one is noticed and the lists can shrink.
@Suite("Exact numbers that Foundation refuses")
struct ExactNumberDifferenceTests {
  /// Decodes `json` as `[T]` with both decoders, set alike, and expects
  /// JSONKit to give `expected` and Foundation to throw.
  func expectReadWhereFoundationThrows<T: Decodable & Equatable>(
    _ json: String, as type: T.Type, _ expected: T, json5: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = json5
    let jsonKit = JKDecoder()
    jsonKit.allowsJSON5 = json5
    let data = Data("[\(json)]".utf8)
    #expect(
      (try? jsonKit.decode([T].self, from: data)) == [expected], "\(json) as \(T.self)",
      sourceLocation: sourceLocation)
    #expect(
      throws: DecodingError.self, "Foundation now reads \(json) as \(T.self)",
      sourceLocation: sourceLocation
    ) { try foundation.decode([T].self, from: data) }
  }

  @Test("An integer field takes a literal whose exact value is an integer in range")
  func integersByExactValue() {
    // Exactly 9223372036854775800; Foundation reads 2^63 through a Double.
    expectReadWhereFoundationThrows(
      "9.2233720368547758e18", as: Int.self, 9_223_372_036_854_775_800)
    expectReadWhereFoundationThrows("1e20", as: Int128.self, 100_000_000_000_000_000_000)
  }

  @Test("A Decimal field takes a number it holds exactly, whatever the exponent's spelling")
  func decimalsByExactValue() {
    expectReadWhereFoundationThrows("1e128", as: Decimal.self, Decimal(string: "10e127")!)
    expectReadWhereFoundationThrows("0e-1000", as: Decimal.self, 0)
    expectReadWhereFoundationThrows("0e200", as: Decimal.self, 0)
  }

  @Test("A JSON5 hexadecimal integer reaches a Double correctly rounded")
  func hexadecimalIntoDouble() {
    expectReadWhereFoundationThrows(
      "0x7FFFFFFFFFFFFFFF", as: Double.self, 9_223_372_036_854_775_808, json5: true)
  }
}
