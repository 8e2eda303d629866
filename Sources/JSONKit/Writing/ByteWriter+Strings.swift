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
// U+nFFFE, U+nFFFF), so JSON that JSONKit writes must not hold them. The
// scan that finds the bytes to escape finds them too, and the writer notes
// the first one (``ByteWriter/unreadableScalar``) for its caller to throw:
// U+0000 is a control character, which the scan stops at anyway, and every
// noncharacter is a UTF-8 sequence whose lead byte is 0xEF or above, which
// the scan also stops at (mostly emoji and U+F000...U+FFFF); the rest of
// non-ASCII text passes at full speed.

extension ByteWriter {
  /// Writes `string` between double quotes, escaped, noting in
  /// ``unreadableScalar`` a scalar JSONKit's reader rejects.
  mutating func writeQuoted(_ string: String) {
    append(UInt8(ascii: "\""))
    writeEscaped(string)
    append(UInt8(ascii: "\""))
  }

  /// Writes `string` between double quotes, escaped.
  ///
  /// - Throws: ``UnreadableScalar`` when `string` holds a scalar JSONKit's
  ///   reader rejects, after writing all of it; the caller takes the text
  ///   out or gives up the output.
  mutating func writeQuotedChecked(_ string: String) throws(UnreadableScalar) {
    writeQuoted(string)
    if let scalar = takeUnreadableScalar() { throw UnreadableScalar(scalar, in: string) }
  }

  /// The first scalar JSONKit's reader rejects written since the last call,
  /// if any.
  @inline(__always)
  mutating func takeUnreadableScalar() -> Unicode.Scalar? {
    guard let scalar = unreadableScalar else { return nil }
    unreadableScalar = nil
    return scalar
  }

