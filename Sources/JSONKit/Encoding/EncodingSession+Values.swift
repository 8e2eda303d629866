import Foundation

/// Writing one value into a slot: the types Foundation's JSONEncoder treats
/// specially, then anything `Encodable`.
extension EncodingSession {
  /// Encodes `value` into `slot`; `byOwnEncoder` says that the slot's own
  /// encoder encodes it (through its single-value container), rather than a
  /// keyed or unkeyed container.
  func encode<T: Encodable>(_ value: T, into slot: EncodingSlot, byOwnEncoder: Bool = false)
    throws
  {
    // The most common leaves first, without any dynamic cast. Every leaf is
    // written out of line: this frame stays on the stack while a nested
    // value is encoded, one per level, so it holds only what nesting needs
    // (which lets the default `maxDepth` fit a 512 KiB stack).
    if T.self == String.self { return try writeLeaf(reinterpret(value, as: String.self), slot) }
    if T.self == Int.self { return writeLeaf(reinterpret(value, as: Int.self), slot) }
    if T.self == Double.self { return try writeLeaf(reinterpret(value, as: Double.self), slot) }
    if T.self == Bool.self { return writeLeaf(reinterpret(value, as: Bool.self), slot) }
    if encodeNumberArray(value, into: slot) { return }
    if try encodeSpecial(value, into: slot) { return }
    // Through a single-value container, the slot is an outer value's, which
    // is checked when that value is encoded.
    if byOwnEncoder {
      try checkDepth(of: slot, value)
      return try encodeComposite(value, into: slot, byOwnEncoder: true)
    }
    let frame = innermostFrame
    // While streaming, the member was just begun, so its container is the
    // innermost frame, `frame` deep; in tree form `frame` is -1.
    if frame > containerDepthLimit || frame < 0 { try checkDepth(of: slot, value) }
    do {
      try encodeComposite(value, into: slot, byOwnEncoder: false)
    } catch {
      noteWritesIntoContainer(of: slot, inFrame: frame)
      throw error
    }
    noteWritesIntoContainer(of: slot, inFrame: frame)
  }

  /// Encodes `value` through the single-value container of the encoder of
  /// `slot`. A value that fails leaves nothing behind (unless something was
  /// written in the slot before it): what it wrote is taken out, and the
  /// slot can be written again, as if it had not been encoded.
  func encodeSingleValue<T: Encodable>(_ value: T, into slot: EncodingSlot) throws {
    if T.self == Int.self || T.self == Bool.self {
      // Written whole, without an error.
      return try encode(value, into: slot, byOwnEncoder: true)
    }
    try discardingOnError(slot) { try encode(value, into: slot, byOwnEncoder: true) }
    // Foundation writes `{}` for a value that wrote nothing here, where at
    // the top level it would throw.
    writeEmptyObjectUnlessWritten(slot)
  }

  /// Runs `write`, which writes into `slot` through its single-value
  /// container; if it throws, takes out what it wrote (a string refused
  /// once written, a failed value's containers), so that the slot can be
  /// written again. What was in the slot before stays.
  func discardingOnError(_ slot: EncodingSlot, _ write: () throws -> Void) throws {
    let start = unwrittenValueStart(of: slot)
    do {
      try write()
    } catch {
      if let start { discardValue(of: slot, startingAt: start) }
      throw error
    }
  }

  @inline(never)
  private func writeLeaf(_ string: String, _ slot: EncodingSlot) throws {
    try writeScalar(into: slot) { try $0.writeQuotedChecked(string) }
  }

  @inline(never)
  private func writeLeaf(_ integer: Int, _ slot: EncodingSlot) {
    writeScalar(into: slot) { $0.write(integer: integer) }
  }

  @inline(never)
  private func writeLeaf(_ double: Double, _ slot: EncodingSlot) throws {
    try write(double, into: slot)
  }

  @inline(never)
  private func writeLeaf(_ bool: Bool, _ slot: EncodingSlot) {
    writeScalar(into: slot) { $0.append(bool ? "true" : "false") }
  }

  /// Encodes a value that is not one of the types written directly: through
  /// its `encode(to:)`, or as a dictionary whose keys keep their spelling.
  @inline(__always)
  private func encodeComposite<T: Encodable>(
    _ value: T, into slot: EncodingSlot, byOwnEncoder: Bool
  ) throws {
    if case .useDefaultKeys = options.keyEncodingStrategy {
    } else if T.self is any StringKeyedEncodableDictionary.Type,
      try encodeStringKeyedDictionary(value, into: slot, byOwnEncoder: byOwnEncoder)
    {
      return
    }
    try value.encode(to: SlotEncoder(session: self, slot: slot))
  }

