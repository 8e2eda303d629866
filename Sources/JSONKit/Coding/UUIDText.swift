import Foundation

/// `UUID`'s text form read and written as Foundation does, without the
/// `String` that `UUID(uuidString:)` and `uuidString` go through.
///
/// Foundation writes 36 characters: the 16 bytes in uppercase hex, grouped
/// 8-4-4-4-12 and joined by hyphens. It reads with the C library's scanf,
/// format `%2hhx` four times, `-`, twice, `-`, twice, `-`, twice, `-`, six
/// times, then `%n`, and takes the text only when exactly 36 characters were
/// consumed and the next one ends the C string. So it takes more than the
/// form it writes, and JSON text can carry all of it:
///
/// - hex digits of either case;
/// - before a byte's digits, any run of C whitespace (space, tab, LF, VT,
///   FF, CR), outside the byte's width of 2 but inside the 36;
/// - a sign within the width, `-` negating modulo 256 (`-F` is 0xF1);
/// - a byte of one digit, where the next character cannot continue it;
/// - with glibc, `0x` or `0X` as a byte's whole text, read as 0 (BSD
///   libraries, Apple's among them, take only the `0`, so the `x` then
///   fails the next step);
/// - anything after a NUL that follows the 36th character, since the C
///   string ends at the NUL.
///
/// The canonical form takes a direct path; any other text is read by a
/// model of that scan, step by step.
enum UUIDText {
  /// The length of the text that ``write(_:to:)`` stores.
  static let length = 36