  /// Writes the escaped contents of `string`, without quotes.
  mutating func writeEscaped(_ string: String) {
    // Native strings are contiguous UTF-8 already, read in place without a
    // copy of the string (and its retain and release); only a bridged or
    // otherwise non-contiguous string is made contiguous here.
    let wroteInPlace = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      writeEscaped(utf8: UnsafeRawBufferPointer(bytes))
      return true
    }
    if wroteInPlace == nil {
      var string = string
      string.withUTF8 { writeEscaped(utf8: UnsafeRawBufferPointer($0)) }
    }
  }

  /// Writes the escaped form of valid UTF-8 `utf8`, without quotes.
  ///
  /// One pass that copies as it scans: each block of sixteen bytes (then
  /// each word) of the input is stored to the output whole, then the count
  /// of bytes written advances past those that need no escape, so text
  /// without escapes is read and written once, and no call is made per run.
  /// Stores may reach up to a word past the text; the capacity ensured
  /// covers that, and later writes overwrite it.
  mutating func writeEscaped(utf8: UnsafeRawBufferPointer) {
    guard let start = utf8.baseAddress else { return }
    let end = utf8.count
    let slashes = escapesSlashes
    let nonASCII = escapesUnicode
    var position = 0
    while true {
      // The rest as it is, and the slack of a word store.
      ensureCapacity(end &- position &+ 8)
      // The clean bytes before the first that needs an escape: sixteen
      // bytes at a time while they last, then words.
      var clean = 0
      found: do {
        while position &+ 16 <= end {
          let bytes = start.loadUnaligned(fromByteOffset: position, as: SIMD16<Int8>.self)
          freeSpace.storeBytes(of: bytes, as: SIMD16<Int8>.self)
          clean = Self.firstEscapeLane(bytes, escapingSlashes: slashes, escapingNonASCII: nonASCII)
          if clean < 16 { break found }
          commit(16)
          position &+= 16
        }
        while position &+ 8 <= end {
          let word = start.loadUnaligned(fromByteOffset: position, as: UInt64.self)
          freeSpace.storeBytes(of: word, as: UInt64.self)
          let hits = Self.escapeHits(
            UInt64(littleEndian: word), escapingSlashes: slashes, escapingNonASCII: nonASCII)
          clean = hits.trailingZeroBitCount >> 3
          if hits != 0 { break found }
          commit(8)
          position &+= 8
        }
        let tail = end &- position
        if tail == 0 { return }
        let word = Self.loadShort(start + position, count: tail)
        freeSpace.storeBytes(of: word, as: UInt64.self)
        // The padding's zero bytes look like control characters.
        let hits =
          Self.escapeHits(
            UInt64(littleEndian: word), escapingSlashes: slashes, escapingNonASCII: nonASCII)
          & (UInt64.max >> (64 &- 8 &* UInt64(tail)))
        if hits == 0 {
          commit(tail)
          return
        }
        clean = hits.trailingZeroBitCount >> 3
      }
      commit(clean)
      position &+= clean
      // A slash, the escape of every URL's text, is written here rather
      // than by a call. The lowest lane hit is a true match, and a slash is
      // one only when slashes are escaped. The capacity ensured above holds
      // the clean bytes and the two of the escape.
      if start.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "/") {
        let escape = UInt16(UInt8(ascii: "\\")) | UInt16(UInt8(ascii: "/")) << 8
        freeSpace.storeBytes(of: escape.littleEndian, as: UInt16.self)
        commit(2)
        position &+= 1
        continue
      }
      position = writeEscape(at: start, position)
    }
  }

  /// Writes the escape for the byte at `start[position]`, which needs one
  /// (or begins a sequence that may be a noncharacter), and returns the
  /// position after it.
  @inline(never)
  private mutating func writeEscape(at start: UnsafeRawPointer, _ position: Int) -> Int {
    let byte = start.load(fromByteOffset: position, as: UInt8.self)
    if byte < 0x80 {
      if byte == 0 { noteUnreadable(0) }
      writeEscape(ascii: byte)
      return position &+ 1
    }
    let (scalar, length) = Self.decodeScalar(at: start + position, lead: byte)
    if UTF8Validation.isNoncharacter(scalar) { noteUnreadable(scalar) }
    if escapesUnicode {
      writeEscape(nonASCII: scalar)
    } else {
      // A lead byte of 0xEF or above, written as it is.
      append(start + position, count: length)
    }
    return position &+ length
  }

  /// The `count` bytes at `source` (fewer than eight) in the low bytes of a
  /// little-endian word, zeros above; no load reaches outside them.
  @inline(__always)
  private static func loadShort(_ source: UnsafeRawPointer, count: Int) -> UInt64 {
    if count >= 4 {
      let low = UInt64(source.loadUnaligned(as: UInt32.self).littleEndian)
      let high = UInt64(
        source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self).littleEndian)
      return UInt64(littleEndian: low | high << (8 &* UInt64(count &- 4)))
    }
    if count >= 2 {
      let low = UInt64(source.loadUnaligned(as: UInt16.self).littleEndian)
      let high = UInt64(
        source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self).littleEndian)
      return UInt64(littleEndian: low | high << (8 &* UInt64(count &- 2)))
    }
    return UInt64(littleEndian: UInt64(source.load(as: UInt8.self)))
  }

  @inline(never)
  private mutating func noteUnreadable(_ scalar: UInt32) {
    if unreadableScalar == nil { unreadableScalar = Unicode.Scalar(scalar) }
  }

  // MARK: - Finding bytes to escape

  /// The lane of the first byte of `bytes` (read as `Int8`, the first byte
  /// in lane 0) that needs an escape or may begin a noncharacter, or 16 when
  /// none does: the test of ``escapeHits(_:escapingSlashes:escapingNonASCII:)``,
  /// sixteen lanes at once with vector compares, exact in every lane.
  ///
  /// As `Int8`, control characters are 0...31 and the bytes from 0xEF up are
  /// -17...-1; every non-ASCII byte is negative.
  @inline(__always)
  static func firstEscapeLane(
    _ bytes: SIMD16<Int8>, escapingSlashes: Bool, escapingNonASCII: Bool
  ) -> Int {
    let quotes = SIMD16<Int8>(repeating: 0x22)
    let backslashes = SIMD16<Int8>(repeating: 0x5C)
    // With slashes allowed, search for a second copy of the quote instead.
    let slashes = SIMD16<Int8>(repeating: escapingSlashes ? 0x2F : 0x22)
    let spaces = SIMD16<Int8>(repeating: 0x20)
    let lowest = SIMD16<Int8>(repeating: escapingNonASCII ? -128 : -17)
    let special =
      (bytes .== quotes) .| (bytes .== backslashes) .| (bytes .== slashes)
      .| ((bytes .< spaces) .& (bytes .>= lowest))
    let halves = unsafeBitCast(special, to: SIMD2<UInt64>.self)
    if halves[0] != 0 { return halves[0].littleEndian.trailingZeroBitCount >> 3 }
    return 8 &+ halves[1].littleEndian.trailingZeroBitCount >> 3
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte lane of `word` (little-endian: the first
  /// byte in the low lane) whose byte needs an escape or may begin a
  /// noncharacter, and possibly of lanes above such a one; zero when no byte
  /// does.
  ///
  /// Each test below sets the high bit of a byte lane whose byte matches. A
  /// borrow can also set lanes above a true match, never below one, so the
  /// lowest set lane is always a true match.
  @inline(__always)
  static func escapeHits(_ word: UInt64, escapingSlashes: Bool, escapingNonASCII: Bool)
    -> UInt64
  {
    // With slashes allowed, search for a second copy of the quote instead.
    let slash = (escapingSlashes ? 0x2F : 0x22) &* ones
    let quote = 0x22 &* ones
    let backslash = 0x5C &* ones
    // Bytes from 0xEF up (or every non-ASCII byte) are those whose
    // complement is below 0x11 (or 0x80): the test for control characters,
    // on the complement.
    let high = (escapingNonASCII ? 0x80 : 0x11) &* ones
    let isControl = (word &- 0x20 &* ones) & ~word
    let isQuote = ((word ^ quote) &- ones) & ~(word ^ quote)
    let isBackslash = ((word ^ backslash) &- ones) & ~(word ^ backslash)
    let isSlash = ((word ^ slash) &- ones) & ~(word ^ slash)
    let isHigh = (~word &- high) & word
    return (isControl | isQuote | isBackslash | isSlash | isHigh) & highBits
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
