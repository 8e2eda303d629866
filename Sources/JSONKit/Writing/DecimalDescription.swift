import Foundation

/// `Decimal.description`'s bytes, written straight into a buffer.
///
/// `JSONEncoder` writes a Decimal as its `description`, so JSONKit writes
/// those bytes too, without the `String` that `description` allocates.
/// Foundation lays the text out positionally, never with an exponent:
///
/// - the significand's digits, then as many zeros as a positive exponent
///   says (`1e3` is `1000`);
/// - with a negative exponent a point inside the digits (`123.45`), or
///   `0.` and zeros before them (`0.00012`);
/// - `-` first when the sign bit is set, even on a zero significand (a
///   Decimal made from its fields may have one: `-0.000`);
/// - `NaN` for a length of 0 with the sign bit, `0` for a length of 0 without.
///
/// The significand is the 128-bit integer of its eight 16-bit words. A
/// Decimal whose length field says fewer words than are set, or more than
/// eight, can only be made from its fields, and Foundations write it
/// differently (swift-foundation reads all eight words whatever the length;
/// implementations before it read `length` words), so this leaves it to
/// `description`. `JSONEncoder` writes NaN as `NaN` too, though that is not
/// JSON.
enum DecimalDescription {
  /// The longest text: a sign, the 39 digits of the largest significand and
  /// the 127 zeros of the largest exponent.
  static let maxLength = 167

  /// Writes `value.description`'s bytes at `out`, which has room for
  /// `maxLength` bytes, and returns their count; or returns nil, having
  /// written nothing, for a Decimal whose text depends on the Foundation
  /// (see above) or whose fields cannot be read, which `description` then
  /// gives.
  static func write(_ value: Decimal, to out: UnsafeMutableRawPointer) -> Int? {
    guard let fields = DecimalFields(value) else { return nil }
    return write(fields, to: out)
  }

  /// Writes the text of a Decimal with these fields, as `write(_:to:)`.
  fileprivate static func write(_ fields: DecimalFields, to out: UnsafeMutableRawPointer) -> Int? {
    guard fields.length != 0 else {
      return fields.negative ? store("NaN", at: out) : store("0", at: out)
    }
    guard fields.wordsAgree else { return nil }
    var cursor = out
    if fields.negative {
      cursor.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
      cursor += 1
    }
    let digits = DecimalLimbs(fields.significand)
    let count = digits.count
    if fields.exponent >= 0 {
      // A whole number: the digits, then the exponent's zeros.
      digits.store(at: cursor)
      storeZeros(count: fields.exponent, at: cursor + count)
      cursor += count + fields.exponent
    } else if count + fields.exponent > 0 {
      // The point falls among the digits.
      let point = count + fields.exponent
      digits.store(at: cursor)
      insertPoint(at: cursor + point, before: count - point)
      cursor += count + 1
    } else {
      // A fraction below 1: "0.", zeros, then the digits.
      let zeros = -(count + fields.exponent)
      cursor.storeBytes(of: UInt8(ascii: "0"), as: UInt8.self)
      (cursor + 1).storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
      storeZeros(count: zeros, at: cursor + 2)
      digits.store(at: cursor + 2 + zeros)
      cursor += 2 + zeros + count
    }
    return cursor - out
  }

  /// A finite Decimal's sign bit, significand and power of ten, read from
  /// its fields as its text is; nil for NaN, and where `write(_:to:)` leaves
  /// the text to `description` (fields that disagree or cannot be read).
  static func parts(of value: Decimal) -> (
    negative: Bool, significand: UInt128Words, exponent: Int
  )? {
    guard let fields = DecimalFields(value), !(fields.length == 0 && fields.negative),
      fields.wordsAgree
    else { return nil }
    return (fields.negative, fields.significand, fields.exponent)
  }

  /// Stores `text` at `out` and returns its length.
  private static func store(_ text: StaticString, at out: UnsafeMutableRawPointer) -> Int {
    out.copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
    return text.utf8CodeUnitCount
  }

  /// Stores `count` ASCII zeros at `out`.
  private static func storeZeros(count: Int, at out: UnsafeMutableRawPointer) {
    out.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "0"), count: count)
  }

  /// Moves the `tail` digits at `out` one byte on and puts a point before
  /// them.
  private static func insertPoint(at out: UnsafeMutableRawPointer, before tail: Int) {
    // `copyMemory` allows the two ranges to overlap.
    (out + 1).copyMemory(from: out, byteCount: tail)
    out.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
  }
}

/// The fields of a Decimal that its text depends on.
private struct DecimalFields {
  /// The power of ten, -128 through 127.
  var exponent: Int
  /// How many of the significand's 16-bit words are in use, 0 through 15
  /// (only up to 8 are meaningful).
  var length: Int
  /// The sign bit.
  var negative: Bool
  /// The eight 16-bit words, least significant first, as one integer.
  var significand: UInt128Words
}

extension DecimalFields {
  /// Whether the length field says how many words are in use: at most
  /// eight, and none set above them. Only a Decimal made from its fields
  /// can break this, and Foundations read such a one differently.
  var wordsAgree: Bool {
    length <= 8 && significand.isZero(fromBit: 16 * length)
  }

