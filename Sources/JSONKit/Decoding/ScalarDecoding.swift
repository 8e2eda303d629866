import Foundation

/// Reading one tape value as a Swift type: exact conversions or an error, and
/// Foundation's special handling of `Date`, `Data`, `URL` and `Decimal`.
extension DecodingSession {
  @inline(__always)
  func bool(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    switch entries[index].kind {
    case .true: return true
    case .false: return false
    case let kind: throw DecodingErrors.notBool(found: kind, path: path())
    }
  }

  @inline(__always)
  func string(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
    let entry = entries[index]
    guard entry.kind == .string else {
      throw DecodingErrors.typeMismatch(String.self, found: entry.kind, path: path())
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
      if let value = IntegerText.parse(T.self, numberBytes(entry)) { return value }
    case let kind:
      throw DecodingErrors.typeMismatch(T.self, found: kind, path: path())
    }
    throw DecodingErrors.corrupted(
      "Number \(numberText(entry)) does not fit in \(T.self).", path: path())
  }

  /// The integer a number entry with a fraction or exponent spells, if `T`
  /// holds it; out of line, as integers are rarely written so.
  @inline(never)
  private func exactInteger<T: FixedWidthInteger>(_ type: T.Type, _ entry: TapeEntry) -> T? {
    IntegerText.parseExact(T.self, numberBytes(entry))
  }

