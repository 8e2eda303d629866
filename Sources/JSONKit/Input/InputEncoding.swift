/// The Unicode encoding of a JSON document's bytes, told from its first four
/// bytes the way Foundation's `JSONDecoder` tells it.
///
/// JSON text starts with ASCII (whitespace or the start of a value), so in
/// UTF-16 and UTF-32 its first code units hold zero bytes in a pattern that
/// gives the encoding away, as RFC 4627 observed; a byte order mark says it
/// outright. UTF-8 is everything else, and is settled by one look at the first
/// two bytes.
enum InputEncoding: Equatable {
  case utf8
  case utf16BigEndian
  case utf16LittleEndian
  case utf32BigEndian
  case utf32LittleEndian

  /// The bytes of one code unit.
  var unitSize: Int {
    switch self {
    case .utf8: 1
    case .utf16BigEndian, .utf16LittleEndian: 2
    case .utf32BigEndian, .utf32LittleEndian: 4
    }
  }

  /// The encoding's name as messages give it.
  var name: String {
    switch self {
    case .utf8: "UTF-8"
    case .utf16BigEndian: "UTF-16BE"
    case .utf16LittleEndian: "UTF-16LE"
    case .utf32BigEndian: "UTF-32BE"
    case .utf32LittleEndian: "UTF-32LE"
    }
  }

  /// The encoding of `bytes` and the length of the byte order mark that
  /// starts them (0 for UTF-8, whose mark the scanner skips itself).
  ///
  /// Most documents start with `{`, `[` or `"`: a first byte other than 0,
  /// 0xFE and 0xFF followed by a byte other than 0 is UTF-8, and nothing
  /// more is read.
  @inline(__always)
  static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: InputEncoding, markLength: Int)
  {
    let count = bytes.count
    guard count > 0 else { return (.utf8, 0) }
    let first = bytes[0]
    if first &- 1 < 0xFD, count < 2 || bytes[1] != 0 { return (.utf8, 0) }
    return detectOther(bytes)
  }

  /// The cases that may not be UTF-8, in Foundation's order: byte order
  /// marks first, then the zero bytes of ASCII in wider code units.
  @inline(never)
  private static func detectOther(_ bytes: UnsafeRawBufferPointer) -> (
    encoding: InputEncoding, markLength: Int
  ) {
    let count = bytes.count
    let b0 = bytes[0]
    let b1: UInt8? = count > 1 ? bytes[1] : nil
    let b2: UInt8? = count > 2 ? bytes[2] : nil
    let b3: UInt8? = count > 3 ? bytes[3] : nil
    switch (b0, b1, b2, b3) {
    case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
    // Foundation's `JSONDecoder` takes FE FF 00 00 for UTF-32LE's mark, and
    // FF FE 00 00 (the real one) for UTF-16LE's mark and a U+0000 that it
    // then rejects; `JSONSerialization` reads FF FE 00 00 as UTF-32LE. Both
    // are read as UTF-32LE here: neither can start UTF-16 JSON, so no
    // document that either reader accepts is read differently.
    case (0xFE, 0xFF, 0x00, 0x00), (0xFF, 0xFE, 0x00, 0x00): return (.utf32LittleEndian, 4)
    case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
    case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
    case (0x00, 0x00, 0x00, .some(let b3)) where b3 != 0: return (.utf32BigEndian, 0)
    case (0x00, .some(let b1), 0x00, .some(let b3)) where b1 != 0 && b3 != 0:
      return (.utf16BigEndian, 0)
    case (let b0, 0x00, 0x00, 0x00) where b0 != 0: return (.utf32LittleEndian, 0)
    case (let b0, 0x00, .some(let b2), 0x00) where b0 != 0 && b2 != 0:
      return (.utf16LittleEndian, 0)
    // Two bytes: one UTF-16 code unit, such as a one-digit document.
    case (0x00, .some(let b1), nil, nil) where b1 != 0: return (.utf16BigEndian, 0)
    case (let b0, 0x00, nil, nil) where b0 != 0: return (.utf16LittleEndian, 0)
    default: return (.utf8, 0)
    }
  }
}
