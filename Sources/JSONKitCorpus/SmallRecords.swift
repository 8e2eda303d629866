/// Small records of the kind JSON Lines mostly carries (log lines, events,
/// exported rows), 100 to 150 bytes each, as JSON Lines and as one array.
///
/// Each record holds an `Int64` id, a name with an escaped quote and a
/// character outside the Basic Multilingual Plane, two tags, a `Double`
/// score and, on two records in three, a nested owner. The same count always
/// gives the same bytes.
///
/// ```swift
/// let sample = SmallRecords.sample(count: 10_000)
/// let records = try JSONDecoder().decode([SmallRecords.Record].self, from: Data(sample.array))
/// ```
public enum SmallRecords {
  /// One record.
  public struct Record: Codable, Equatable, Sendable {
    /// A 64-bit id, larger than 32 bits.
    public var id: Int64
    /// A short name holding `\"` and U+1F600, escaped as a surrogate pair.
    public var name: String
    /// Two short tags.
    public var tags: [String]
    /// A score with two decimals.
    public var score: Double
    /// Who owns the record; absent on every third record.
    public var owner: Owner?
  }

  /// A record's owner.
  public struct Owner: Codable, Equatable, Sendable {
    /// The owner's id.
    public var id: Int64
    /// The owner's name.
    public var name: String
  }

  /// `count` records, as JSON Lines (each record and a newline) and as one
  /// JSON array of the same records.
  public static func sample(count: Int) -> (lines: [UInt8], array: [UInt8]) {
    var generator = SplitMix64(seed: 30)
    var lines: [UInt8] = []
    var array: [UInt8] = [UInt8(ascii: "[")]
    lines.reserveCapacity(count * 140)
    array.reserveCapacity(count * 140)
    let tags = ["alpha", "beta", "gamma", "delta", "eu-west", "us-east", "error", "info"]
    for index in 0..<count {
      let id = 4_000_000_000 + Int64(index) * 7
      let score = Double(generator.next(below: 100_000)) / 100
      let first = tags[generator.next(below: tags.count)]
      let second = tags[generator.next(below: tags.count)]
      var record =
        #"{"id":\#(id),"name":"user \"\#(index % 1000)\" \ud83d\ude00","#
        + #""tags":["\#(first)","\#(second)"],"score":\#(score)"#
      if index % 3 != 0 {
        let owner = generator.next(below: 10_000)
        record += #","owner":{"id":\#(owner),"name":"owner \#(owner)"}"#
      }
      record += "}"
      lines += record.utf8
      lines.append(0x0A)
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array += record.utf8
    }
    array.append(UInt8(ascii: "]"))
    return (lines, array)
  }
}