  /// The UUID that `UUID(uuidString:)` gives for these UTF-8 bytes, or nil
  /// where it gives nil.
  static func uuid(from bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard let text = bytes.baseAddress else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &uuid) { raw in
      let out = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
      return readCanonical(text, count: bytes.count, into: out)
        || readAsScanf(text, count: bytes.count, into: out)
    }
    return parsed ? UUID(uuid: uuid) : nil
  }

  /// Stores `uuid.uuidString`'s 36 UTF-8 bytes at `out`.
  static func write(_ uuid: UUID, to out: UnsafeMutablePointer<UInt8>) {
    withUnsafeBytes(of: uuid.uuid) { bytes in
      writeGroups(bytes.baseAddress.unsafelyUnwrapped, to: UnsafeMutableRawPointer(out))
    }
  }

  // MARK: - Writing

  /// Writes the 16 bytes at `bytes` as the canonical text at `out`, four
  /// bytes (eight digits) at a time.
  @inline(__always)
  private static func writeGroups(_ bytes: UnsafeRawPointer, to out: UnsafeMutableRawPointer) {
    let hyphen = UInt8(ascii: "-")
    let first = hexDigits(bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
    let second = hexDigits(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    let third = hexDigits(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
    let fourth = hexDigits(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    out.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt64.self)
    out.storeBytes(of: hyphen, toByteOffset: 8, as: UInt8.self)
    out.storeBytes(of: low(second).littleEndian, toByteOffset: 9, as: UInt32.self)
    out.storeBytes(of: hyphen, toByteOffset: 13, as: UInt8.self)
    out.storeBytes(of: high(second).littleEndian, toByteOffset: 14, as: UInt32.self)
    out.storeBytes(of: hyphen, toByteOffset: 18, as: UInt8.self)
    out.storeBytes(of: low(third).littleEndian, toByteOffset: 19, as: UInt32.self)
    out.storeBytes(of: hyphen, toByteOffset: 23, as: UInt8.self)
    out.storeBytes(of: high(third).littleEndian, toByteOffset: 24, as: UInt32.self)
    out.storeBytes(of: fourth.littleEndian, toByteOffset: 28, as: UInt64.self)
  }

  /// The eight uppercase hex digits of the four bytes `raw` holds in memory
  /// order, the first digit in the low byte: each byte's nibbles are spread
  /// to bytes of their own and turned to ASCII all at once.
  @inline(__always)
  private static func hexDigits(_ raw: UInt32) -> UInt64 {
    // Byte k to byte 2k.
    var spread = UInt64(raw.littleEndian)
    spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
    spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
    // Its high nibble stays at byte 2k, its low nibble goes to 2k + 1.
    let nibbles = (spread >> 4 | spread << 8) & 0x0F0F_0F0F_0F0F_0F0F
    // 0x01 in each byte whose nibble is 10 or more, a letter.
    let letters = ((nibbles &+ 0x7676_7676_7676_7676) & 0x8080_8080_8080_8080) >> 7
    return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 7
  }

  @inline(__always)
  private static func low(_ digits: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: digits) }

  @inline(__always)
  private static func high(_ digits: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: digits >> 32) }

  // MARK: - Reading the canonical form

  /// Reads 36 characters of 32 hex digits with hyphens at 8, 13, 18 and 23,
  /// ending the text or followed by a NUL: the form almost every UUID has.
  /// False for any other text, which the scanf model then reads.
  @inline(__always)
  private static func readCanonical(
    _ text: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    guard count == length || (count > length && text[length] == 0) else { return false }
    let hyphen = UInt8(ascii: "-")
    guard text[8] == hyphen, text[13] == hyphen, text[18] == hyphen, text[23] == hyphen else {
      return false
    }
    let raw = UnsafeRawPointer(text)
    guard let first = hexBytes(word(raw, 0)), let second = hexBytes(halves(raw, 9, 14)),
      let third = hexBytes(halves(raw, 19, 24)), let fourth = hexBytes(word(raw, 28))
    else { return false }
    let bytes = UnsafeMutableRawPointer(out)
    bytes.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt32.self)
    bytes.storeBytes(of: second.littleEndian, toByteOffset: 4, as: UInt32.self)
    bytes.storeBytes(of: third.littleEndian, toByteOffset: 8, as: UInt32.self)
    bytes.storeBytes(of: fourth.littleEndian, toByteOffset: 12, as: UInt32.self)
    return true
  }

  /// The eight bytes at `offset`, the first in the low byte.
  @inline(__always)
  private static func word(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
  }

  /// The four bytes at `low`, then the four at `high`, the first in the low
  /// byte: the digits on either side of a hyphen as one word.
  @inline(__always)
  private static func halves(_ raw: UnsafeRawPointer, _ low: Int, _ high: Int) -> UInt64 {
    UInt64(raw.loadUnaligned(fromByteOffset: low, as: UInt32.self).littleEndian)
      | UInt64(raw.loadUnaligned(fromByteOffset: high, as: UInt32.self).littleEndian) << 32
  }

  /// The four bytes that eight hex digits (the first in the low byte of
  /// `digits`) spell, the first in the low byte; nil when any of the eight
  /// is not a hex digit. All eight are checked and converted at once.
  @inline(__always)
  private static func hexBytes(_ digits: UInt64) -> UInt32? {
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let folded = digits | 0x2020_2020_2020_2020  // 'A'...'F' to 'a'...'f'
    let isDigit = atLeast(digits, 0x30) & ~atLeast(digits, 0x3A)
    let isLetter = atLeast(folded, 0x61) & ~atLeast(folded, 0x67)
    // Every byte ASCII, and each a digit or a letter.
    guard digits & highBits == 0, isDigit | isLetter == highBits else { return nil }
    // A letter's low nibble is 1...6, its value 10...15.
    let nibbles = (digits & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter >> 7) &* 9
    // Digit 2k is the high nibble of byte k, digit 2k + 1 the low one.
    var bytes = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
    bytes = (bytes | bytes >> 8) & 0x0000_FFFF_0000_FFFF
    bytes = (bytes | bytes >> 16) & 0xFFFF_FFFF
    return UInt32(truncatingIfNeeded: bytes)
  }

  /// The high bit of each byte of `bytes` (each below 0x80) that is `bound`
  /// or more: adding 0x80 - `bound` sets it exactly then, and never carries
  /// into the next byte.
  @inline(__always)
  private static func atLeast(_ bytes: UInt64, _ bound: UInt64) -> UInt64 {
    (bytes &+ (0x80 - bound) &* 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080
  }

  // MARK: - Reading as scanf does

  /// Reads `text` as Foundation's scanf format does: sixteen `%2hhx`
  /// fields with a literal hyphen after the 4th, 6th, 8th and 10th, then
  /// the check that 36 characters were consumed and the C string ends
  /// there. Kept out of line, so that the canonical path stays small.
  @inline(never)
  private static func readAsScanf(
    _ text: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    // The C string that scanf sees ends at the first NUL. Only whether it
    // ends right after the 36th character matters, so the search (and with
    // it the scan) stops one character later, however long the text.
    let limit = min(count, length + 1)
    var end = 0
    while end < limit, text[end] != 0 { end += 1 }
    var position = 0
    for index in 0..<16 {
      if index == 4 || index == 6 || index == 8 || index == 10 {
        guard position < end, text[position] == UInt8(ascii: "-") else { return false }
        position += 1
      }
      guard let byte = scanHexField(text, end: end, position: &position) else { return false }
      out[index] = byte
    }
    return position == length && end == length
  }

  /// One `%2hhx` field from `position`, which it moves past what it
  /// consumes: whitespace, then at most two characters of an optional sign
  /// and hex digits (or `0x`), the value taken modulo 256 and negated after
  /// a `-`. Nil where scanf's conversion fails.
  private static func scanHexField(
    _ text: UnsafePointer<UInt8>, end: Int, position: inout Int
  ) -> UInt8? {
    var at = position
    while at < end, isCSpace(text[at]) { at += 1 }
    var width = 2
    var negative = false
    var digits = 0
    var value: UInt8 = 0
    if at < end, text[at] == UInt8(ascii: "+") || text[at] == UInt8(ascii: "-") {
      negative = text[at] == UInt8(ascii: "-")
      at += 1
      width -= 1
    }
    if width > 0, at < end, text[at] == UInt8(ascii: "0") {
      at += 1
      width -= 1
      digits += 1
      if width > 0, at < end, text[at] | 0x20 == UInt8(ascii: "x") {
        #if canImport(Darwin)
          // BSD scanf gives the `x` back, and no later step can take it.
          return nil
        #else
          at += 1
          width -= 1
        #endif
      }
    }
    while width > 0, at < end, let digit = hexDigit(text[at]) {
      value = value &* 16 &+ digit
      at += 1
      width -= 1
      digits += 1
    }
    guard digits > 0 else { return nil }
    position = at
    return negative ? 0 &- value : value
  }

  /// Whether `byte` is white space to the C library in the "C" locale, the
  /// one a Swift process runs in unless it calls `setlocale`.
  @inline(__always)
  private static func isCSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
  }

  @inline(__always)
  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
