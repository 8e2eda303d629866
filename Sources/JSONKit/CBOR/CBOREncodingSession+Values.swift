import Foundation

/// Writing one value into a slot: scalars, the Foundation types CBOR has
/// tags for, arrays of numbers in one go, then anything `Encodable`.
extension CBOREncodingSession {
  /// Encodes `value` into `slot`.
  func encode<T: Encodable>(_ value: T, into slot: CBORSlot) throws {
    if T.self == String.self { return write(unsafeBitCast(value, to: String.self), into: slot) }
    if T.self == Int.self { return write(Int64(unsafeBitCast(value, to: Int.self)), into: slot) }
    if T.self == Double.self { return write(unsafeBitCast(value, to: Double.self), into: slot) }
    if T.self == Bool.self { return write(unsafeBitCast(value, to: Bool.self), into: slot) }
    if try encodeSpecial(value, into: slot) { return }
    if frameCount &- 1 > maxDepth || frameCount == 0 { try checkDepth(of: slot, value) }
    if let instance = sharedInstance(value) {
      guard let number = try meetShared(value, instance: instance, in: slot) else { return }
      return try encodeInstance(value, number: number, into: slot)
    }
    encodingType = T.self
    try value.encode(to: CBORSlotEncoder(session: self, slot: slot))
  }

  /// Encodes `value` as the member (or element) just begun in `slot`,
  /// which is taken out again if the value fails.
  func encode<T: Encodable>(_ value: T, intoMember slot: CBORSlot) throws {
    do {
      try encode(value, into: slot)
    } catch {
      discardMember(slot)
      throw error
    }
  }

  /// Encodes `value` through the single-value container of `slot`'s
  /// encoder: a value that fails leaves the slot as it was, and one that
  /// encodes nothing is an empty map, as Foundation writes `{}`.
  func encodeSingleValue<T: Encodable>(_ value: T, into slot: CBORSlot) throws {
    let wasUnwritten = isUnwritten(slot)
    let outerSingleValueSlot = singleValueSlot
    singleValueSlot = slot
    defer { singleValueSlot = outerSingleValueSlot }
    do {
      try encode(value, into: slot)
    } catch {
      if wasUnwritten { discardValue(of: slot) }
      throw error
    }
    writeEmptyMapUnlessWritten(slot)
  }

  // MARK: - Scalars

  @inline(never)
  func write(_ value: String, into slot: CBORSlot) {
    writeItem(into: slot) { $0.appendCBORText(value) }
  }

  @inline(never)
  func write(_ value: Bool, into slot: CBORSlot) {
    writeItem(into: slot, holdsNoStrings: true) { $0.append(value ? 0xF5 : 0xF4) }
  }

  @inline(never)
  func write(_ value: Double, into slot: CBORSlot) {
    writeItem(into: slot, holdsNoStrings: true) { $0.appendCBORFloat(value) }
  }

  @inline(never)
  func write(_ value: Int64, into slot: CBORSlot) {
    writeItem(into: slot, holdsNoStrings: true) { $0.appendCBORInteger(value) }
  }

