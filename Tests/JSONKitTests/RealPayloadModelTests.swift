import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// The payloads that measure Foundation's value types: the GitHub events model, the
/// generated orders and every value column decode to the same values through
/// `JSONDecoder` and `JKDecoder`, and `JKEncoder` writes Foundation's bytes for them.
@Suite("Real payload models")
struct RealPayloadModelTests {
  @Test func githubEventsDecodeAlikeAndRoundTrip() throws {
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    let sample = try GitHubEvents.sample(in: directory)
    #expect(sample.count == 30)
    try check(sample)

    let foundation = JSONEncoder()
    GitHubEvents.configure(foundation)
    foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let encoded = try foundation.encode(sample.value)
    let decoder = JSONDecoder()
    GitHubEvents.configure(decoder)
    #expect(try decoder.decode([GitHubEvents.Event].self, from: encoded) == sample.value)
    #expect(
      try jsonKitDecoder(sample.strategies).decode(
        [GitHubEvents.Event].self, from: encoded) == sample.value)

    // The model reads most of the document: what it writes back is nearly as long as
    // the original without whitespace (it leaves out only `null` members).
    let minified = try CorpusVariant.minified(sample.json)
    let share = Double(encoded.count) / Double(minified.count)
    #expect(share > 0.95, "\(encoded.count) of \(minified.count) bytes")
  }

  @Test func ordersDecodeToTheGeneratedValues() throws {
    let sample = try Orders.sample()
    #expect((1_000_000..<1_300_000).contains(sample.json.count), "\(sample.json.count) bytes")
    #expect(try Orders.sample().json == sample.json)
    let orders = sample.value
    #expect(Set(orders.map(\.status)) == Set(Orders.Status.allCases))
    #expect(orders.contains { $0.note != nil } && orders.contains { $0.note == nil })
    #expect(orders.allSatisfy { (1...5).contains($0.items.count) })
    #expect(
      orders.allSatisfy { order in
        order.total == order.items.reduce(Decimal(0)) { $0 + $1.unitPrice * Decimal($1.quantity) }
      })
    // Keys in declaration order, so that the bytes are the same on every run.
    let text = String(decoding: sample.json.prefix(400), as: UTF8.self)
    #expect(text.hasPrefix(#"[{"id":""#) && text.contains(#"","customerId":""#))
    try check(sample)
  }

  /// The columns, by name, for parameterized tests.
  enum Column: String, CaseIterable, Sendable {
    case dates, fractionalDates, uuids, strings, decimals, doubles, datas, urls, statuses
    case stockBySKU, priceBySKU, skuSet, optionalStrings
  }

  @Test(arguments: Column.allCases)
  func valueColumnDecodesToTheGeneratedValues(_ column: Column) throws {
    switch column {
    case .dates: try check(ValueColumns.dates())
    case .fractionalDates:
      let sample = ValueColumns.fractionalDates()
      #expect(String(decoding: sample.json.prefix(30), as: UTF8.self).contains("."))
      // Within a microsecond: a decoder may add the seconds and the fraction in another
      // order than the generator, which moves the last bit (see `fractionalDates`).
      try check(sample) { decoded, expected in
        decoded.count == expected.count
          && zip(decoded, expected).allSatisfy {
            abs($0.timeIntervalSince($1)) < 1e-6
          }
      }
    case .uuids: try check(ValueColumns.uuids())
    case .strings:
      let sample = try ValueColumns.strings()
      #expect(try sample.json == ValueColumns.uuids().json)
      try check(sample)
    case .decimals: try check(ValueColumns.decimals())
    case .doubles:
      let sample = try ValueColumns.doubles()
      #expect(try sample.json == ValueColumns.decimals().json)
      try check(sample)
    case .datas: try check(ValueColumns.datas())
    case .urls: try check(ValueColumns.urls())
    case .statuses: try check(ValueColumns.statuses())
    case .stockBySKU: try check(ValueColumns.stockBySKU())
    case .priceBySKU: try check(ValueColumns.priceBySKU())
    case .skuSet: try check(ValueColumns.skuSet())
    case .optionalStrings:
      let sample = try ValueColumns.optionalStrings()
      #expect(sample.value.contains(nil) && sample.value.contains { $0 != nil })
      try check(sample)
    }
  }

  @Test func fractionalSecondsAreWrittenAsWholeSeconds() throws {
    let sample = ValueColumns.fractionalDates(count: 3)
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let text = String(decoding: try encoder.encode(sample.value), as: UTF8.self)
    #expect(!text.contains("."), "\(text)")
  }

  // MARK: - Helpers

  /// Checks that `sample` decodes to its values through both libraries, with its
  /// strategies, and that JKEncoder writes the bytes JSONEncoder writes (keys sorted,
  /// since Foundation's unsorted order on Linux changes from run to run).
  private func check<Value>(
    _ sample: CodableSample<Value>,
    matching matches: (Value, Value) -> Bool = { $0 == $1 },
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let decoder = JSONDecoder()
    sample.strategies.configure(decoder)
    let foundation = try decoder.decode(Value.self, from: sample.json)
    #expect(
      matches(foundation, sample.value), "\(sample.name) through JSONDecoder",
      sourceLocation: sourceLocation)
    let jsonKit = try jsonKitDecoder(sample.strategies).decode(Value.self, from: sample.json)
    #expect(
      matches(jsonKit, sample.value), "\(sample.name) through JKDecoder",
      sourceLocation: sourceLocation)

    let foundationEncoder = JSONEncoder()
    sample.strategies.configure(foundationEncoder)
    foundationEncoder.outputFormatting = .sortedKeys
    let jsonKitEncoder = JKEncoder()
    jsonKitEncoder.keyEncodingStrategy = sample.strategies.keyEncoding
    jsonKitEncoder.dateEncodingStrategy = sample.strategies.dateEncoding
    jsonKitEncoder.outputFormatting = .sortedKeys
    let expected = try foundationEncoder.encode(sample.value)
    let written = try jsonKitEncoder.encode(sample.value)
    let same = zip(written, expected).prefix { $0 == $1 }.count
    #expect(
      written == expected,
      "\(sample.name): \(written.count) bytes, not \(expected.count); same up to \(same)",
      sourceLocation: sourceLocation)
  }

  private func jsonKitDecoder(_ strategies: CodingStrategies) -> JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = strategies.keyDecoding
    decoder.dateDecodingStrategy = strategies.dateDecoding
    return decoder
  }
}