  /// A Double: the correctly rounded value of any JSON number, or a string
  /// named by the non-conforming float strategy.
  @inline(__always)
  func double(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Double {
    let entry = entries[index]
    switch entry.kind {
    case .double: return Double(bitPattern: entry.payload)
    case .int: return Double(Int64(bitPattern: entry.payload))
    case .uint: return Double(entry.payload)
    case .bigInteger:
      throw integerBeyond64Bits(entry, path: path())
    case .string:
      if let value = nonConformingFloat(entry) { return value }
      throw DecodingErrors.typeMismatch(Double.self, found: .string, path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Double.self, found: kind, path: path())
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
      if let narrowed = FloatNarrowing.nearest(value, literal: numberBytes(entry)) {
        return narrowed
      }
    // Integers round once, straight to Float.
    case .int: return Float(Int64(bitPattern: entry.payload))
    case .uint: return Float(entry.payload)
    case .bigInteger:
      throw integerBeyond64Bits(entry, path: path())
    case .string:
      if let value = nonConformingFloat(entry) { return Float(value) }
      throw DecodingErrors.typeMismatch(Float.self, found: .string, path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Float.self, found: kind, path: path())
    }
    throw DecodingErrors.corrupted(
      "Number \(numberText(entry)) does not fit in Float.", path: path())
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
    switch entry.kind {
    case .int, .uint, .double, .bigInteger:
      if let value = DecimalText.exact(numberBytes(entry)) { return value }
      throw DecodingErrors.corrupted(
        "Number \(numberText(entry)) cannot be held exactly by Decimal.", path: path())
    case let kind:
      throw DecodingErrors.typeMismatch(Decimal.self, found: kind, path: path())
    }
  }

  // MARK: - Any Decodable

  /// Decodes `T` from the value at `index`, handling the types Foundation's
  /// JSONDecoder treats specially before falling back to `init(from:)`.
  func unwrap<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    // The most common leaves first, without any dynamic cast.
    if T.self == String.self { return reinterpret(try string(at: index, path: path()), as: T.self) }
    if T.self == Int.self {
      return reinterpret(try integer(Int.self, at: index, path: path()), as: T.self)
    }
    if T.self == Double.self { return reinterpret(try double(at: index, path: path()), as: T.self) }
    if T.self == Bool.self { return reinterpret(try bool(at: index, path: path()), as: T.self) }
    // The other fixed-width numbers, each read without boxing it in `Any`.
    if T.self == Int64.self {
      return reinterpret(try integer(Int64.self, at: index, path: path()), as: T.self)
    }
    if T.self == Float.self { return reinterpret(try float(at: index, path: path()), as: T.self) }
    if T.self == Int32.self {
      return reinterpret(try integer(Int32.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt64.self {
      return reinterpret(try integer(UInt64.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt.self {
      return reinterpret(try integer(UInt.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt32.self {
      return reinterpret(try integer(UInt32.self, at: index, path: path()), as: T.self)
    }
    if T.self == Int16.self {
      return reinterpret(try integer(Int16.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt16.self {
      return reinterpret(try integer(UInt16.self, at: index, path: path()), as: T.self)
    }
    if T.self == Int8.self {
      return reinterpret(try integer(Int8.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt8.self {
      return reinterpret(try integer(UInt8.self, at: index, path: path()), as: T.self)
    }
    if let special = try decodeSpecial(T.self, at: index, path: path()) { return special as! T }
    switch entries[index].kind {
    case .array:
      if let array = arrayConformance(of: T.self) {
        return try decodeArray(array, at: index, as: T.self)
      }
    case .object:
      // Foundation decodes `[String: V]` without applying the key strategy
      // to its keys; only a non-default strategy makes that differ.
      if case .useDefaultKeys = options.keyDecodingStrategy {
      } else if let dictionary = T.self as? any StringKeyedDictionary.Type {
        return try decodeDictionary(dictionary, at: index, as: T.self)
      }
    default:
      break
    }
    // The metatype given, not `T`: a class's may be a subclass's, whose
    // `init(from:)` Foundation calls.
    return try type.init(from: TapeDecoder(session: self, index: index))
  }

  /// Decodes `T` as ``unwrap(_:at:path:)`` does, which takes the value to be
  /// a container's member (or the root), for other callers: `depth` is how
  /// many of the last keys of `path` lie below the decoder that asks for the
  /// value (0 for a single-value container; 2 for a member of a
  /// `[String: V]` that is itself a container's member, as Foundation reads
  /// those members with the decoder that asked for the dictionary).
  ///
  /// Foundation reports an unparsable ISO 8601 date at that decoder's path,
  /// not the date's, so only dates and such dictionaries heed `depth`.
  func unwrap<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int
  ) throws -> T {
    if depth != 1 {
      if T.self == Date.self {
        return reinterpret(try date(at: index, path: path(), depth: depth), as: T.self)
      }
      if entries[index].kind == .object, !options.keyDecodingStrategy.isDefault,
        let dictionary = T.self as? any StringKeyedDictionary.Type
      {
        return try decodeDictionary(dictionary, at: index, depth: depth, as: T.self)
      }
    }
    return try unwrap(type, at: index, path: path())
  }

  /// Decodes `T` from the null that stands for an absent key's value (through
  /// `superDecoder(forKey:)`), whose path cannot be rebuilt from the tape and
  /// so goes along.
  func unwrapAbsent<T: Decodable>(_ type: T.Type, path: [any CodingKey]) throws -> T {
    if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self {
      return try unwrap(type, at: absentIndex, path: path)
    }
    if let special = try decodeSpecial(T.self, at: absentIndex, path: path) { return special as! T }
    return try type.init(from: TapeDecoder(session: self, index: absentIndex, explicitPath: path))
  }

  private func decodeArray<A: TapeDecodableArray, T>(
    _ array: A.Type, at index: Int, as type: T.Type
  )
    throws -> T
  {
    reinterpret(try A.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try D.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, depth: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try D.decode(from: self, at: index, depth: depth), as: T.self)
  }

  /// The same value seen as `T`, for callers that have just checked that
  /// `U` and `T` are the same type (so no dynamic cast is needed).
  @inline(__always)
  private func reinterpret<U, T>(_ value: U, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// The types Foundation's JSONDecoder reads specially, and the other
  /// integer widths; nil for any other type. A date is a container's
  /// member here (see ``unwrap(_:at:path:depth:)``).
  private func decodeSpecial(
    _ type: Any.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> Any? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(Date.self): return try date(at: index, path: path(), depth: 1)
    case ObjectIdentifier(URL.self): return try url(at: index, path: path())
    case ObjectIdentifier(Data.self): return try data(at: index, path: path())
    case ObjectIdentifier(Decimal.self): return try decimal(at: index, path: path())
    case ObjectIdentifier(JSONValue.self): return try jsonValue(at: index, path: path())
    case ObjectIdentifier(Int64.self): return try integer(Int64.self, at: index, path: path())
    case ObjectIdentifier(Float.self): return try float(at: index, path: path())
    case ObjectIdentifier(Int32.self): return try integer(Int32.self, at: index, path: path())
    case ObjectIdentifier(UInt64.self): return try integer(UInt64.self, at: index, path: path())
    case ObjectIdentifier(UInt.self): return try integer(UInt.self, at: index, path: path())
    case ObjectIdentifier(UInt32.self): return try integer(UInt32.self, at: index, path: path())
    case ObjectIdentifier(Int16.self): return try integer(Int16.self, at: index, path: path())
    case ObjectIdentifier(UInt16.self): return try integer(UInt16.self, at: index, path: path())
    case ObjectIdentifier(Int8.self): return try integer(Int8.self, at: index, path: path())
    case ObjectIdentifier(UInt8.self): return try integer(UInt8.self, at: index, path: path())
    default: break
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      if type == Int128.self { return try integer(Int128.self, at: index, path: path()) }
      if type == UInt128.self { return try integer(UInt128.self, at: index, path: path()) }
    }
    return nil
  }

  /// A JSONValue built straight from the tape, with its object keys
  /// converted as decoding it through keyed containers would convert them:
  /// its numbers, strings and arrays are read alike under every strategy.
  func jsonValue(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
    let convert: ((Int, String) -> String)?
    switch options.keyDecodingStrategy {
    case .convertFromSnakeCase:
      convert = { _, key in SnakeCase.camelCased(key) }
    case .custom(let transform):
      // The strategy sees each key's path, as a keyed container's keys
      // see it; consecutive keys mostly share their object's path.
      var pathObject = -1
      var objectPath: [any CodingKey] = []
      convert = { object, key in
        if object != pathObject {
          objectPath = self.codingPath(to: object)
          pathObject = object
        }
        return transform(objectPath + [AnyCodingKey(stringValue: key)]).stringValue
      }
    default:
      convert = nil
    }
    do {
      return try JSONValueBuilder.value(at: index, in: tape, convertingKeys: convert)
    } catch {
      throw integerBeyond64Bits(entries[error.index], path: codingPath(to: error.index))
    }
  }

  // MARK: - Foundation types

  private func date(at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int) throws
    -> Date
  {
    // As Foundation: null is missing whatever the strategy (a custom one is not asked).
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(Date.self, path: path()) }
    let decoder = TapeDecoder(session: self, index: index)
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: decoder)
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()) / 1000)
    case .iso8601:
      let text = try string(at: index, path: path())
      guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
        // At the asking decoder's path, as Foundation reports it.
        throw DecodingErrors.corrupted(
          "Expected date string to be ISO8601-formatted.", path: path().dropLast(depth))
      }
      return date
    #if canImport(Darwin)
      // Elsewhere Foundation spells `.formatted` as a `.custom` closure.
      case .formatted(let formatter):
        let text = try string(at: index, path: path())
        guard let date = formatter.date(from: text) else {
          throw DecodingErrors.corrupted(
            "Date string does not match format expected by formatter.", path: path())
        }
        return date
    #endif
    case .custom(let closure):
      return try closure(decoder)
    @unknown default:
      return try Date(from: decoder)
    }
  }

  private func data(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Data {
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(Data.self, path: path()) }
    let decoder = TapeDecoder(session: self, index: index)
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: decoder)
    case .base64:
      let text = try string(at: index, path: path())
      guard let data = Data(base64Encoded: text) else {
        throw DecodingErrors.corrupted("Encountered Data is not valid Base64.", path: path())
      }
      return data
    case .custom(let closure):
      return try closure(decoder)
    @unknown default:
      return try Data(from: decoder)
    }
  }

  private func url(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> URL {
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(URL.self, path: path()) }
    let text = try string(at: index, path: path())
    guard let url = URL(string: text) else {
      throw DecodingErrors.corrupted("Invalid URL string.", path: path())
    }
    return url
  }
}

/// Rounding a JSON number to Float from its correctly rounded Double.
///
/// Rounding twice can go wrong: a literal just above the midpoint between two
/// Floats can have that midpoint as its nearest Double, which then rounds to
/// the even Float, below. Only Doubles that are such midpoints (and those below
/// Float's normal range, where the spacing changes) need the literal itself.
enum FloatNarrowing {
  /// Whether `Float(value)` is the Float nearest every literal whose nearest
  /// Double is `value`: a few bit operations, on every Float decoded.
  @inline(__always)
  static func roundsOnce(_ value: Double) -> Bool {
    let bits = value.bitPattern
    // A Float has 24 significant bits; a midpoint between two normal Floats has
    // bit 25 set and nothing below it in the Double's 53.
    return bits & 0x1FFF_FFFF != 0x1000_0000 && (bits >> 52) & 0x7FF >= 1023 - 126
  }

  /// The Float nearest the literal `text`, whose nearest Double is `value`; nil
  /// when the literal is too large for Float, or not zero but rounds to zero.
  static func nearest(_ value: Double, literal text: UnsafeRawBufferPointer) -> Float? {
    let magnitude = value.magnitude
    var lower = Float(magnitude)
    if Double(lower) > magnitude { lower = lower.nextDown }
    var result = Float(magnitude)
    if Double(lower) != magnitude {
      let upper = lower == .greatestFiniteMagnitude ? 0x1p128 : Double(lower.nextUp)
      if magnitude == (Double(lower) + upper) / 2 {
        // A tie between two Floats as a Double; the literal may lie off it.
        switch DecimalToDouble.compareMagnitude(of: text, with: magnitude) {
        case ..<0: result = lower
        case 1...: result = lower.nextUp
        default: break
        }
      }
    }
    guard result.isFinite, result != 0 || magnitude == 0 else { return nil }
    return value.sign == .minus ? -result : result
  }
}

/// Arrays, decoded straight from the tape with exactly the capacity they
/// need, as the standard library's `Array.init(from:)` would decode them.
protocol TapeDecodableArray {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
}

extension Array: TapeDecodableArray where Element: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    let array = session[index]
    var result: [Element] = []
    result.reserveCapacity(array.childCount)
    var position = index + 1
    while position < array.containerEnd {
      result.append(
        try session.unwrap(
          Element.self, at: position,
          path: session.codingPath(to: index) + [AnyCodingKey(intValue: result.count)]))
      position = session.indexAfter(position)
    }
    return result
  }
}

/// Dictionaries with `String` keys, which Foundation decodes member by
/// member with the keys as written, whatever the key strategy.
protocol StringKeyedDictionary {
  /// The dictionary as a container's member.
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
  /// The dictionary at `depth`, as for
  /// ``DecodingSession/unwrap(_:at:path:depth:)``.
  static func decode(from session: DecodingSession, at index: Int, depth: Int) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    try decode(from: session, at: index, depth: 1)
  }

  static func decode(from session: DecodingSession, at index: Int, depth: Int) throws -> Self {
    let object = session[index]
    // Only while this decode runs: once it is over (even by a failure that a
    // `try?` swallows), the object may be decoded otherwise, with its keys
    // converted.
    let marked = session.rawKeyObjects.insert(index).inserted
    defer { if marked { session.rawKeyObjects.remove(index) } }
    var result: [String: Value] = [:]
    result.reserveCapacity(object.childCount)
    var key = index + 1
    while key < object.containerEnd {
      let name = session.rawKey(session[key])
      // Foundation decodes the members with the decoder that asked for the
      // dictionary, so they lie a key deeper below it.
      result[name] = try session.unwrap(
        Value.self, at: key + 1,
        path: session.codingPath(to: index) + [AnyCodingKey(stringValue: name)], depth: depth + 1)
      key = session.indexAfter(key + 1)
    }
    return result
  }
}

/// Integer literals longer than 64 bits, read into a wider integer type.
enum IntegerText {
  /// The value of the integer literal `text` as `T`, or nil when it does not fit.
  static func parse<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeRawBufferPointer) -> T? {
    var index = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative {
      guard T.isSigned else { return nil }
      index = 1
    }
    guard index < text.count else { return nil }
    var value: T = 0
    while index < text.count {
      let digit = text[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      // Accumulate negatives downwards so that T.min is reachable.
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
      if overflow || overflow2 { return nil }
      value = next
      index += 1
    }
    return value
  }
}

extension IntegerText {
  /// The value of the validated JSON number literal `text` (which may have a
  /// fraction and an exponent, as in `12.50e1`) as `T`, or nil when it is not
  /// an integer or does not fit. Zero with a sign (`-0.0`) is zero, for
  /// unsigned types too.
  ///
  /// Allocates nothing, and reads each digit once: a literal's zeros are
  /// multiplied in only when a nonzero digit or the exponent puts them
  /// above the units, and a value that overflows stops the reading.
  static func parseExact<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeRawBufferPointer) -> T?
  {
    let layout = DecimalToDouble.LiteralLayout(text)
    var value: T = 0
    // Zeros read since the last nonzero digit.
    var zeros = 0
    // Takes in the digit at `index`; false when the value overflows.
    func read(_ index: Int) -> Bool {
      let digit = text[index] &- UInt8(ascii: "0")
      guard digit != 0 else {
        zeros += 1
        return true
      }
      if value != 0 {
        for _ in 0...zeros {
          guard let scaled = timesTen(value) else { return false }
          value = scaled
        }
      }
      zeros = 0
      // Negatives accumulate downwards so that T.min is reachable.
      let (next, overflow) =
        layout.negative
        ? value.subtractingReportingOverflow(T(digit)) : value.addingReportingOverflow(T(digit))
      value = next
      return !overflow
    }
    for index in layout.integerDigits where !read(index) { return nil }
    for index in layout.fractionDigits where !read(index) { return nil }
    guard value != 0 else { return 0 }
    // The power of ten of the last nonzero digit's place; below the units,
    // the literal has a fraction.
    let scale = layout.exponent - layout.fractionDigits.count + zeros
    guard scale >= 0 else { return nil }
    for _ in 0..<scale {
      // A nonzero value overflows within 40 steps, whatever the exponent.
      guard let scaled = timesTen(value) else { return nil }
      value = scaled
    }
    return value
  }

  @inline(__always)
  private static func timesTen<T: FixedWidthInteger>(_ value: T) -> T? {
    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
    return overflow ? nil : product
  }
}

/// Decimal values that keep every digit of a JSON number.
enum DecimalText {
  /// Decimal's significand is a 128-bit integer: it holds every number of
  /// up to 38 digits and those of 39 digits up to this one.
  static let largestSignificand: StaticString = "340282366920938463463374607431768211455"

  /// The exact Decimal value of the JSON number `text`, or nil when Decimal
  /// cannot hold it exactly.
  static func exact(_ text: UnsafeRawBufferPointer) -> Decimal? {
    let layout = DecimalToDouble.LiteralLayout(text)
    var digits: [UInt8] = []
    for index in layout.integerDigits where !(digits.isEmpty && text[index] == UInt8(ascii: "0")) {
      digits.append(text[index])
    }
    for index in layout.fractionDigits where !(digits.isEmpty && text[index] == UInt8(ascii: "0")) {
      digits.append(text[index])
    }
    // Saturated far beyond Decimal's range, so this cannot overflow.
    var exponent = layout.exponent - layout.fractionDigits.count
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      return layout.negative ? Decimal(sign: .minus, exponent: 0, significand: 0) : 0
    }
    guard exponent >= -128 else { return nil }
    if exponent > 127 {
      return withTrailingZeros(digits, exponent: exponent, negative: layout.negative)
    }
    guard fitsSignificand(digits) else { return nil }
    var significand = Decimal(0)
    var start = 0
    // Nineteen digits at a time always fit UInt64; each step is exact.
    while start < digits.count {
      let end = min(start + 19, digits.count)
      var chunk: UInt64 = 0
      for digit in digits[start..<end] { chunk = chunk * 10 + UInt64(digit - UInt8(ascii: "0")) }
      var scale = Decimal(1)
      for _ in start..<end { scale *= 10 }
      significand = significand * scale + Decimal(chunk)
      start = end
    }
    return Decimal(
      sign: layout.negative ? .minus : .plus, exponent: exponent, significand: significand)
  }

  /// The value `digits` × 10^`exponent` for an exponent above Decimal's
  /// largest (127), which Decimal still holds exactly when its significand
  /// takes the extra zeros: `100e126` is 10 × 10^127.
  ///
  /// Decimal's arithmetic would strip those zeros again and overflow (as
  /// `Decimal(sign:exponent:significand:)` does); its parser keeps them.
  private static func withTrailingZeros(_ digits: [UInt8], exponent: Int, negative: Bool)
    -> Decimal?
  {
    let zeros = exponent - 127
    guard digits.count + zeros <= largestSignificand.utf8CodeUnitCount else { return nil }
    let significand = digits + repeatElement(UInt8(ascii: "0"), count: zeros)
    guard fitsSignificand(significand) else { return nil }
    let text = (negative ? "-" : "") + String(decoding: significand, as: UTF8.self) + "e127"
    return Decimal(string: text)
  }

  /// Whether the decimal digits (no leading zeros) fit Decimal's 128-bit
  /// significand.
  private static func fitsSignificand(_ digits: [UInt8]) -> Bool {
    let limit = largestSignificand
    guard digits.count == limit.utf8CodeUnitCount else {
      return digits.count < limit.utf8CodeUnitCount
    }
    // Same length: the digits fit unless they come after the limit's.
    return limit.withUTF8Buffer { !$0.lexicographicallyPrecedes(digits) }
  }
}

extension JSONDecoder.KeyDecodingStrategy {
  /// Whether this is `.useDefaultKeys`.
  var isDefault: Bool {
    if case .useDefaultKeys = self { return true }
    return false
  }
}
