// Numbers are written as Foundation's JSONEncoder writes them: integers in
// plain decimal, and binary floating-point values as the shortest decimal that
// reads back to the same value (Swift's `description`), without a trailing
// ".0": 1.0 is `1`, -0.0 is `-0`, 1e16 is `1e+16`, 1e-7 is `1e-07`.

extension ByteWriter {
  // MARK: - Integers

  /// Writes `value` in decimal.
  mutating func write(_ value: UInt64) {
    ensureCapacity(20)
    let digits = Self.decimalDigitCount(value)
    Self.storeDigits(of: value, count: digits, at: freeSpace)
    commit(digits)
  }

  /// Writes `value` in decimal, with a leading `-` when negative.
  mutating func write(_ value: Int64) {
    if value < 0 {
      append(UInt8(ascii: "-"))
    }
    write(value.magnitude)
  }

  /// Writes any standard integer of 64 bits or fewer in decimal.
  @inline(__always)
  mutating func write<T: FixedWidthInteger>(integer value: T) {
    if T.isSigned {
      write(Int64(value))
    } else {
      write(UInt64(value))
    }
  }

  /// Writes `value` in decimal.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func write(_ value: UInt128) {
    if let small = UInt64(exactly: value) {
      write(small)
      return
    }
    // Split into base-10^19 limbs: the largest UInt128 has 39 digits, so at
    // most one limb above the two low ones, and it fits a UInt64.
    let limb: UInt128 = 10_000_000_000_000_000_000
    let low = UInt64(value % limb)
    let rest = value / limb
    if let middle = UInt64(exactly: rest) {
      write(middle)
    } else {
      write(UInt64(rest / limb))
      writeNineteenDigits(UInt64(rest % limb))
    }
    writeNineteenDigits(low)
  }

  /// Writes `value` in decimal, with a leading `-` when negative.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func write(_ value: Int128) {
    if value < 0 {
      append(UInt8(ascii: "-"))
    }
    write(value.magnitude)
  }

  private mutating func writeNineteenDigits(_ value: UInt64) {
    ensureCapacity(19)
    Self.storeDigits(of: value, count: 19, at: freeSpace)
    commit(19)
  }

  /// The number of decimal digits of `value` (1 for zero).
  @inline(__always)
  static func decimalDigitCount(_ value: UInt64) -> Int {
    // `| 1` changes no digit count (every power of ten above 1 is even) and
    // makes zero count as one digit. 1233 / 4096 is just above log10(2), so
    // `guess` is the digit count or one less.
    let bits = 64 &- (value | 1).leadingZeroBitCount
    let guess = (bits &* 1233) >> 12
    return value | 1 >= powersOfTen[guess] ? guess &+ 1 : guess
  }

  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
    1_000_000_000, 10_000_000_000, 100_000_000_000, 1_000_000_000_000,
    10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
  ]

  /// Stores the low `count` decimal digits of `value`, zero-padded, at
  /// `destination`, two digits per division.
  @inline(__always)
  private static func storeDigits(
    of value: UInt64, count: Int, at destination: UnsafeMutableRawPointer
  ) {
    var value = value
    var end = count
    while end >= 2 {
      let pair = UInt8(truncatingIfNeeded: value % 100)
      value /= 100
      end &-= 2
      // pair / 10 for pair < 100, without a division.
      let tens = UInt8(truncatingIfNeeded: (UInt16(pair) &* 103) >> 10)
      destination.storeBytes(of: 0x30 &+ tens, toByteOffset: end, as: UInt8.self)
      destination.storeBytes(
        of: 0x30 &+ (pair &- tens &* 10), toByteOffset: end &+ 1, as: UInt8.self)
    }
    if end == 1 {
      destination.storeBytes(
        of: 0x30 &+ UInt8(truncatingIfNeeded: value % 10), toByteOffset: 0, as: UInt8.self)
    }
  }

  // MARK: - Floating point

  /// Writes a finite `Double` as `JSONEncoder` does. The caller rejects NaN
  /// and infinities first.
  mutating func writeFinite(_ value: Double) {
    ensureCapacity(ASCIISink.capacity)
    var sink = ASCIISink(destination: freeSpace)
    value.write(to: &sink)
    commit(sink.countWithoutTrailingPointZero)
  }

  /// Writes a finite `Float` as `JSONEncoder` does: the shortest decimal that
  /// reads back to the same `Float`.
  mutating func writeFinite(_ value: Float) {
    ensureCapacity(ASCIISink.capacity)
    var sink = ASCIISink(destination: freeSpace)
    value.write(to: &sink)
    commit(sink.countWithoutTrailingPointZero)
  }
}

/// Receives the text of a number straight into the writer's free space.
///
/// The standard library's floating-point types write their `description`
/// through `TextOutputStream._writeASCII` from a stack buffer, so taking the
/// text this way makes no `String`.
private struct ASCIISink: TextOutputStream {
  /// More than the longest `Double` or `Float` text,
  /// "-2.2250738585072014e-308" (24 bytes).
  static let capacity = 40

  let destination: UnsafeMutableRawPointer
  var count = 0

  init(destination: UnsafeMutableRawPointer) {
    self.destination = destination
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    store(UnsafeRawBufferPointer(buffer))
  }

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { store(UnsafeRawBufferPointer($0)) }
  }

  private mutating func store(_ bytes: UnsafeRawBufferPointer) {
    precondition(count + bytes.count <= Self.capacity, "number text longer than expected")
    if let source = bytes.baseAddress {
      (destination + count).copyMemory(from: source, byteCount: bytes.count)
    }
    count += bytes.count
  }

  /// The length of the text once a trailing ".0" is dropped.
  var countWithoutTrailingPointZero: Int {
    if count >= 2,
      destination.load(fromByteOffset: count - 2, as: UInt8.self) == UInt8(ascii: "."),
      destination.load(fromByteOffset: count - 1, as: UInt8.self) == UInt8(ascii: "0")
    {
      return count - 2
    }
    return count
  }
}