  /// Encodes `value`, of a `[String: V]` type, under a key strategy;
  /// returns false when it is not one after all.
  @inline(never)
  private func encodeStringKeyedDictionary<T: Encodable>(
    _ value: T, into slot: EncodingSlot, byOwnEncoder: Bool
  ) throws -> Bool {
    // The type was asked first: casting the value copies it into a box, for
    // every model value under a key strategy.
    guard let dictionary = value as? any StringKeyedEncodableDictionary else { return false }
    // Foundation writes `[String: V]` keys as they are, whatever the
    // strategy, through the encoder that encodes the dictionary: its values
    // get that encoder's path and their keys, which leaves out the
    // dictionary's own key when a container encodes it.
    try dictionary.encodeMembers(
      into: self, container: openContainer(in: slot, isObject: true, isNested: !byOwnEncoder))
    return true
  }

  /// The same value seen as `U`, for callers that have just checked that
  /// `T` and `U` are the same type.
  @inline(__always)
  private func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    unsafeBitCast(value, to: U.self)
  }

  /// Writes the types Foundation's JSONEncoder treats specially; returns
  /// false for any other type.
  @inline(never)
  private func encodeSpecial<T: Encodable>(_ value: T, into slot: EncodingSlot) throws -> Bool {
    switch ObjectIdentifier(T.self) {
    case ObjectIdentifier(Float.self):
      try write(reinterpret(value, as: Float.self), into: slot)
    case ObjectIdentifier(Int64.self):
      let integer = reinterpret(value, as: Int64.self)
      writeScalar(into: slot) { $0.write(integer) }
    case ObjectIdentifier(Date.self):
      try write(reinterpret(value, as: Date.self), into: slot)
    case ObjectIdentifier(Data.self):
      try write(reinterpret(value, as: Data.self), into: slot)
    case ObjectIdentifier(UUID.self):
      // `UUID.encode(to:)` writes its `uuidString`, which needs no escapes.
      let uuid = reinterpret(value, as: UUID.self)
      writeScalar(into: slot) { $0.writeQuoted(uuid) }
    case ObjectIdentifier(URL.self):
      let text = reinterpret(value, as: URL.self).absoluteString
      try writeScalar(into: slot) { try $0.writeQuotedChecked(text) }
    case ObjectIdentifier(JSONValue.self):
      // A key strategy renames object keys, which only Codable's keyed
      // containers apply.
      guard case .useDefaultKeys = options.keyEncodingStrategy else { return false }
      try write(reinterpret(value, as: JSONValue.self), into: slot)
    case ObjectIdentifier(NestedJSONValue.self):
      // A member of a `JSONValue` whose `encode(to:)` was called with this
      // encoder: written as one, by the value writer.
      guard case .useDefaultKeys = options.keyEncodingStrategy else { return false }
      try write(reinterpret(value, as: NestedJSONValue.self).value, into: slot)
    case ObjectIdentifier(Decimal.self):
      let decimal = reinterpret(value, as: Decimal.self)
      writeScalar(into: slot) { $0.write(decimal) }
    default:
      return false
    }
    return true
  }

  // MARK: - Untyped values

  /// Writes a `JSONValue` with the value writer, whose output equals what
  /// its Codable conformance would encode: one pass, without a container or
  /// a call-stack frame per nested value, so any depth can be written.
  private func write(_ value: JSONValue, into slot: EncodingSlot) throws {
    let doubles: JSONValueWriter.DoubleStyle
    if case .convertToString(let positiveInfinity, let negativeInfinity, let nan) =
      options.nonConformingFloatEncodingStrategy
    {
      doubles = .strings(
        positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
    } else {
      doubles = .json
    }
    do {
      try writeIndented(into: slot) { writer, indentLevel in
        let depth = try JSONValueWriter.write(
          value, into: &writer, doubles: doubles, indentLevel: indentLevel)
        if indentLevel + depth > maxDepth { noteTooDeep() }
      }
    } catch EncodingError.invalidValue(let invalid, let context) {
      throw EncodingError.invalidValue(
        invalid,
        EncodingError.Context(
          codingPath: codingPath(of: slot) + context.codingPath,
          debugDescription: context.debugDescription))
    }
  }

  // MARK: - Floating point

  /// Writes a Double; NaN and the infinities follow the non-conforming
  /// float strategy.
  func write(_ value: Double, into slot: EncodingSlot) throws {
    if value.isFinite {
      return writeScalar(into: slot) { $0.writeFinite(value) }
    }
    try writeNonConforming(
      value, Double.self, isNaN: value.isNaN, isNegative: value < 0, into: slot)
  }

  /// Writes a Float; NaN and the infinities follow the non-conforming float
  /// strategy.
  func write(_ value: Float, into slot: EncodingSlot) throws {
    if value.isFinite {
      return writeScalar(into: slot) { $0.writeFinite(value) }
    }
    try writeNonConforming(value, Float.self, isNaN: value.isNaN, isNegative: value < 0, into: slot)
  }

  private func writeNonConforming<F>(
    _ value: F, _ type: F.Type, isNaN: Bool, isNegative: Bool, into slot: EncodingSlot
  ) throws {
    guard
      case .convertToString(let positiveInfinity, let negativeInfinity, let nan) =
        options.nonConformingFloatEncodingStrategy
    else {
      throw nonConformingFloatError(value, in: slot)
    }
    let text = isNaN ? nan : isNegative ? negativeInfinity : positiveInfinity
    try writeScalar(into: slot) { try $0.writeQuotedChecked(text) }
  }

  private func nonConformingFloatError<F>(_ value: F, in slot: EncodingSlot) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath(of: slot),
        debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
  }

  /// Writes a date as a number of seconds or milliseconds. Foundation
  /// throws for a date too far away to give a finite number, whatever the
  /// non-conforming float strategy says.
  private func writeDateNumber(_ value: Double, into slot: EncodingSlot) throws {
    guard value.isFinite else { throw nonConformingFloatError(value, in: slot) }
    writeScalar(into: slot) { $0.writeFinite(value) }
  }

  // MARK: - Foundation types

  /// Encodes a value into `slot` with a custom date or data strategy's
  /// `closure`, checked as ``encode(_:into:byOwnEncoder:)`` checks a
  /// value's `encode(to:)`.
  private func encodeByStrategy(into slot: EncodingSlot, _ closure: (any Encoder) throws -> Void)
    throws
  {
    let encoder = SlotEncoder(session: self, slot: slot)
    let frame = innermostFrame
    // Through a single-value container, the slot may be that of a super
    // encoder used after later members were begun: those members are no
    // write from inside the closure, and such a slot is not checked (as a
    // value's encode(to:) through a super encoder is not).
    if isLastMember(slot, inFrame: frame) {
      do {
        try closure(encoder)
      } catch {
        noteWritesIntoContainer(of: slot, inFrame: frame)
        throw error
      }
      noteWritesIntoContainer(of: slot, inFrame: frame)
    } else {
      try closure(encoder)
    }
    writeEmptyObjectUnlessWritten(slot)
  }

  private func write(_ date: Date, into slot: EncodingSlot) throws {
    switch options.dateEncodingStrategy {
    case .deferredToDate:
      try date.encode(to: SlotEncoder(session: self, slot: slot))
    case .secondsSince1970:
      try writeDateNumber(date.timeIntervalSince1970, into: slot)
    case .millisecondsSince1970:
      try writeDateNumber(1000 * date.timeIntervalSince1970, into: slot)
    case .iso8601:
      // Foundation's formatter stops the process on a NaN date; it has no
      // text, so it is refused as a NaN number is.
      let time = date.timeIntervalSinceReferenceDate
      guard !time.isNaN else { throw nonConformingFloatError(time, in: slot) }
      writeScalar(into: slot) { $0.writeQuotedISO8601(date) }
    #if canImport(Darwin)
      // Elsewhere Foundation spells `.formatted` as a `.custom` closure.
      case .formatted(let formatter):
        let text = formatter.string(from: date)
        try writeScalar(into: slot) { try $0.writeQuotedChecked(text) }
    #endif
    case .custom(let closure):
      try encodeByStrategy(into: slot) { try closure(date, $0) }
    @unknown default:
      try date.encode(to: SlotEncoder(session: self, slot: slot))
    }
  }

  private func write(_ data: Data, into slot: EncodingSlot) throws {
    switch options.dataEncodingStrategy {
    case .deferredToData:
      try data.encode(to: SlotEncoder(session: self, slot: slot))
    case .base64:
      writeScalar(into: slot) { $0.writeQuotedBase64(data) }
    case .custom(let closure):
      try encodeByStrategy(into: slot) { try closure(data, $0) }
    @unknown default:
      try data.encode(to: SlotEncoder(session: self, slot: slot))
    }
  }
}

/// Dictionaries with `String` keys, which Foundation writes with their keys
/// as they are, whatever the key strategy.
protocol StringKeyedEncodableDictionary {
  func encodeMembers(into session: EncodingSession, container: Int) throws
}

extension Dictionary: StringKeyedEncodableDictionary where Key == String, Value: Encodable {
  func encodeMembers(into session: EncodingSession, container: Int) throws {
    for (key, value) in self {
      let slot = session.beginMember(
        of: container, key: AnyCodingKey(stringValue: key), name: MemberName(key))
      // Foundation encodes each value with an encoder of its own.
      try session.encode(value, into: slot, byOwnEncoder: true)
    }
  }
}
