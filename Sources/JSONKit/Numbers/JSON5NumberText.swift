/// The text of numbers written in JSON5's syntax (hexadecimal, an explicit
/// `+`, a leading or trailing decimal point, `Infinity`, `NaN`), for the
/// readers that parse a number's text: they understand JSON's grammar only,
/// so a JSON5 literal is first rewritten into it.
enum JSON5NumberText {
  /// The offset just past the number literal that starts at `start` in
  /// `input`, which the scanner has accepted as JSON5 (so it follows the
  /// grammar, and whatever follows it is not part of it).
  static func literalEnd(in input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var position = start
    func at(_ offset: Int) -> UInt8 { offset < input.count ? input[offset] : 0 }
    if at(position) == UInt8(ascii: "+") || at(position) == UInt8(ascii: "-") { position += 1 }
    switch at(position) {
    case UInt8(ascii: "I"): return position + 8
    case UInt8(ascii: "N"): return position + 3
    case UInt8(ascii: "0") where at(position + 1) | 0x20 == UInt8(ascii: "x"):
      position += 2
      while isHexDigit(at(position)) { position += 1 }
      return position
    default:
      while DecimalDigits.isDigit(at(position)) { position += 1 }
      if at(position) == UInt8(ascii: ".") {
        position += 1
        while DecimalDigits.isDigit(at(position)) { position += 1 }
      }
      if at(position) | 0x20 == UInt8(ascii: "e") {
        position += 1
        if at(position) == UInt8(ascii: "+") || at(position) == UInt8(ascii: "-") { position += 1 }
        while DecimalDigits.isDigit(at(position)) { position += 1 }
      }
      return position
    }
  }

  /// Whether `literal`, a JSON5 number, is hexadecimal.
  static func isHexadecimal(_ literal: UnsafeRawBufferPointer) -> Bool {
    var position = 0
    if position < literal.count,
      literal[position] == UInt8(ascii: "+") || literal[position] == UInt8(ascii: "-")
    {
      position += 1
    }
    return position + 1 < literal.count && literal[position] == UInt8(ascii: "0")
      && literal[position + 1] | 0x20 == UInt8(ascii: "x")
  }

  /// `literal`, a decimal JSON5 number, in JSON's grammar: without a `+`,
  /// with a `0` before a leading and after a trailing decimal point
  /// (`+.5e3` is `0.5e3`, `5.` is `5.0`). Nil for hexadecimal numbers,
  /// `Infinity` and `NaN`, which have no such spelling.
  static func jsonText(_ literal: UnsafeRawBufferPointer) -> [UInt8]? {
    var text: [UInt8] = []
    text.reserveCapacity(literal.count + 2)
    var position = 0
    if position < literal.count, literal[position] == UInt8(ascii: "-") {
      text.append(UInt8(ascii: "-"))
      position += 1
    } else if position < literal.count, literal[position] == UInt8(ascii: "+") {
      position += 1
    }
    guard position < literal.count, !isHexadecimal(literal),
      literal[position] == UInt8(ascii: ".") || DecimalDigits.isDigit(literal[position])
    else { return nil }
    let integerStart = position
    while position < literal.count, DecimalDigits.isDigit(literal[position]) {
      text.append(literal[position])
      position += 1
    }
    if position == integerStart { text.append(UInt8(ascii: "0")) }
    if position < literal.count, literal[position] == UInt8(ascii: ".") {
      text.append(UInt8(ascii: "."))
      position += 1
      let fractionStart = position
      while position < literal.count, DecimalDigits.isDigit(literal[position]) {
        text.append(literal[position])
        position += 1
      }
      if position == fractionStart { text.append(UInt8(ascii: "0")) }
    }
    text.append(contentsOf: literal[position...])
    return text
  }

  @inline(__always)
  static func isHexDigit(_ byte: UInt8) -> Bool {
    DecimalDigits.isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
  }

  /// The value of a hexadecimal digit (which ``isHexDigit(_:)`` accepted).
  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt64 {
    DecimalDigits.isDigit(byte) ? UInt64(byte &- 0x30) : UInt64((byte | 0x20) &- 0x57)
  }
}
