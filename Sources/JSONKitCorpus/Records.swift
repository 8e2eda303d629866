/// Generated documents of any size: an array of small, varied records, for
/// measuring how time and memory grow with the input.
///
/// The corpora are fixed at a few hundred kilobytes to a few megabytes; these
/// documents reach hundreds of megabytes. Every record is different (its numbers
/// and text depend on its position) and mixes the kinds of value the corpora hold:
/// integers, doubles with fractions and exponents, strings with and without
/// escapes, booleans, `null`, nested arrays.
///
/// ```swift
/// let document = Records.document(size: 100_000_000)
/// let records = try JSONDecoder().decode([Records.Record].self, from: Data(document.bytes))
/// ```
public enum Records {
  /// One record, the element type of ``document(size:)``'s array.
  public struct Record: Codable, Equatable, Sendable {
    /// The record's position in the array.
    public var id: Int
    /// A sentence that names the record.
    public var name: String
    /// `0.37` times the position, a double with a fraction.
    public var score: Double
    /// Three short strings, one with an escaped non-ASCII character.
    public var tags: [String]
    /// Whether the position is even.
    public var active: Bool
    /// Two doubles, the second written with an exponent.
    public var position: [Double]
    /// Always `null`.
    public var note: String?

    /// The record at position `id` of every generated document, as it decodes.
    public init(id: Int) {
      self.id = id
      name = "user number \(id) with a longer name"
      score = Double(id) * 0.37
      tags = ["alpha", "beta\u{E9}", "\(id % 97)"]
      active = id % 2 == 0
      position = [Double(id % 1000) + 0.5, -(Double(id % 77) + 0.25) / 1000]
      note = nil
    }
  }

  /// A JSON array of records, `size` bytes or at most one record longer, and
  /// how many records it holds. The same size always gives the same bytes.
  public static func document(size: Int) -> (bytes: [UInt8], records: Int) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size + 256)
    bytes.append(UInt8(ascii: "["))
    var count = 0
    while bytes.count < size {
      if count > 0 { bytes.append(UInt8(ascii: ",")) }
      let id = count
      let record =
        #"{"id":\#(id),"name":"user number \#(id) with a longer name","score":\#(Double(id) * 0.37),"tags":["alpha","beta\u00e9","\#(id % 97)"],"active":\#(id % 2 == 0),"position":[\#(id % 1000).5,-\#(id % 77).25e-3],"note":null}"#
      bytes.append(contentsOf: record.utf8)
      count += 1
    }
    bytes.append(UInt8(ascii: "]"))
    return (bytes, count)
  }
}
