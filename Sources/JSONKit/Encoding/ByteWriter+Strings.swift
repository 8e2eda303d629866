// Strings are escaped exactly as Foundation's JSONEncoder escapes them:
//
//   "  \  →  \"  \\
//   /     →  \/   (unless .withoutEscapingSlashes)
//   U+0008 U+0009 U+000A U+000C U+000D  →  \b \t \n \f \r
//   any other U+0000...U+001F  →  \u00XX, lowercase hex (U+001B is \u001b)
//
// and everything else, U+007F and U+2028/U+2029 included, as raw UTF-8.
// With JSONKit's .escapeUnicode, every scalar at or above U+0080 becomes
// \uXXXX (lowercase), as a surrogate pair above U+FFFF.
//
// JSONKit's reader rejects U+0000 and the noncharacters (U+FDD0...U+FDEF,
// U+nFFFE, U+nFFFF), so what JSONKit writes for JSON must not hold them:
// the checked writers below find them on the same scan that finds the bytes
// to escape, and throw. U+0000 is a control character, which the scan stops
// at anyway; every noncharacter is a UTF-8 sequence whose lead byte is 0xEF
// or above, which the scan stops at too (emoji and U+F000...U+FFFF mostly),
// and the rest of non-ASCII text passes at full speed.

extension ByteWriter {
  /// Writes `string` between double quotes, escaped.
  ///
  /// - Throws: ``UnreadableScalar`` when `string` holds a scalar JSONKit's
  ///   reader rejects, after writing all of it; the caller takes the text
  ///   out or gives up the output.
  mutating func writeQuoted(_ string: String) throws(UnreadableScalar) {
    append(UInt8(ascii: "\""))
    let unreadable = writeEscapedFindingUnreadable(string)
    append(UInt8(ascii: "\""))
    if let scalar = unreadable { throw UnreadableScalar(scalar, in: string) }
  }

  /// Writes `string` between double quotes, escaped, whatever scalars it
  /// holds: text for people (a value's `description`) and
  /// `JSONValue.quote`, which are not read back.
  mutating func writeQuotedUnchecked(_ string: String) {
    append(UInt8(ascii: "\""))
    _ = writeEscapedFindingUnreadable(string)
    append(UInt8(ascii: "\""))
  }

  /// Writes the escaped contents of `string`, without quotes, whatever
  /// scalars it holds.
  mutating func writeEscapedUnchecked(_ string: String) {
    _ = writeEscapedFindingUnreadable(string)
  }

