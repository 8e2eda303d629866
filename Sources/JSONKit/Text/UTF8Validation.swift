/// UTF-8 well-formedness as Unicode's Table 3-7 defines it, and the
/// scalar-level rules JSONKit adds (no U+0000, no noncharacters).
enum UTF8Validation {
  /// The length a sequence starting with `lead` would have, or 0 when `lead`
  /// can never start a well-formed sequence (continuation bytes, C0, C1, F5–FF).
  static func sequenceLength(lead: UInt8) -> Int {
    switch lead {
    case 0..<0x80: 1
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 0
    }
  }

  /// Decodes the sequence whose lead byte (at least 0x80) is at `index`.
  ///
  /// Returns the sequence's length (2 to 4) and its scalar when it is
  /// well-formed. Otherwise returns the negated length of its maximal
  /// ill-formed subpart, the unit that `.looseUnicode` replaces with one
  /// U+FFFD (Unicode 6.0 §3.9): the longest prefix that could still have
  /// begun a well-formed sequence, and at least the lead byte.
  @inline(__always)
  static func decodeMultibyte(
    _ base: UnsafePointer<UInt8>, at index: Int, end: Int
  ) -> (length: Int, scalar: UInt32) {
    let lead = base[index]
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    var remaining: Int
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF:
      remaining = 1
      scalar = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      remaining = 2
      scalar = UInt32(lead & 0x0F)
      if lead == 0xE0 { low = 0xA0 }  // overlong
      if lead == 0xED { high = 0x9F }  // surrogates
    case 0xF0...0xF4:
      remaining = 3
      scalar = UInt32(lead & 0x07)
      if lead == 0xF0 { low = 0x90 }  // overlong
      if lead == 0xF4 { high = 0x8F }  // beyond U+10FFFF
    default:
      return (-1, 0)
    }
    var position = index + 1
    guard position < end, base[position] >= low, base[position] <= high else {
      return (-(position - index), 0)
    }
    while true {
      scalar = scalar << 6 | UInt32(base[position] & 0x3F)
      position += 1
      remaining -= 1
      if remaining == 0 { break }
      guard position < end, base[position] & 0xC0 == 0x80 else {
        return (-(position - index), 0)
      }
    }
    return (position - index, scalar)
  }

  /// The index of the first byte at or after `start` that does not begin a
  /// well-formed two-byte sequence, or a well-formed three-byte sequence led
  /// by E1–EC or EE, or `end` if there is none.
  ///
  /// These sequences (U+0080–U+07FF, U+1000–U+CFFF, U+E000–U+EFFF) hold most
  /// non-ASCII text and can be neither overlong, nor surrogates, nor
  /// noncharacters, so checking their continuation bytes is all the
  /// validation they need; every other byte is left to
  /// ``decodeMultibyte(_:at:end:)``.
  @inline(__always)
  static func skipCommonSequences(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
    var position = start
    while position < end {
      let lead = base[position]
      if lead &- 0xC2 < 0x1E {
        guard position + 1 < end, base[position + 1] & 0xC0 == 0x80 else { return position }
        position += 2
      } else if lead &- 0xE1 < 0x0C || lead == 0xEE {
        guard position + 2 < end, base[position + 1] & 0xC0 == 0x80,
          base[position + 2] & 0xC0 == 0x80
        else { return position }
        position += 3
      } else {
        return position
      }
    }
    return position
  }

  /// The length of the well-formed sequence at `index`, or 0 when the bytes
  /// there are ill-formed.
  static func validSequenceLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
    if bytes[index] < 0x80 { return 1 }
    return max(0, decodeMultibyte(base, at: index, end: bytes.count).length)
  }

  /// Whether `scalar` is one of Unicode's 66 noncharacters: U+FDD0 to
  /// U+FDEF, and the last two code points of every plane.
  @inline(__always)
  static func isNoncharacter(_ scalar: UInt32) -> Bool {
    (scalar &- 0xFDD0) < 0x20 || scalar & 0xFFFE == 0xFFFE
  }
}

extension UTF8Validation {
  /// What ``check(_:)`` finds in a text.
  enum TextCheck: Equatable {
    /// Every byte is ASCII.
    case ascii
    /// Well-formed UTF-8, with at least one byte that is not ASCII.
    case wellFormed
    /// Ill-formed from this offset on.
    case illFormed(at: Int)
  }

  /// Whether `bytes` are ASCII, well-formed UTF-8 or neither (and where),
  /// in one pass: a reader that flags ASCII text and validates the rest
  /// reads the ASCII prefix once.
  ///
  /// Only Unicode's well-formedness counts here: U+0000 and noncharacters
  /// are scalars like any other, as formats other than JSON (CBOR's text
  /// strings) take them.
  @inline(__always)
  static func check(_ bytes: UnsafeRawBufferPointer) -> TextCheck {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .ascii }
    let end = bytes.count
    var index = 0
    // The ASCII prefix, eight bytes at a time, then byte by byte.
    while end - index >= 8,
      UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
    {
      index += 8
    }
    while index < end, base[index] < 0x80 { index += 1 }
    if index == end { return .ascii }
    return check(base, from: index, end: end)
  }

  /// ``check(_:)`` of the text from `index`, where a byte that is not
  /// ASCII stands, to `end`.
  @inline(never)
  private static func check(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> TextCheck {
    var index = start
    while index < end {
      // Eight ASCII bytes at a time: most text is ASCII.
      if end - index >= 8 {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          index += 8
          continue
        }
      }
      if base[index] < 0x80 {
        index += 1
        continue
      }
      // Most non-ASCII text is sequences that need no check of their scalar.
      index = skipCommonSequences(base, from: index, end: end)
      guard index < end, base[index] >= 0x80 else { continue }
      let length = decodeMultibyte(base, at: index, end: end).length
      guard length > 0 else { return .illFormed(at: index) }
      index += length
    }
    return .wellFormed
  }

  /// The offset of the first byte of `bytes` that is not part of a
  /// well-formed UTF-8 sequence, or `nil` when all of it is well-formed
  /// (see ``check(_:)``).
  static func firstIllFormedOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
    if case .illFormed(let offset) = check(bytes) { return offset }
    return nil
  }
}
