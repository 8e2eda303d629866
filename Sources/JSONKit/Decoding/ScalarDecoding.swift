import Foundation

/// Reading one scalar tape value as a Swift type: exact conversions or an
/// error.
extension DecodingSession {
  @inline(__always)
  func bool(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    switch entries[index].kind {
    case .true: return true
    case .false: return false
    case let kind: throw DecodingErrors.notBool(found: found(kind), path: path())
    }
  }

  @inline(__always)
  func string(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
    let entry = entries[index]
    guard entry.kind == .string else {
      throw DecodingErrors.typeMismatch(String.self, found: found(entry.kind), path: path())
    }
    return string(entry)
  }

  /// Any integer type, from any JSON number that it holds exactly.
  @inline(__always)
  func integer<T: FixedWidthInteger>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    let entry = entries[index]
    switch entry.kind {
    case .int:
      if let value = T(exactly: Int64(bitPattern: entry.payload)) { return value }
    case .uint:
      if let value = T(exactly: entry.payload) { return value }
    case .double:
      // The literal's own digits decide, not its nearest Double: that rounds
      // `1.00000000000000001` to an integer, and from 2^53 on need not be
      // the integer written (`9007199254740993.0`).
      if let integer = exactInteger(T.self, entry) { return integer }
    case .bigInteger:
      if let value = wideInteger(T.self, entry) { return value }
    case .bytes where entry.flags & (TapeEntry.positiveBignum | TapeEntry.negativeBignum) != 0:
      if let value = bignum(T.self, entry) { return value }
    case let kind:
      throw DecodingErrors.typeMismatch(T.self, found: found(kind), path: path())
    }
    throw DecodingErrors.corrupted(
      "Number \(numberText(entry)) does not fit in \(T.self).", path: path())
  }

  /// The integer a literal beyond 64 bits spells, if `T` holds it; out of
  /// line, as such literals are rare.
  @inline(never)
  private func wideInteger<T: FixedWidthInteger>(_ type: T.Type, _ entry: TapeEntry) -> T? {
    withJSONNumberBytes(entry) { IntegerText.parse(T.self, $0) }
  }

  /// The integer a number entry with a fraction or exponent spells, if `T`
  /// holds it; out of line, as integers are rarely written so.
  @inline(never)
  private func exactInteger<T: FixedWidthInteger>(_ type: T.Type, _ entry: TapeEntry) -> T? {
    if options.binaryTape { return T(exactly: Double(bitPattern: entry.payload)) }
    return withJSONNumberBytes(entry) { IntegerText.parseExact(T.self, $0) }
  }

  /// The integer a bignum's bytes stand for (big-endian n, or −1 − n), if
  /// `T` holds it.
  @inline(never)
  private func bignum<T: FixedWidthInteger>(_ type: T.Type, _ entry: TapeEntry) -> T? {
    var magnitude: T = 0
    for byte in tape.stringBytes(entry) {
      guard magnitude <= T.max >> 8, let low = T(exactly: byte) else { return nil }
      magnitude = magnitude << 8 | low
    }
    guard entry.flags & TapeEntry.negativeBignum != 0 else { return magnitude }
    // −1 − n, which a signed type holds whenever it holds n.
    return T.isSigned ? -1 - magnitude : nil
  }

  /// A Double: the correctly rounded value of any JSON number, or a string
  /// named by the non-conforming float strategy.
  @inline(__always)
  func double(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Double {
    let entry = entries[index]
    switch entry.kind {
    case .double: return Double(bitPattern: entry.payload)
    case .int:
      if entry.flags != 0 { return try json5Integer(Double.self, entry, path: path()) }
      return Double(Int64(bitPattern: entry.payload))
    case .uint:
      if entry.flags != 0 { return try json5Integer(Double.self, entry, path: path()) }
      return Double(entry.payload)
    case .bigInteger:
      throw integerBeyond64Bits(entry, path: path())
    case .string:
      if let value = nonConformingFloat(entry) { return value }
      throw DecodingErrors.typeMismatch(Double.self, found: .string, path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Double.self, found: found(kind), path: path())
    }
  }

  /// A Float: the literal rounded to the nearest Float, which must be finite and,
  /// unless the literal is zero, nonzero (as Foundation requires).
  @inline(__always)
  func float(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Float {
    let entry = entries[index]
    if entry.kind == .double {
      let value = Double(bitPattern: entry.payload)
      let narrowed = Float(value)
      if FloatNarrowing.roundsOnce(value), narrowed.isFinite { return narrowed }
    }
    return try float(entry, path: path())
  }

  /// Every Float but the common case: integers, Doubles that may round twice,
  /// strings for the non-conforming float strategy, and errors.
  @inline(never)
  private func float(_ entry: TapeEntry, path: @autoclosure () -> [any CodingKey]) throws -> Float {
    switch entry.kind {
    case .double:
      let value = Double(bitPattern: entry.payload)
      // Only JSON5's Infinity and NaN are not finite; they stay what they are.
      if !value.isFinite { return Float(value) }
      if options.binaryTape {
        // No literal: the value itself, rounded once.
        let narrowed = Float(value)
        if narrowed.isFinite { return narrowed }
        break
      }
      let narrowed = withJSONNumberBytes(entry) { FloatNarrowing.nearest(value, literal: $0) }
      if let narrowed { return narrowed }
    // Integers round once, straight to Float.
    case .int:
      if entry.flags != 0 { return try json5Integer(Float.self, entry, path: path()) }
      return Float(Int64(bitPattern: entry.payload))
    case .uint:
      if entry.flags != 0 { return try json5Integer(Float.self, entry, path: path()) }
      return Float(entry.payload)
    case .bigInteger:
      throw integerBeyond64Bits(entry, path: path())
    case .string:
      if let value = nonConformingFloat(entry) { return Float(value) }
      throw DecodingErrors.typeMismatch(Float.self, found: .string, path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Float.self, found: found(kind), path: path())
    }
    throw DecodingErrors.corrupted(
      "Number \(numberText(entry)) does not fit in Float.", path: path())
  }

  /// A JSON5 integer as a floating-point type: rounded when written in
  /// decimals (`+5`), but exact or an error when hexadecimal, as Foundation
  /// reads `0x…`.
  @inline(never)
  private func json5Integer<T: BinaryFloatingPoint>(
    _ type: T.Type, _ entry: TapeEntry, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    let hexadecimal = JSON5NumberText.isHexadecimal(numberBytes(entry))
    let value: T? =
      entry.kind == .int
      ? (hexadecimal
        ? T(exactly: Int64(bitPattern: entry.payload)) : T(Int64(bitPattern: entry.payload)))
      : (hexadecimal ? T(exactly: entry.payload) : T(entry.payload))
    guard let value else {
      throw DecodingErrors.corrupted(
        "Number \(numberText(entry)) cannot be held exactly by \(T.self).", path: path())
    }
    return value
  }

  /// The error for an integer literal beyond 64 bits read as anything but a
  /// type that holds it exactly (`Int128`, `UInt128`, `Decimal`): JSONKit's
  /// number rule, which Foundation does not have (it rounds such a literal
  /// to the nearest Double without a word).
  @inline(never)
  func integerBeyond64Bits(_ entry: TapeEntry, path: [any CodingKey]) -> DecodingError {
    DecodingErrors.corrupted(
      "Number \(numberText(entry)) is an integer that does not fit in 64 bits; only Int128, "
        + "UInt128 and Decimal hold it exactly.", path: path)
  }

  private func nonConformingFloat(_ entry: TapeEntry) -> Double? {
    guard
      case .convertFromString(let positive, let negative, let nan) =
        options.nonConformingFloatDecodingStrategy
    else { return nil }
    let text = string(entry)
    if text == positive { return .infinity }
    if text == negative { return -.infinity }
    if text == nan { return .nan }
    return nil
  }

  /// A Decimal holding every digit of the number as written, or an error
  /// when it cannot (more than 38 significant digits, or an exponent beyond
  /// Decimal's range).
  func decimal(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Decimal {
    let entry = entries[index]
    if options.binaryTape { return try binaryDecimal(at: index, path: path()) }
    switch entry.kind {
    case .int, .uint, .double, .bigInteger:
      // Hexadecimal integers have no decimal text; Infinity and NaN no Decimal.
      if entry.flags != 0, entry.kind == .int || entry.kind == .uint,
        JSON5NumberText.isHexadecimal(numberBytes(entry))
      {
        return entry.kind == .int
          ? Decimal(Int64(bitPattern: entry.payload)) : Decimal(entry.payload)
      }
      if let value = withJSONNumberBytes(entry, { DecimalText.exact($0) }) { return value }
      throw DecodingErrors.corrupted(
        "Number \(numberText(entry)) cannot be held exactly by Decimal.", path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Decimal.self, found: found(kind), path: path())
    }
  }

  /// A Decimal from a binary tape: an integer; a float by its shortest
  /// round-tripping digits (what it prints as); a decimal fraction
  /// `[exponent, mantissa]` exactly. An error when Decimal cannot hold every
  /// digit.
  @inline(never)
  private func binaryDecimal(
    at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> Decimal {
    let entry = entries[index]
    let text: String
    switch entry.kind {
    case .int: return Decimal(Int64(bitPattern: entry.payload))
    case .uint: return Decimal(entry.payload)
    case .double:
      let value = Double(bitPattern: entry.payload)
      guard value.isFinite else {
        throw DecodingErrors.corrupted(
          "Number \(value) cannot be held exactly by Decimal.", path: path())
      }
      text = "\(value)"
    case .array where entry.flags & TapeEntry.decimalFraction != 0:
      let exponent = Int64(bitPattern: entries[index + 1].payload)
      let mantissa = entries[index + 2]
      if mantissa.kind == .int || mantissa.kind == .uint {
        let negative = mantissa.kind == .int && Int64(bitPattern: mantissa.payload) < 0
        let magnitude =
          mantissa.kind == .int ? Int64(bitPattern: mantissa.payload).magnitude : mantissa.payload
        if let value = DecimalText.exact(
          magnitude: magnitude, exponent: exponent, negative: negative)
        {
          return value
        }
      }
      text = "\(numberText(mantissa))e\(exponent)"
    case let kind:
      throw DecodingErrors.typeMismatch(Decimal.self, found: found(kind), path: path())
    }
    var digits = text
    if let value = digits.withUTF8({ DecimalText.exact(UnsafeRawBufferPointer($0)) }) {
      return value
    }
    throw DecodingErrors.corrupted(
      "Number \(text) cannot be held exactly by Decimal.", path: path())
  }
}
