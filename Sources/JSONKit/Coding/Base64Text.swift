import Foundation

/// Base64 text read and written as `Data(base64Encoded:)` and
/// `base64EncodedString()` do, straight between bytes, without a `String`.
///
/// Foundation writes the standard alphabet (`+` and `/`), padded with `=` to
/// a multiple of 4, on one line. It reads (with no options) more loosely
/// than it writes, and the reader keeps each of its rules:
///
/// - empty text is empty data;
/// - text of `=` only is one zero byte when there are at least 4 of them,
///   else invalid;
/// - otherwise the text up to its last character that is not `=` is taken
///   in groups of 4, the last group filled out with the `=` that follow; it
///   is invalid when fewer follow than that needs, and any further `=` are
///   ignored (`QQ` is invalid, `QQ==` and `QQ=====` are "A");
/// - every character of the groups must be in the standard alphabet, but
///   the last group's 3rd and 4th may each be `=`; each that is not adds
///   one byte, read as though any `=` before it were `A` (`QQ=A` is
///   0x41 0x00), and the bits that no byte holds are ignored (`QR==` is
///   "A");
/// - anything else, white space, the URL-safe `-` and `_`, and non-ASCII
///   bytes among it, makes the text invalid.
enum Base64Text {
  /// The bytes `Data(base64Encoded: string)` (no options) gives for these
  /// UTF-8 bytes, or nil where it gives nil.
  ///
  /// `table` is ``decodeTable``, fetched once by a caller that decodes many
  /// values (each fetch of a lazily made static costs a call).
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, table: DecodeTable = decodeTable)
    -> Data?
  {
    guard let text = bytes.baseAddress, bytes.count > 0 else { return Data() }
    guard let layout = DecodeLayout(text, count: bytes.count) else { return nil }
    if layout.groups == 0 { return Data([0]) }
    return decode(text, layout: layout, table: table.entries)
  }

  /// The most bytes `encode` stores for `count` input bytes, or nil when
  /// that is not an `Int` (or `count` is negative).
  static func maxEncodedLength(_ count: Int, escapingSlashes: Bool) -> Int? {
    guard count >= 0 else { return nil }
    let whole = count / 3
    let rest = count % 3
    if !escapingSlashes {
      let groups = whole + (rest == 0 ? 0 : 1)
      let (length, overflow) = groups.multipliedReportingOverflow(by: 4)
      return overflow ? nil : length
    }
    // A whole group can be `////` (escaped, 8 bytes); a last group of one
    // byte holds at most one `/` (`/w==`), of two bytes at most two (`//8=`).
    let (wholeLength, overflow) = whole.multipliedReportingOverflow(by: 8)
    let (length, overflowAgain) = wholeLength.addingReportingOverflow(rest == 0 ? 0 : rest + 4)
    return overflow || overflowAgain ? nil : length
  }

  /// Stores `Data.base64EncodedString()`'s bytes for `bytes` at `out` and
  /// returns how many; with `escapingSlashes`, each "/" is written as "\/"
  /// (JSONEncoder escapes "/" inside JSON strings unless told not to).
  ///
  /// `out` must have room for ``maxEncodedLength(_:escapingSlashes:)``
  /// bytes.
  static func encode(
    _ bytes: UnsafeRawBufferPointer, escapingSlashes: Bool, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    guard let input = bytes.baseAddress, bytes.count > 0 else { return 0 }
    return encodePairs.withUnsafeBufferPointer { pairs in
      encode(
        input.assumingMemoryBound(to: UInt8.self), count: bytes.count,
        pairs: pairs.baseAddress.unsafelyUnwrapped, escapingSlashes: escapingSlashes, to: out)
    }
  }

  // MARK: - Tables

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Bit set in every decode table entry of a byte outside the alphabet; the
  /// OR of a group's four entries has it when any of them is.
  private static let invalid: UInt32 = 1 << 24

  /// Four tables of 256 entries, one for each position in a group: the
  /// entry of a character is its 6 bits already shifted to where they go
  /// among the group's 3 output bytes, byte `k` in bits `8k..<8k+8`, so a
  /// group's bytes are the OR of four loads.
  static let decodeTable = DecodeTable()

  /// ``decodeTable``'s entries, made once and never freed, so that a
  /// caller can hold them across many values; nothing writes them after they
  /// are made, so any thread may read them.
  struct DecodeTable: @unchecked Sendable {
    let entries: UnsafePointer<UInt32>

    fileprivate init() {
      let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 1024)
      table.initialize(repeating: invalid, count: 1024)
      for (index, character) in alphabet.enumerated() {
        let bits = UInt32(index)
        let entry = Int(character)
        table[entry] = bits << 2
        table[256 + entry] = bits >> 4 | (bits & 0xF) << 12
        table[512 + entry] = (bits >> 2) << 8 | (bits & 0x3) << 22
        table[768 + entry] = bits << 16
      }
      entries = UnsafePointer(table)
    }
  }

  /// The two characters of every 12-bit value, the first in the low half:
  /// three input bytes are two loads and two stores.
  private static let encodePairs: [UInt16] = (0..<4096).map { value in
    UInt16(alphabet[value >> 6]) | UInt16(alphabet[value & 0x3F]) << 8
  }

  // MARK: - Decoding

  /// How Foundation's reader divides the text: how many groups of 4 it
  /// reads, and which of the last group's 3rd and 4th characters count.
  private struct DecodeLayout {
    /// Groups read; 0 for text of `=` only, which reads as one zero byte.
    let groups: Int
    let lastHasThird: Bool
    let lastHasFourth: Bool

    /// The bytes the text decodes to.
    var outputCount: Int {
      groups == 0 ? 1 : (groups - 1) * 3 + 1 + (lastHasThird ? 1 : 0) + (lastHasFourth ? 1 : 0)
    }

    /// Nil for text whose length and padding Foundation rejects.
    init?(_ text: UnsafePointer<UInt8>, count: Int) {
      let pad = UInt8(ascii: "=")
      var end = count
      while end > 0, text[end - 1] == pad { end -= 1 }
      guard end > 0 else {
        guard count >= 4 else { return nil }
        (groups, lastHasThird, lastHasFourth) = (0, false, false)
        return
      }
      // The groups must fit in the text, with the `=` that follow `end`.
      groups = (end - 1) / 4 + 1
      guard groups <= count / 4 else { return nil }
      let last = (groups - 1) * 4
      lastHasThird = text[last + 2] != pad
      lastHasFourth = text[last + 3] != pad
    }
  }

  /// Decodes text that `layout` fits into new `Data`, or nil at a character
  /// outside the alphabet.
  ///
  /// Short output goes through the stack: `Data` copies up to 14 bytes into
  /// itself anyway, and for a few dozen bytes a copy costs less than handing
  /// it a `malloc` block. Longer output is decoded into the memory that the
  /// `Data` then owns, never zeroed or copied.
  private static func decode(
    _ text: UnsafePointer<UInt8>, layout: DecodeLayout, table: UnsafePointer<UInt32>
  ) -> Data? {
    let count = layout.outputCount
    if count <= shortOutput {
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: shortOutput + 1) { buffer in
        let out = buffer.baseAddress.unsafelyUnwrapped
        guard decodeGroups(text, layout: layout, table: table, to: out) else { return nil }
        return Data(bytes: out, count: count)
      }
    }
    guard let memory = malloc(count + 1) else { return nil }  // out of memory
    let out = memory.assumingMemoryBound(to: UInt8.self)
    guard decodeGroups(text, layout: layout, table: table, to: out) else {
      free(memory)
      return nil
    }
    return Data(bytesNoCopy: memory, count: count, deallocator: .free)
  }

  /// The most output decoded on the stack.
  private static let shortOutput = 64

  /// Decodes every group into `out`, which has room for one byte more than
  /// the output; false at a character outside the alphabet.
  @inline(__always)
  private static func decodeGroups(
    _ text: UnsafePointer<UInt8>, layout: DecodeLayout, table: UnsafePointer<UInt32>,
    to out: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    let raw = UnsafeMutableRawPointer(out)
    let whole = layout.groups - 1
    var seen: UInt32 = 0
    var group = 0
    // Two groups store 8 bytes for their 6, and one group 4 for its 3; the
    // bytes past them are the next group's, or the last group's first
    // (which it stores byte by byte, and always has), or the byte of room.
    while group &+ 1 < whole {
      let chars = text + group &* 4
      let first = groupBits(chars[0], chars[1], chars[2], chars[3], table: table)
      let second = groupBits(chars[4], chars[5], chars[6], chars[7], table: table)
      seen |= first | second
      let bytes = UInt64(first) | UInt64(second) << 24
      raw.storeBytes(of: bytes.littleEndian, toByteOffset: group &* 3, as: UInt64.self)
      group &+= 2
    }
    if group < whole {
      let chars = text + group &* 4
      let bytes = groupBits(chars[0], chars[1], chars[2], chars[3], table: table)
      seen |= bytes
      raw.storeBytes(of: bytes.littleEndian, toByteOffset: group &* 3, as: UInt32.self)
    }
    let pad = UInt8(ascii: "A")  // an `=` in the last group reads as `A`, 0 bits
    let chars = text + whole &* 4
    let third = layout.lastHasThird ? chars[2] : pad
    let fourth = layout.lastHasFourth ? chars[3] : pad
    let bytes = groupBits(chars[0], chars[1], third, fourth, table: table)
    seen |= bytes
    var at = whole &* 3
    out[at] = UInt8(truncatingIfNeeded: bytes)
    at += 1
    if layout.lastHasThird {
      out[at] = UInt8(truncatingIfNeeded: bytes >> 8)
      at += 1
    }
    if layout.lastHasFourth { out[at] = UInt8(truncatingIfNeeded: bytes >> 16) }
    return seen & invalid == 0
  }

  /// A group's three bytes in the low 24 bits, and ``invalid`` set when any
  /// of its four characters is outside the alphabet.
  @inline(__always)
  private static func groupBits(
    _ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8,
    table: UnsafePointer<UInt32>
  ) -> UInt32 {
    table[Int(first)] | table[256 &+ Int(second)] | table[512 &+ Int(third)]
      | table[768 &+ Int(fourth)]
  }

  // MARK: - Encoding

  /// Encodes `count` bytes at `input` (at least 1) to `out`, padded, and
  /// returns the length.
  ///
  /// Six input bytes make eight characters, stored as one word; when
  /// escaping, a word is checked for `/` (one in eight words of random data
  /// has one) and only such a word is written character by character.
  @inline(__always)
  private static func encode(
    _ input: UnsafePointer<UInt8>, count: Int, pairs: UnsafePointer<UInt16>,
    escapingSlashes: Bool, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let source = UnsafeRawPointer(input)
    var from = 0
    var to = 0
    // Loads 8 bytes and uses 6 of them.
    while count - from >= 8 {
      let bits = source.loadUnaligned(fromByteOffset: from, as: UInt64.self).bigEndian
      let chars =
        UInt64(pairs[Int(bits >> 52)]) | UInt64(pairs[Int(bits >> 40 & 0xFFF)]) << 16
        | UInt64(pairs[Int(bits >> 28 & 0xFFF)]) << 32
        | UInt64(pairs[Int(bits >> 16 & 0xFFF)]) << 48
      to = store(chars, count: 8, escapingSlashes: escapingSlashes, at: to, in: out)
      from += 6
    }
    while count - from >= 3 {
      let bits = UInt32(input[from]) << 16 | UInt32(input[from + 1]) << 8 | UInt32(input[from + 2])
      let chars = UInt64(pairs[Int(bits >> 12)]) | UInt64(pairs[Int(bits & 0xFFF)]) << 16
      to = store(chars, count: 4, escapingSlashes: escapingSlashes, at: to, in: out)
      from += 3
    }
    let rest = count - from
    guard rest > 0 else { return to }
    let first = UInt32(input[from]) << 16
    let bits = rest == 2 ? first | UInt32(input[from + 1]) << 8 : first
    let pad = UInt64(UInt8(ascii: "="))
    let third = rest == 2 ? UInt64(pairs[Int(bits & 0xFFF)] & 0xFF) : pad
    let chars = UInt64(pairs[Int(bits >> 12)]) | third << 16 | pad << 24
    return store(chars, count: 4, escapingSlashes: escapingSlashes, at: to, in: out)
  }

  /// Stores the `count` (4 or 8) characters of `chars`, the first in the low
  /// byte, at `out + to`, each `/` as `\/` when escaping, and returns where
  /// the next characters go.
  @inline(__always)
  private static func store(
    _ chars: UInt64, count: Int, escapingSlashes: Bool, at to: Int,
    in out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    if !escapingSlashes || !hasSlash(chars) {
      let raw = UnsafeMutableRawPointer(out)
      if count == 8 {
        raw.storeBytes(of: chars.littleEndian, toByteOffset: to, as: UInt64.self)
      } else {
        raw.storeBytes(
          of: UInt32(truncatingIfNeeded: chars).littleEndian, toByteOffset: to, as: UInt32.self)
      }
      return to + count
    }
    // Without branches: a backslash is stored before every character and
    // kept (by moving past it) only before a slash.
    var at = to
    for index in 0..<count {
      let char = UInt8(truncatingIfNeeded: chars >> (8 &* index))
      out[at] = UInt8(ascii: "\\")
      at &+= char == UInt8(ascii: "/") ? 1 : 0
      out[at] = char
      at &+= 1
    }
    return at
  }

  /// Whether any byte of `chars` is `/`: a byte of the XOR with slashes is
  /// zero exactly there, and the subtraction borrows into its high bit.
  @inline(__always)
  private static func hasSlash(_ chars: UInt64) -> Bool {
    let bytes = chars ^ 0x2F2F_2F2F_2F2F_2F2F
    return (bytes &- 0x0101_0101_0101_0101) & ~bytes & 0x8080_8080_8080_8080 != 0
  }
}
