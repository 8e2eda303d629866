/// Reads UTF-16 or UTF-32 text (after its byte order mark) as Unicode
/// scalars, to transcode it to UTF-8 for the scanner and to find where a
/// place in that UTF-8 came from.
///
/// Each maximal ill-formed subpart (an unpaired surrogate; in UTF-32 a
/// surrogate or a unit above U+10FFFF; the incomplete unit of a length that
/// is not a multiple of the unit) becomes the byte 0xFF in the UTF-8, which
/// well-formed UTF-8 never holds. The scanner then applies JSONKit's Unicode
/// rule to it as to any ill-formed UTF-8: an error, or one U+FFFD under
/// `.looseUnicode`, so that strictness is decided in one place. A U+FEFF
/// right at the start (a second byte order mark, which Foundation rejects)
/// becomes 0xFF too, because the scanner would skip it as UTF-8's mark.
struct UnicodeTranscoder {
  /// The text after its byte order mark.
  let source: UnsafeRawBufferPointer
  let encoding: InputEncoding

  /// The byte that stands for an ill-formed subpart in the UTF-8.
  static let marker: UInt8 = 0xFF

  /// The most UTF-8 bytes the source can become: three per UTF-16 unit (a
  /// surrogate pair, two units, becomes four), four per UTF-32 unit, and one
  /// for an incomplete unit at the end.
  var maximumUTF8Count: Int {
    let unitSize = encoding.unitSize
    return source.count / unitSize * (unitSize == 2 ? 3 : 4) + 1
  }

  /// The scalar at `offset` in ``source`` and the bytes it takes; `nil` as
  /// the scalar of an ill-formed subpart.
  @inline(__always)
  func scalar(at offset: Int) -> (scalar: Unicode.Scalar?, length: Int) {
    let count = source.count
    var scalar: Unicode.Scalar?
    var length = encoding.unitSize
    guard offset + length <= count else { return (nil, count - offset) }
    if length == 2 {
      let bigEndian = encoding == .utf16BigEndian
      let unit = unit16(at: offset, bigEndian)
      if unit & 0xF800 != 0xD800 {
        scalar = Unicode.Scalar(unit)
      } else if unit < 0xDC00, offset + 4 <= count {
        let low = unit16(at: offset + 2, bigEndian)
        if low & 0xFC00 == 0xDC00 {
          scalar = Unicode.Scalar(0x1_0000 + (UInt32(unit & 0x3FF) << 10 | UInt32(low & 0x3FF)))
          length = 4
        }
      }
    } else {
      scalar = Unicode.Scalar(unit32(at: offset, encoding == .utf32BigEndian))
    }
    if offset == 0, scalar == "\u{FEFF}" { scalar = nil }
    return (scalar, length)
  }

  /// Writes the UTF-8 of the source into `output`, which holds at least
  /// ``maximumUTF8Count`` bytes, and returns how many bytes it wrote.
  func transcode(into output: UnsafeMutableRawBufferPointer) -> Int {
    guard let base = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
    var written = 0
    var offset = 0
    while offset < source.count {
      let (scalar, length) = self.scalar(at: offset)
      offset += length
      guard let scalar else {
        base[written] = Self.marker
        written += 1
        continue
      }
      let value = scalar.value
      switch value {
      case 0..<0x80:
        base[written] = UInt8(truncatingIfNeeded: value)
        written += 1
      case 0x80..<0x800:
        base[written] = 0xC0 | UInt8(truncatingIfNeeded: value >> 6)
        base[written + 1] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
        written += 2
      case 0x800..<0x1_0000:
        base[written] = 0xE0 | UInt8(truncatingIfNeeded: value >> 12)
        base[written + 1] = 0x80 | UInt8(truncatingIfNeeded: value >> 6 & 0x3F)
        base[written + 2] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
        written += 3
      default:
        base[written] = 0xF0 | UInt8(truncatingIfNeeded: value >> 18)
        base[written + 1] = 0x80 | UInt8(truncatingIfNeeded: value >> 12 & 0x3F)
        base[written + 2] = 0x80 | UInt8(truncatingIfNeeded: value >> 6 & 0x3F)
        base[written + 3] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
        written += 4
      }
    }
    return written
  }

  /// Where in ``source`` the UTF-8 byte at `utf8Offset` came from: the offset
  /// of its scalar or ill-formed subpart (the source's length at the end),
  /// and whether that was an ill-formed subpart.
  func sourceOffset(ofUTF8Offset utf8Offset: Int) -> (offset: Int, isIllFormed: Bool) {
    var position = 0
    var offset = 0
    while offset < source.count {
      let (scalar, length) = self.scalar(at: offset)
      position += scalar.map { UTF8.width($0) } ?? 1
      if position > utf8Offset { return (offset, scalar == nil) }
      offset += length
    }
    return (source.count, false)
  }

  /// What the ill-formed subpart at `offset` is, for a message, as a noun
  /// phrase without an article ("unpaired surrogate 0xD800").
  func describeIllFormed(at offset: Int) -> String {
    let unitSize = encoding.unitSize
    guard offset + unitSize <= source.count else {
      let left = source.count - offset
      return
        "incomplete \(encoding.name) code unit (\(left) byte\(left == 1 ? "" : "s") at the end)"
    }
    let unit =
      unitSize == 2
      ? UInt32(unit16(at: offset, encoding == .utf16BigEndian))
      : unit32(at: offset, encoding == .utf32BigEndian)
    if offset == 0, unit == 0xFEFF { return "second byte order mark" }
    let digits = String(unit, radix: 16, uppercase: true)
    let hex = "0x" + String(repeating: "0", count: max(0, 2 * unitSize - digits.count)) + digits
    if unit > 0x10_FFFF { return "code unit \(hex), above U+10FFFF" }
    return unitSize == 2 ? "unpaired surrogate \(hex)" : "surrogate code unit \(hex)"
  }

  @inline(__always)
  private func unit16(at offset: Int, _ bigEndian: Bool) -> UInt16 {
    let first = UInt16(source[offset])
    let second = UInt16(source[offset + 1])
    return bigEndian ? first << 8 | second : second << 8 | first
  }

  @inline(__always)
  private func unit32(at offset: Int, _ bigEndian: Bool) -> UInt32 {
    var value: UInt32 = 0
    for index in 0..<4 {
      let byte = UInt32(source[offset + (bigEndian ? index : 3 - index)])
      value = value << 8 | byte
    }
    return value
  }
}
