import JSONKit

/// Makes random `JSONValue`s from a seed, for comparing JSONKit's output with
/// Foundation's.
struct JSONValueGenerator {
  var random: SplitMix64

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  /// A value nested at most `depth` containers deep.
  mutating func value(depth: Int) -> JSONValue {
    // Containers half the time while depth remains, so values branch out.
    let kind =
      depth > 0 && Bool.random(using: &random)
      ? Int.random(in: 7...8, using: &random) : Int.random(in: 0...6, using: &random)
    switch kind {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .int(integer())
    case 3: return .uint(UInt64.random(in: UInt64(Int64.max) + 1...UInt64.max, using: &random))
    case 4, 5: return .double(finiteDouble())
    case 6: return .string(string())
    case 7:
      let count = Int.random(in: 0..<6, using: &random)
      return .array((0..<count).map { _ in value(depth: depth - 1) })
    default:
      let count = Int.random(in: 0..<6, using: &random)
      return .object(JSONObject((0..<count).map { _ in (string(), value(depth: depth - 1)) }))
    }
  }

  /// An integer from anywhere in `Int64`'s range, often a small or extreme one.
  mutating func integer() -> Int64 {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return Int64.random(in: -1000...1000, using: &random)
    case 1:
      return [Int64.min, Int64.max, 0, -1, Int64.min + 1][Int.random(in: 0..<5, using: &random)]
    default:
      // Uniform bit lengths, so every magnitude is common.
      let bits = Int.random(in: 0...63, using: &random)
      let mask: UInt64 = (1 << UInt64(bits)) - 1
      let magnitude = Int64(bitPattern: random.next() & mask)
      return Bool.random(using: &random) ? magnitude : -magnitude
    }
  }

  /// A finite double drawn from the whole bit range: every exponent,
  /// subnormals and both zeros included.
  mutating func finiteDouble() -> Double {
    while true {
      let double = Double(bitPattern: random.next())
      if double.isFinite { return double }
    }
  }

  /// A string of up to 12 scalars from every plane, mixed with characters
  /// JSON escapes and ASCII runs long enough for the 8-byte fast path.
  mutating func string() -> String {
    var scalars = String.UnicodeScalarView()
    let length = Int.random(in: 0...12, using: &random)
    for _ in 0..<length {
      switch Int.random(in: 0..<8, using: &random) {
      case 0:
        scalars.append(Unicode.Scalar(UInt8.random(in: 0...0x1F, using: &random)))
      case 1:
        scalars.append(
          ["\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}"].randomElement(
            using: &random)!)
      case 2, 3:
        scalars.append(
          contentsOf: "abcdefghijk".prefix(Int.random(in: 1...11, using: &random)).unicodeScalars)
      case 4:
        scalars.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random)))
      default:
        scalars.append(anyScalar())
      }
    }
    return String(scalars)
  }

  /// A scalar from any plane, never a surrogate.
  mutating func anyScalar() -> Unicode.Scalar {
    while true {
      let plane = UInt32.random(in: 0...16, using: &random)
      let bits: UInt32 =
        plane == 0
        ? UInt32.random(in: 0x80...0xFFFF, using: &random)
        : UInt32.random(in: 0...0xFFFF, using: &random)
      if let scalar = Unicode.Scalar(plane << 16 | bits) { return scalar }
    }
  }
}
