/// A coding key made at run time: an object's key, or an array index.
struct AnyCodingKey: CodingKey, Sendable {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  /// An array index, spelled "Index 3" as Foundation's encoders spell it.
  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}
