/// Integer literals longer than 64 bits, read into a wider integer type.
enum IntegerText {
  /// The value of the integer literal `text` as `T`, or nil when it does not fit.
  static func parse<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeRawBufferPointer) -> T? {
    var index = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative {
      guard T.isSigned else { return nil }
      index = 1
    }
    guard index < text.count else { return nil }
    var value: T = 0
    while index < text.count {
      let digit = text[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      // Accumulate negatives downwards so that T.min is reachable.
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
      if overflow || overflow2 { return nil }
      value = next
      index += 1
    }
    return value
  }
}

extension IntegerText {
  /// The value of the validated JSON number literal `text` (which may have a
  /// fraction and an exponent, as in `12.50e1`) as `T`, or nil when it is not
  /// an integer or does not fit. Zero with a sign (`-0.0`) is zero, for
  /// unsigned types too.
  ///
  /// Allocates nothing, and reads each digit once: a literal's zeros are
  /// multiplied in only when a nonzero digit or the exponent puts them
  /// above the units, and a value that overflows stops the reading.
  static func parseExact<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeRawBufferPointer) -> T?
  {
    let layout = DecimalToDouble.LiteralLayout(text)
    var value: T = 0
    // Zeros read since the last nonzero digit.
    var zeros = 0
    // Takes in the digit at `index`; false when the value overflows.
    func read(_ index: Int) -> Bool {
      let digit = text[index] &- UInt8(ascii: "0")
      guard digit != 0 else {
        zeros += 1
        return true
      }
      if value != 0 {
        for _ in 0...zeros {
          guard let scaled = timesTen(value) else { return false }
          value = scaled
        }
      }
      zeros = 0
      // Negatives accumulate downwards so that T.min is reachable.
      let (next, overflow) =
        layout.negative
        ? value.subtractingReportingOverflow(T(digit)) : value.addingReportingOverflow(T(digit))
      value = next
      return !overflow
    }
    for index in layout.integerDigits where !read(index) { return nil }
    for index in layout.fractionDigits where !read(index) { return nil }
    guard value != 0 else { return 0 }
    // The power of ten of the last nonzero digit's place; below the units,
    // the literal has a fraction.
    let scale = layout.exponent - layout.fractionDigits.count + zeros
    guard scale >= 0 else { return nil }
    for _ in 0..<scale {
      // A nonzero value overflows within 40 steps, whatever the exponent.
      guard let scaled = timesTen(value) else { return nil }
      value = scaled
    }
    return value
  }

  @inline(__always)
  private static func timesTen<T: FixedWidthInteger>(_ value: T) -> T? {
    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
    return overflow ? nil : product
  }
}