  #if canImport(Darwin)
    /// Apple's Foundation makes the fields public.
    init?(_ value: Decimal) {
      let words = value._mantissa
      self.init(
        exponent: Int(value._exponent), length: Int(value._length),
        negative: value._isNegative != 0,
        significand: UInt128Words(
          words.0, words.1, words.2, words.3, words.4, words.5, words.6, words.7))
    }
  #else
    /// swift-foundation keeps the fields internal, so they are read from its
    /// storage, whose layout is checked once against `description`.
    init?(_ value: Decimal) {
      guard Self.storageIsKnown else { return nil }
      guard let fields = withUnsafeBytes(of: value, { Self(storage: $0) }) else { return nil }
      self = fields
    }

    /// Reads swift-foundation's storage of a Decimal: a byte of exponent; a
    /// byte of length (high four bits), sign (bit 3), compact flag (bit 2)
    /// and reserved bits; two reserved bytes; the eight 16-bit words of the
    /// significand.
    private init?(storage: UnsafeRawBufferPointer) {
      guard storage.count >= 20 else { return nil }
      func word(_ index: Int) -> UInt16 {
        storage.loadUnaligned(fromByteOffset: 4 + 2 * index, as: UInt16.self)
      }
      let flags = storage[1]
      self.init(
        exponent: Int(Int8(bitPattern: storage[0])), length: Int(flags >> 4),
        negative: flags & 0b1000 != 0,
        significand: UInt128Words(
          word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7)))
    }

    /// Whether values of every shape, read from their storage, are written
    /// as their `description`: the storage is internal to swift-foundation
    /// and could change.
    private static let storageIsKnown: Bool = {
      let samples = [
        Decimal(string: "-123.45"), Decimal(string: "65536e5"), Decimal(string: "0.001"),
        Decimal(string: "340282366920938463463374607431768211455e-100"), Decimal.nan,
      ]
      var text = [UInt8](repeating: 0, count: DecimalDescription.maxLength)
      return samples.allSatisfy { sample in
        guard let sample, MemoryLayout.size(ofValue: sample) == 20,
          let fields = withUnsafeBytes(of: sample, { Self(storage: $0) })
        else { return false }
        let count = text.withUnsafeMutableBytes {
          DecimalDescription.write(fields, to: $0.baseAddress!)
        }
        return count.map { String(decoding: text[..<$0], as: UTF8.self) } == sample.description
      }
    }()
  #endif
}

extension UInt128Words {
  /// The integer whose 16-bit words, least significant first, are these.
  fileprivate init(
    _ word0: UInt16, _ word1: UInt16, _ word2: UInt16, _ word3: UInt16,
    _ word4: UInt16, _ word5: UInt16, _ word6: UInt16, _ word7: UInt16
  ) {
    self.init(
      high: UInt64(word4) | UInt64(word5) << 16 | UInt64(word6) << 32 | UInt64(word7) << 48,
      low: UInt64(word0) | UInt64(word1) << 16 | UInt64(word2) << 32 | UInt64(word3) << 48)
  }

  /// Whether every bit from `bit` (a multiple of 16 up to 128) up is clear.
  fileprivate func isZero(fromBit bit: Int) -> Bool {
    if bit >= 128 { return true }
    if bit >= 64 { return high >> (bit - 64) == 0 }
    return high == 0 && low >> bit == 0
  }
}

/// The decimal digits of a significand as base-10^19 limbs: a leading limb
/// of 1 to 19 digits (a zero significand is the one digit 0), then up to two
/// of exactly 19, as 2^128 has 39 digits.
private struct DecimalLimbs {
  private static let base: UInt64 = 10_000_000_000_000_000_000

  private var leading: UInt64
  private var leadingCount: Int
  private var middle: UInt64 = 0
  private var trailing: UInt64 = 0
  /// How many limbs of 19 digits follow the leading one.
  private var fullLimbs = 0

  /// The number of digits.
  var count: Int { leadingCount + 19 * fullLimbs }

  init(_ value: UInt128Words) {
    let base = Self.base
    if value.high == 0, value.low < base {
      leading = value.low
    } else {
      // value = quotient × 10^19 + trailing, in two 128-by-64-bit steps;
      // each step's high word is below the divisor, as dividing needs.
      let (highQuotient, highRemainder) = value.high.quotientAndRemainder(dividingBy: base)
      let (lowQuotient, remainder) = base.dividingFullWidth((highRemainder, value.low))
      trailing = remainder
      if highQuotient == 0, lowQuotient < base {
        leading = lowQuotient
        fullLimbs = 1
      } else {
        (leading, middle) = base.dividingFullWidth((highQuotient, lowQuotient))
        fullLimbs = 2
      }
    }
    leadingCount = ByteWriter.decimalDigitCount(leading)
  }

  /// Stores the digits at `out`.
  func store(at out: UnsafeMutableRawPointer) {
    ByteWriter.storeDigits(of: leading, count: leadingCount, at: out)
    if fullLimbs == 2 {
      ByteWriter.storeDigits(of: middle, count: 19, at: out + leadingCount)
    }
    if fullLimbs > 0 {
      ByteWriter.storeDigits(of: trailing, count: 19, at: out + count - 19)
    }
  }
}
