/// The decimal text of a bignum given as big-endian bytes (CBOR's tags 2
/// and 3), for messages.
enum BignumText {
  /// The most bytes written out in full; the conversion is quadratic.
  static let maxBytes = 64

  /// `n`, or with `negative` −1 − n, in decimal, where `n` is the
  /// big-endian `bytes`; `nil` for more than ``maxBytes`` of them.
  static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, negative: Bool) -> String? {
    guard bytes.count <= maxBytes else { return nil }
    var value = Array(bytes)
    if negative {
      // n + 1, carried from the least significant byte.
      var index = value.count - 1
      while index >= 0 {
        value[index] &+= 1
        if value[index] != 0 { break }
        index -= 1
      }
      if index < 0 { value.insert(1, at: 0) }
    }
    var digits: [UInt8] = []
    while value.contains(where: { $0 != 0 }) {
      // Divides by ten, most significant byte first; the remainder is a digit.
      var remainder = 0
      for index in value.indices {
        let current = remainder << 8 | Int(value[index])
        value[index] = UInt8(current / 10)
        remainder = current % 10
      }
      digits.append(UInt8(ascii: "0") + UInt8(remainder))
    }
    if digits.isEmpty { digits = [UInt8(ascii: "0")] }
    return (negative ? "-" : "") + String(decoding: digits.reversed(), as: UTF8.self)
  }
}