  @inline(never)
  func write(_ value: UInt64, into slot: CBORSlot) {
    writeItem(into: slot, holdsNoStrings: true) { $0.appendCBORHead(major: 0, value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func write(_ value: Int128, into slot: CBORSlot) {
    writeItem(into: slot) { writer in
      if value >= 0 {
        writer.appendCBORWideInteger(negative: false, magnitude: UInt128(value))
      } else {
        writer.appendCBORWideInteger(negative: true, magnitude: UInt128(-1 - value))
      }
    }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func write(_ value: UInt128, into slot: CBORSlot) {
    writeItem(into: slot) { $0.appendCBORWideInteger(negative: false, magnitude: value) }
  }

  // MARK: - Foundation types and arrays of numbers

  /// Writes the types CBOR has its own items for; false for any other.
  @inline(never)
  private func encodeSpecial<T: Encodable>(_ value: T, into slot: CBORSlot) throws -> Bool {
    let types = CBORSpecialTypes.shared
    switch ObjectIdentifier(T.self) {
    case types.doubles:
      let array = unsafeBitCast(value, to: [Double].self)
      writeArray(array, into: slot) { $0.appendCBORFloat($1) }
    case types.doubleArrays:
      let array = unsafeBitCast(value, to: [[Double]].self)
      writeArray(array, levels: 2, into: slot) { writer, inner in
        writer.appendCBORHead(major: 4, UInt64(inner.count))
        for number in inner { writer.appendCBORFloat(number) }
      }
    case types.doubleArrayArrays:
      let array = unsafeBitCast(value, to: [[[Double]]].self)
      writeArray(array, levels: 3, into: slot) { writer, middle in
        writer.appendCBORHead(major: 4, UInt64(middle.count))
        for inner in middle {
          writer.appendCBORHead(major: 4, UInt64(inner.count))
          for number in inner { writer.appendCBORFloat(number) }
        }
      }
    case types.ints:
      let array = unsafeBitCast(value, to: [Int].self)
      writeArray(array, into: slot) { $0.appendCBORInteger(Int64($1)) }
    case types.bytes:
      let array = unsafeBitCast(value, to: [UInt8].self)
      writeArray(array, into: slot) { $0.appendCBORHead(major: 0, UInt64($1)) }
    case types.float:
      write(Double(unsafeBitCast(value, to: Float.self)), into: slot)
    case types.int64:
      write(unsafeBitCast(value, to: Int64.self), into: slot)
    case types.uint64:
      write(unsafeBitCast(value, to: UInt64.self), into: slot)
    case types.int32:
      write(Int64(unsafeBitCast(value, to: Int32.self)), into: slot)
    case types.uint:
      write(UInt64(unsafeBitCast(value, to: UInt.self)), into: slot)
    case types.date:
      write(unsafeBitCast(value, to: Date.self), into: slot)
    case types.data:
      let data = unsafeBitCast(value, to: Data.self)
      writeItem(into: slot) { writer in data.withUnsafeBytes { writer.appendCBORBytes($0) } }
    case types.uuid:
      let uuid = unsafeBitCast(value, to: UUID.self).uuid
      writeItem(into: slot) { writer in
        writer.appendCBORHead(major: 6, CBORTags.uuid)
        withUnsafeBytes(of: uuid) { writer.appendCBORBytes($0) }
      }
    case types.url:
      let text = unsafeBitCast(value, to: URL.self).absoluteString
      writeItem(into: slot) { writer in
        writer.appendCBORHead(major: 6, CBORTags.uri)
        writer.appendCBORText(text)
      }
    case types.decimal:
      try write(unsafeBitCast(value, to: Decimal.self), into: slot)
    default:
      return false
    }
    return true
  }

  /// Writes an array of numbers whose elements `write` writes whole,
  /// `levels` deep.
  private func writeArray<Element>(
    _ array: [Element], levels: Int = 1, into slot: CBORSlot,
    _ write: (inout ByteWriter, Element) -> Void
  ) {
    writeItem(into: slot, holdsNoStrings: true) { writer in
      writer.appendCBORHead(major: 4, UInt64(array.count))
      for element in array { write(&writer, element) }
    }
    if depth(ofContainer: slot.container) + levels > maxDepth { isTooDeep = true }
  }

  /// Tag 1: seconds since 1970, an integer when whole and within 64 bits.
  private func write(_ date: Date, into slot: CBORSlot) {
    let seconds = date.timeIntervalSince1970
    writeItem(into: slot, holdsNoStrings: true) { writer in
      writer.appendCBORHead(major: 6, CBORTags.epochTime)
      if seconds.rounded(.towardZero) == seconds, seconds >= -0x1p63, seconds < 0x1p63 {
        writer.appendCBORInteger(Int64(seconds))
      } else {
        writer.appendCBORFloat(seconds)
      }
    }
  }

  /// Tag 4: `[exponent, mantissa]`, the mantissa a bignum beyond 64 bits.
  private func write(_ decimal: Decimal, into slot: CBORSlot) throws {
    guard !decimal.isNaN else {
      throw EncodingError.invalidValue(
        decimal,
        EncodingError.Context(
          codingPath: codingPath(of: slot),
          debugDescription: "Unable to encode Decimal.nan directly in CBOR."))
    }
    var low: UInt64 = 0
    var high: UInt64 = 0
    let exponent: Int64
    let sign: FloatingPointSign
    if let parts = DecimalDescription.parts(of: decimal) {
      (low, high) = (parts.significand.low, parts.significand.high)
      exponent = Int64(parts.exponent)
      sign = parts.negative ? .minus : .plus
    } else {
      // The significand is the mantissa as an integer Decimal (exponent 0),
      // whose text is its digits: up to 39 of them, within 128 bits.
      for digit in decimal.significand.description.utf8 where digit >= 0x30 && digit <= 0x39 {
        let (carry, lowTimesTen) = low.multipliedFullWidth(by: 10)
        let (sum, overflow) = lowTimesTen.addingReportingOverflow(UInt64(digit - 0x30))
        low = sum
        high = high &* 10 &+ carry &+ (overflow ? 1 : 0)
      }
      exponent = Int64(decimal.exponent)
      sign = decimal.sign
    }
    let isNegative = sign == .minus && (low != 0 || high != 0)
    writeItem(into: slot) { writer in
      writer.appendCBORHead(major: 6, CBORTags.decimalFraction)
      writer.appendCBORHead(major: 4, 2)
      writer.appendCBORInteger(exponent)
      // −1 − n for a negative mantissa −m is m − 1.
      var (magnitudeLow, magnitudeHigh) = (low, high)
      if isNegative {
        let (difference, borrow) = low.subtractingReportingOverflow(1)
        magnitudeLow = difference
        if borrow { magnitudeHigh -= 1 }
      }
      if magnitudeHigh == 0 {
        writer.appendCBORHead(major: isNegative ? 1 : 0, magnitudeLow)
      } else {
        writer.appendCBORBignum(negative: isNegative, high: magnitudeHigh, low: magnitudeLow)
      }
    }
  }
}

extension ByteWriter {
  /// Writes an integer of up to 128 bits, `negative` meaning −1 − `magnitude`:
  /// a plain integer when the magnitude fits 64 bits, else a bignum.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func appendCBORWideInteger(negative: Bool, magnitude: UInt128) {
    let high = UInt64(truncatingIfNeeded: magnitude >> 64)
    let low = UInt64(truncatingIfNeeded: magnitude)
    if high == 0 {
      appendCBORHead(major: negative ? 1 : 0, low)
    } else {
      appendCBORBignum(negative: negative, high: high, low: low)
    }
  }

  /// Writes tag 2 (or 3, `negative`) on the big-endian bytes of the 128-bit
  /// magnitude `high`:`low`, without leading zeros.
  mutating func appendCBORBignum(negative: Bool, high: UInt64, low: UInt64) {
    appendCBORHead(major: 6, negative ? CBORTags.negativeBignum : CBORTags.positiveBignum)
    var bytes: [UInt8] = []
    for word in [high, low] {
      for shift in stride(from: 56, through: 0, by: -8) {
        let byte = UInt8(truncatingIfNeeded: word >> UInt64(shift))
        if bytes.isEmpty && byte == 0 { continue }
        bytes.append(byte)
      }
    }
    bytes.withUnsafeBytes { appendCBORBytes($0) }
  }
}

/// Dictionaries whose keys are written as CBOR integers: the standard
/// library encodes an `[Int: V]` through a keyed container whose keys hold
/// the integers, as it does the keys of a `[String: V]` that read as
/// integers, so the dictionary's type tells the two apart.
protocol CBORIntegerKeyedDictionary {}

extension Dictionary: CBORIntegerKeyedDictionary where Key == Int {}

/// Dictionaries whose keys a key strategy leaves as they are when they are
/// encoded as a value (not by calling their `encode(to:)`), as Foundation's
/// JSONEncoder does.
protocol CBORStringKeyedDictionary {}

extension Dictionary: CBORStringKeyedDictionary where Key == String {}

/// A value a container writes as one item, without Codable.
protocol CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession)
}

/// A signed integer, written as a major type 0 or 1 integer.
protocol CBORSignedScalar: CBORScalar, FixedWidthInteger, SignedInteger {}

/// An unsigned integer, written as a major type 0 integer.
protocol CBORUnsignedScalar: CBORScalar, FixedWidthInteger, UnsignedInteger {}

extension CBORSignedScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(Int64(self), into: slot)
  }
}

