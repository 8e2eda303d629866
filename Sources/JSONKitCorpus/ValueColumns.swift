import Foundation

/// Generated JSON documents that each hold one kind of value alone, 20,000 of them by
/// default: what reading and writing one of Foundation's value types costs, set against a
/// plain `String` or `Double` of the same text.
///
/// Foundation reads a `Date`, `UUID`, `URL`, `Data` or raw-value enum by decoding a
/// `String` first and converting it; these columns measure each conversion on its own.
/// Every column follows from ``seed`` alone and is written by Foundation's `JSONEncoder`
/// (slashes unescaped), except the dates with fractional seconds, which `JSONEncoder`'s
/// `.iso8601` cannot write. Every sample is read and written with ``strategies``.
///
/// Two pairs hold the same bytes, as controls: ``strings(count:)`` is ``uuids(count:)``'s
/// text, and ``doubles(count:)`` is ``decimals(count:)``'s numbers.
///
/// ```swift
/// let sample = ValueColumns.uuids()
/// let decoder = JSONDecoder()
/// sample.strategies.configure(decoder)
/// let values = try decoder.decode([UUID].self, from: sample.json)
/// ```
public enum ValueColumns {
  /// How many values each column holds by default.
  public static let defaultCount = 20_000

  /// The seed of every column (each column mixes in its own number). Changing it changes
  /// what the benchmarks measure.
  public static let seed: UInt64 = 0x5641_4C55_4553_0001

  /// Default keys and ISO 8601 dates (`.iso8601` both ways), for every column.
  public static let strategies = CodingStrategies.iso8601

  /// `Date`s in whole seconds between 2001 and 2031, written by `.iso8601` as
  /// `2024-05-06T07:08:09Z`. Named `date-iso8601`.
  public static func dates(count: Int = defaultCount) throws -> CodableSample<[Date]> {
    var generator = generator(1)
    let values = (0..<count).map { _ in
      Date(timeIntervalSince1970: Double(randomSecond(using: &generator)))
    }
    return try sample("date-iso8601", values)
  }

  /// `Date`s with milliseconds between 2001 and 2031, written as
  /// `2024-05-06T07:08:09.123Z`. Named `date-iso8601-fractional`.
  ///
  /// `JSONDecoder`'s `.iso8601` in Swift 6's Foundation reads the fraction (Apple's older
  /// Foundation did not, hence the custom formatters in many apps). Its `.iso8601` *writes*
  /// whole seconds, dropping the fraction, so the JSON here is written out directly, and
  /// encoding these values gives whole seconds: shorter text than this sample's, and what
  /// a drop-in encoder must write too.
  ///
  /// Each value is the whole second plus the milliseconds over 1,000, both as doubles,
  /// added. A decoder may add them in another order: Foundation's values differ from these
  /// in the last bit now and then (a few in 20,000), far below a millisecond.
  public static func fractionalDates(count: Int = defaultCount) -> CodableSample<[Date]> {
    var generator = generator(2)
    var json = Array("[".utf8)
    json.reserveCapacity(count * 27 + 2)
    let values = (0..<count).map { index in
      let second = randomSecond(using: &generator)
      let millisecond = generator.next(below: 1_000)
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json += Array("\"\(iso8601(second: second, millisecond: millisecond))\"".utf8)
      return Date(
        timeIntervalSinceReferenceDate: Double(second - 978_307_200)
          + Double(millisecond) / 1_000)
    }
    json.append(UInt8(ascii: "]"))
    return CodableSample(
      name: "date-iso8601-fractional", count: count, json: Data(json), value: values,
      strategies: strategies)
  }

  /// Random version 4 `UUID`s, written upper-case as Foundation writes them. Named `uuid`.
  public static func uuids(count: Int = defaultCount) throws -> CodableSample<[UUID]> {
    var generator = generator(3)
    return try sample("uuid", (0..<count).map { _ in UUID(using: &generator) })
  }

  /// The text of ``uuids(count:)`` as plain strings: the same bytes, so that the two rows
  /// differ only by what making a `UUID` from its text costs. Named `string`.
  public static func strings(count: Int = defaultCount) throws -> CodableSample<[String]> {
    try sample("string", uuids(count: count).value.map(\.uuidString))
  }

  /// Amounts of money from 0.01 to 9,999.99 with two decimals, as `Decimal`, written as
  /// JSON numbers (`1234.56`, `0.5`). Named `decimal`.
  public static func decimals(count: Int = defaultCount) throws -> CodableSample<[Decimal]> {
    try sample("decimal", cents(count: count).map { Decimal(cents: $0) })
  }

  /// The numbers of ``decimals(count:)`` as `Double`s: the same bytes (each double is the
  /// nearest to its decimal, and written in the fewest digits that give it back). Named
  /// `double`.
  public static func doubles(count: Int = defaultCount) throws -> CodableSample<[Double]> {
    try sample("double", cents(count: count).map { Double($0) / 100 })
  }

  /// `Data` of 16 to 64 random bytes, written in base64 (Foundation's default `.base64`).
  /// Named `data-base64`.
  public static func datas(count: Int = defaultCount) throws -> CodableSample<[Data]> {
    var generator = generator(5)
    let values = (0..<count).map { _ in
      let length = 16 + generator.next(below: 49)
      return Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }
    return try sample("data-base64", values)
  }

