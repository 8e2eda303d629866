/// IEEE 754 half precision (binary16), as CBOR writes its shortest floats:
/// conversions to and from `Double` by bit pattern, without the standard
/// library's `Float16`, which Intel Macs lack.
enum HalfPrecision {
  /// The `Double` that the half-precision bits `bits` stand for, exactly;
  /// a NaN keeps its sign and payload.
  static func double(fromBits bits: UInt16) -> Double {
    let negative = bits & 0x8000 != 0
    let exponent = Int(bits >> 10 & 0x1F)
    let fraction = UInt64(bits & 0x3FF)
    if exponent == 0x1F {
      let sign: UInt64 = negative ? 1 << 63 : 0
      return Double(bitPattern: sign | 0x7FF0_0000_0000_0000 | fraction << 42)
    }
    let magnitude =
      exponent == 0
      ? Double(fraction) * 0x1p-24
      : Double(1024 + fraction) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
    return negative ? -magnitude : magnitude
  }

  /// The half-precision bits that hold `value` exactly, or `nil` when half
  /// precision cannot hold it (too large, too small, or too many significant
  /// bits). A NaN fits when its payload does.
  static func bits(exactly value: Double) -> UInt16? {
    let pattern = value.bitPattern
    let sign = UInt16(truncatingIfNeeded: pattern >> 48) & 0x8000
    if !value.isFinite {
      // Infinity, or a NaN whose payload survives dropping 42 bits.
      guard pattern & (1 << 42 - 1) == 0 else { return nil }
      return sign | 0x7C00 | UInt16(truncatingIfNeeded: pattern >> 42) & 0x3FF
    }
    if value == 0 { return sign }
    let magnitude = value.magnitude
    let exponent = Int(magnitude.exponent)
    if exponent > 15 { return nil }
    if exponent >= -14 {
      // A normal half: the double's fraction must fit in ten bits.
      guard pattern & (1 << 42 - 1) == 0 else { return nil }
      let fraction = UInt16(truncatingIfNeeded: pattern >> 42) & 0x3FF
      return sign | UInt16(exponent + 15) << 10 | fraction
    }
    // A subnormal half: a whole multiple of 2^-24 below 2^-14.
    let units = magnitude * 0x1p24
    guard units >= 1, units == units.rounded(.towardZero) else { return nil }
    return sign | UInt16(units)
  }
}