extension CBORUnsignedScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(UInt64(self), into: slot)
  }
}

extension Int: CBORSignedScalar {}
extension Int8: CBORSignedScalar {}
extension Int16: CBORSignedScalar {}
extension Int32: CBORSignedScalar {}
extension Int64: CBORSignedScalar {}

extension UInt: CBORUnsignedScalar {}
extension UInt8: CBORUnsignedScalar {}
extension UInt16: CBORUnsignedScalar {}
extension UInt32: CBORUnsignedScalar {}
extension UInt64: CBORUnsignedScalar {}

extension Bool: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(self, into: slot)
  }
}

extension String: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(self, into: slot)
  }
}

extension Double: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(self, into: slot)
  }
}

extension Float: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(Double(self), into: slot)
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(self, into: slot)
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: CBORScalar {
  func write(into slot: CBORSlot, of session: CBOREncodingSession) {
    session.write(self, into: slot)
  }
}

/// The identities of the types ``CBOREncodingSession`` writes itself, looked
/// up once: a metadata accessor per comparison would cost more than the
/// comparisons, for every value encoded.
struct CBORSpecialTypes: Sendable {
  static let shared = CBORSpecialTypes()

  let doubles = ObjectIdentifier([Double].self)
  let doubleArrays = ObjectIdentifier([[Double]].self)
  let doubleArrayArrays = ObjectIdentifier([[[Double]]].self)
  let ints = ObjectIdentifier([Int].self)
  let bytes = ObjectIdentifier([UInt8].self)
  let float = ObjectIdentifier(Float.self)
  let int64 = ObjectIdentifier(Int64.self)
  let uint64 = ObjectIdentifier(UInt64.self)
  let int32 = ObjectIdentifier(Int32.self)
  let uint = ObjectIdentifier(UInt.self)
  let date = ObjectIdentifier(Date.self)
  let data = ObjectIdentifier(Data.self)
  let uuid = ObjectIdentifier(UUID.self)
  let url = ObjectIdentifier(URL.self)
  let decimal = ObjectIdentifier(Decimal.self)
}
