/// Rounding a JSON number to Float from its correctly rounded Double.
///
/// Rounding twice can go wrong: a literal just above the midpoint between two
/// Floats can have that midpoint as its nearest Double, which then rounds to
/// the even Float, below. Only Doubles that are such midpoints (and those below
/// Float's normal range, where the spacing changes) need the literal itself.
enum FloatNarrowing {
  /// Whether `Float(value)` is the Float nearest every literal whose nearest
  /// Double is `value`: a few bit operations, on every Float decoded.
  @inline(__always)
  static func roundsOnce(_ value: Double) -> Bool {
    let bits = value.bitPattern
    // A Float has 24 significant bits; a midpoint between two normal Floats has
    // bit 25 set and nothing below it in the Double's 53.
    return bits & 0x1FFF_FFFF != 0x1000_0000 && (bits >> 52) & 0x7FF >= 1023 - 126
  }

  /// The Float nearest the literal `text`, whose nearest Double is `value`; nil
  /// when the literal is too large for Float, or not zero but rounds to zero.
  static func nearest(_ value: Double, literal text: UnsafeRawBufferPointer) -> Float? {
    let magnitude = value.magnitude
    var lower = Float(magnitude)
    if Double(lower) > magnitude { lower = lower.nextDown }
    var result = Float(magnitude)
    if Double(lower) != magnitude {
      let upper = lower == .greatestFiniteMagnitude ? 0x1p128 : Double(lower.nextUp)
      if magnitude == (Double(lower) + upper) / 2 {
        // A tie between two Floats as a Double; the literal may lie off it.
        switch DecimalToDouble.compareMagnitude(of: text, with: magnitude) {
        case ..<0: result = lower
        case 1...: result = lower.nextUp
        default: break
        }
      }
    }
    guard result.isFinite, result != 0 || magnitude == 0 else { return nil }
    return value.sign == .minus ? -result : result
  }
}