  /// HTTPS links with paths and queries, such as
  /// `https://shop.example.com/products/4821/reviews?page=3&sort=newest`. Named `url`.
  public static func urls(count: Int = defaultCount) throws -> CodableSample<[URL]> {
    var generator = generator(6)
    let hosts = [
      "shop.example.com", "api.example.org", "cdn.example.net", "www.example.com",
      "images.example-cdn.com", "docs.example.io",
    ]
    let sections = ["products", "users", "orders", "articles", "assets", "search"]
    let leaves = ["reviews", "photos", "history", "edit", "thumbnail.jpg", "index.html"]
    let queries = [
      "", "?page=3&sort=newest", "?q=red%20shoes&size=42",
      "?utm_source=newsletter&utm_medium=email",
      "?width=640&height=480&format=webp", "?lang=en-GB", "?ref=home#details",
    ]
    let values = (0..<count).map { _ in
      let host = hosts[generator.next(below: hosts.count)]
      let section = sections[generator.next(below: sections.count)]
      let id = 1 + generator.next(below: 999_999)
      let leaf = leaves[generator.next(below: leaves.count)]
      let query = queries[generator.next(below: queries.count)]
      guard let url = URL(string: "https://\(host)/\(section)/\(id)/\(leaf)\(query)") else {
        preconditionFailure("not a URL")
      }
      return url
    }
    return try sample("url", values)
  }

  /// ``Orders/Status`` values, a `String` raw-value enum. Named `enum`.
  public static func statuses(count: Int = defaultCount) throws -> CodableSample<[Orders.Status]> {
    var generator = generator(7)
    let all = Orders.Status.allCases
    return try sample("enum", (0..<count).map { _ in all[generator.next(below: all.count)] })
  }

  /// A stock count (0 to 499) per SKU, `[String: Int]`, keys sorted. Named
  /// `dictionary-int`.
  public static func stockBySKU(count: Int = defaultCount) throws
    -> CodableSample<[String: Int]>
  {
    var generator = generator(8)
    let values = Dictionary(
      uniqueKeysWithValues: skus(count: count).map { ($0, generator.next(below: 500)) })
    return try sample("dictionary-int", values)
  }

  /// A price per SKU, `[String: Double]` (the numbers of ``doubles(count:)``), keys
  /// sorted. Named `dictionary-double`.
  public static func priceBySKU(count: Int = defaultCount) throws
    -> CodableSample<[String: Double]>
  {
    let values = Dictionary(
      uniqueKeysWithValues: zip(skus(count: count), cents(count: count).map { Double($0) / 100 }))
    return try sample("dictionary-double", values)
  }

  /// The SKUs of ``stockBySKU(count:)`` as a `Set<String>`, written in the set's own
  /// order, which changes from process to process (the JSON is made in the process that
  /// reads it). Named `set`.
  public static func skuSet(count: Int = defaultCount) throws -> CodableSample<Set<String>> {
    try sample("set", Set(skus(count: count)))
  }

  /// ``strings(count:)``'s text with about one value in three `nil`, as `[String?]`: an
  /// optional read from each element. Named `optional`.
  public static func optionalStrings(count: Int = defaultCount) throws
    -> CodableSample<[String?]>
  {
    var generator = generator(9)
    let values: [String?] = try strings(count: count).value.map {
      generator.next(below: 3) == 0 ? nil : $0
    }
    return try sample("optional", values)
  }

  /// A sample of `values` written by `JSONEncoder`.
  private static func sample<Value: Codable & Equatable & Sendable & Collection>(
    _ name: String, _ values: Value
  ) throws -> CodableSample<Value> {
    CodableSample(
      name: name, count: values.count, json: try GeneratedJSON.encode(values, strategies),
      value: values, strategies: strategies)
  }

  /// A generator for the column numbered `column`.
  private static func generator(_ column: UInt64) -> SplitMix64 {
    SplitMix64(seed: seed &+ column &* 0x1_0000)
  }

  /// A second between 2001-01-01 (Foundation's reference date) and 2031-01-01, counted
  /// from 1970.
  private static func randomSecond(using generator: inout SplitMix64) -> Int {
    978_307_200 + generator.next(below: 946_771_200)
  }

  /// Amounts from 1 to 999,999 cents, most below 100.00 as in a shop.
  private static func cents(count: Int) -> [Int] {
    var generator = generator(4)
    return (0..<count).map { _ in
      1 + generator.next(below: generator.next(below: 4) == 0 ? 999_999 : 9_999)
    }
  }

  /// `count` distinct SKUs such as `SKU-04821-BLU`.
  private static func skus(count: Int) -> [String] {
    let colours = ["BLK", "WHT", "BLU", "RED", "GRN", "GRY", "NAT"]
    return (0..<count).map { index in
      let number = String(index / colours.count)
      return "SKU-\(String(repeating: "0", count: max(0, 5 - number.count)))\(number)-"
        + colours[index % colours.count]
    }
  }

  /// `second` (counted from 1970, UTC) and `millisecond` as `2024-05-06T07:08:09.123Z`,
  /// with the proleptic Gregorian calendar worked out directly (Howard Hinnant's
  /// days-to-civil algorithm), so that no formatter or time zone is involved.
  static func iso8601(second: Int, millisecond: Int) -> String {
    let days = second.floorDiv(86_400)
    let time = second - days * 86_400
    let shifted = days + 719_468
    let era = shifted.floorDiv(146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func digits(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T"
      + "\(digits(time / 3_600, 2)):\(digits(time / 60 % 60, 2)):\(digits(time % 60, 2))."
      + "\(digits(millisecond, 3))Z"
  }
}

extension Int {
  /// The quotient rounded down, also for a negative `self`.
  fileprivate func floorDiv(_ divisor: Int) -> Int {
    let quotient = self / divisor
    return self % divisor < 0 ? quotient - 1 : quotient
  }
}