  /// Writes the escaped contents of `string`, without quotes; returns the
  /// first scalar JSONKit's reader rejects, if any.
  private mutating func writeEscapedFindingUnreadable(_ string: String) -> Unicode.Scalar? {
    var string = string
    // Native strings are contiguous UTF-8 already; only a bridged string pays
    // for a copy here.
    return string.withUTF8 { writeEscaped(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// Writes the escaped form of valid UTF-8 `utf8`, without quotes; returns
  /// the first scalar JSONKit's reader rejects, if any (all of `utf8` is
  /// written in any case).
  mutating func writeEscaped(utf8: UnsafeRawBufferPointer) -> Unicode.Scalar? {
    guard let start = utf8.baseAddress else { return nil }
    let end = utf8.count
    ensureCapacity(end)
    var unreadable: Unicode.Scalar?
    var runStart = 0
    var position = 0
    while true {
      position = Self.offsetOfFirstByteNeedingEscape(
        in: start, from: position, to: end,
        escapingSlashes: escapesSlashes, escapingNonASCII: escapesUnicode)
      if position == end {
        if position > runStart {
          append(start + runStart, count: position &- runStart)
        }
        return unreadable
      }
      let byte = start.load(fromByteOffset: position, as: UInt8.self)
      if byte >= 0x80 {
        let (scalar, length) = Self.decodeScalar(at: start + position, lead: byte)
        if UTF8Validation.isNoncharacter(scalar), unreadable == nil {
          unreadable = Unicode.Scalar(scalar)
        }
        if !escapesUnicode {
          // A lead byte of 0xEF or above, written as it is: the run goes on.
          position &+= length
          continue
        }
        if position > runStart {
          append(start + runStart, count: position &- runStart)
        }
        writeEscape(nonASCII: scalar)
        position &+= length
      } else {
        if position > runStart {
          append(start + runStart, count: position &- runStart)
        }
        if byte == 0, unreadable == nil {
          unreadable = Unicode.Scalar(0)
        }
        writeEscape(ascii: byte)
        position &+= 1
      }
      runStart = position
    }
  }

  // MARK: - Finding bytes to escape

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The offset of the first byte in `start[from..<end]` that needs an escape
  /// or starts a sequence that may be a noncharacter (a lead byte of 0xEF or
  /// above), or `end`.
  ///
  /// Eight bytes at a time: each test below sets the high bit of a byte lane
  /// whose byte matches. A borrow can also set lanes above a true match, never
  /// below one, so the lowest set lane is always a true match.
  @inline(__always)
  static func offsetOfFirstByteNeedingEscape(
    in start: UnsafeRawPointer, from: Int, to end: Int,
    escapingSlashes: Bool, escapingNonASCII: Bool
  ) -> Int {
    // With slashes allowed, search for a second copy of the quote instead.
    let slash = (escapingSlashes ? 0x2F : 0x22) &* ones
    let quote = 0x22 &* ones
    let backslash = 0x5C &* ones
    let nonASCII = escapingNonASCII ? highBits : 0
    let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var position = from
    while position &+ 8 <= end {
      let word = UInt64(
        littleEndian: start.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let isControl = (word &- 0x20 &* ones) & ~word
      let isQuote = ((word ^ quote) &- ones) & ~(word ^ quote)
      let isBackslash = ((word ^ backslash) &- ones) & ~(word ^ backslash)
      let isSlash = ((word ^ slash) &- ones) & ~(word ^ slash)
      // A lane's low seven bits plus 0x11 reach the high bit from 0x6F on,
      // and never carry into the next lane; with the byte's own high bit,
      // that is 0xEF and above.
      let isHighLead = ((word & lowBits) &+ 0x11 &* ones) & word
      let hits =
        (isControl | isQuote | isBackslash | isSlash | isHighLead | (word & nonASCII)) & highBits
      if hits != 0 {
        return position &+ hits.trailingZeroBitCount >> 3
      }
      position &+= 8
    }
    while position < end {
      let byte = start.load(fromByteOffset: position, as: UInt8.self)
      if byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapingSlashes)
        || (byte >= 0x80 && escapingNonASCII) || byte >= 0xEF
      {
        return position
      }
      position &+= 1
    }
    return end
  }

  /// Decodes the scalar whose lead byte `lead` is at `pointer` in valid UTF-8.
  @inline(__always)
  private static func decodeScalar(
    at pointer: UnsafeRawPointer, lead: UInt8
  ) -> (scalar: UInt32, length: Int) {
    @inline(__always) func continuation(_ offset: Int) -> UInt32 {
      UInt32(pointer.load(fromByteOffset: offset, as: UInt8.self) & 0x3F)
    }
    let lead = UInt32(lead)
    if lead < 0xE0 {
      return ((lead & 0x1F) << 6 | continuation(1), 2)
    } else if lead < 0xF0 {
      return ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3)
    } else {
      let scalar = (lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6
      return (scalar | continuation(3), 4)
    }
  }

  // MARK: - Writing escapes

  @inline(__always)
  private static func hexDigit(_ nibble: UInt32) -> UInt8 {
    let nibble = UInt8(truncatingIfNeeded: nibble & 0xF)
    return nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
  }

  private mutating func writeEscape(ascii byte: UInt8) {
    switch byte {
    case 0x22: append(UInt8(ascii: "\\"), UInt8(ascii: "\""))
    case 0x5C: append(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
    case 0x2F: append(UInt8(ascii: "\\"), UInt8(ascii: "/"))
    case 0x08: append(UInt8(ascii: "\\"), UInt8(ascii: "b"))
    case 0x09: append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
    case 0x0A: append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
    case 0x0C: append(UInt8(ascii: "\\"), UInt8(ascii: "f"))
    case 0x0D: append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
    default: writeUTF16Escape(UInt32(byte))
    }
  }

  private mutating func writeEscape(nonASCII scalar: UInt32) {
    if scalar <= 0xFFFF {
      writeUTF16Escape(scalar)
    } else {
      let offset = scalar &- 0x1_0000
      writeUTF16Escape(0xD800 | offset >> 10)
      writeUTF16Escape(0xDC00 | offset & 0x3FF)
    }
  }

  /// Writes `\u` and four lowercase hexadecimal digits.
  private mutating func writeUTF16Escape(_ unit: UInt32) {
    ensureCapacity(6)
    storeUnchecked(UInt8(ascii: "\\"))
    storeUnchecked(UInt8(ascii: "u"))
    storeUnchecked(Self.hexDigit(unit >> 12))
    storeUnchecked(Self.hexDigit(unit >> 8))
    storeUnchecked(Self.hexDigit(unit >> 4))
    storeUnchecked(Self.hexDigit(unit))
  }
}
