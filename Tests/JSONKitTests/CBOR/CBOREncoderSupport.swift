import Foundation
import JSONKit

/// Encoding for the CBOR encoder's suites, each output read back by the
/// strict reader.
enum CBOREncoding {
  /// The CBOR `encoder` writes for `value`, as lowercase hex, after
  /// checking that the strict reader reads it.
  static func hex<T: Encodable>(_ value: T, _ encoder: JKCBOREncoder = JKCBOREncoder()) throws
    -> String
  {
    let bytes = try encoder.encodeToBytes(value)
    _ = try CBORValue(cbor: bytes)
    return CBORBytes.hex(bytes)
  }

  /// What ``JKCBOREncoder`` writes for `value` and what `JKEncoder` writes
  /// for it as JSON converted to CBOR, both as JSON can tell them: a whole
  /// float as an integer (JSON writes 47.0 as `47`), an integer key as
  /// text.
  ///
  /// With `singleFloats`, every float is compared at single precision: JSON
  /// writes a `Float` as its shortest decimal, which reads back as another
  /// double than the `Float`'s own.
  static func ourAndJSONs<T: Encodable>(
    _ value: T, _ cbor: JKCBOREncoder = JKCBOREncoder(), _ json: JKEncoder = JKEncoder(),
    singleFloats: Bool = false
  ) throws -> (ours: [UInt8], theirs: [UInt8]) {
    let ours = try asJSONTells(CBORValue(cbor: cbor.encodeToBytes(value)), singleFloats)
    let theirs = try asJSONTells(CBORValue(JSONValue(parsing: json.encode(value))), singleFloats)
    return (ours.cborBytes(), theirs.cborBytes())
  }

  private static func asJSONTells(_ value: CBORValue, _ singleFloats: Bool) -> CBORValue {
    switch value {
    case .float(var number):
      if singleFloats, number.isFinite { number = Double(Float(number)) }
      guard number.rounded() == number, abs(number) < 0x1p53,
        !(number == 0 && number.sign == .minus)
      else { return .float(number) }
      return number >= 0 ? .unsigned(UInt64(number)) : .negative(UInt64(-1 - number))
    case .unsigned(let integer) where singleFloats && integer >= 1 << 53:
      return value
    case .array(let elements):
      return .array(elements.map { asJSONTells($0, singleFloats) })
    case .map(let pairs):
      return .map(
        pairs.map { pair in (asJSONKey(pair.key), asJSONTells(pair.value, singleFloats)) })
    default:
      return value
    }
  }

  private static func asJSONKey(_ key: CBORValue) -> CBORValue {
    switch key {
    case .unsigned(let value): .text(String(value))
    case .negative(let value): .text("-" + String(UInt64(value) + 1))
    default: key
    }
  }
}
