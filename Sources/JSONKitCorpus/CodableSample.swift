import Foundation

/// A JSON document and the values it holds, with the strategies that turn one into the
/// other: one row of the benchmarks that measure Foundation's value types (``ValueColumns``),
/// a generated API response (``Orders``) and a modelled one (``GitHubEvents``).
///
/// ```swift
/// let sample = ValueColumns.uuids()
/// let decoder = JSONDecoder()
/// sample.strategies.configure(decoder)
/// assert(try decoder.decode([UUID].self, from: sample.json) == sample.value)
/// ```
public struct CodableSample<Value: Codable & Equatable & Sendable>: Sendable {
  /// The name in benchmark rows, such as `uuid`, `date-iso8601` or `orders`.
  public let name: String
  /// How many values the document's top level holds: array elements, dictionary
  /// entries, orders or events.
  public let count: Int
  /// The document's bytes.
  public let json: Data
  /// What the document decodes to, and what encoding starts from.
  public let value: Value
  /// The strategies that decode ``json`` into ``value`` and encode it again.
  public let strategies: CodingStrategies

  /// A sample named `name` of `count` values.
  public init(
    name: String, count: Int, json: Data, value: Value, strategies: CodingStrategies
  ) {
    self.name = name
    self.count = count
    self.json = json
    self.value = value
    self.strategies = strategies
  }
}
