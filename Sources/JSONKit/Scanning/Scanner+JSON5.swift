/// JSON5, trailing commas and the top-level object without braces: the
/// scanner's extensions to strict JSON.
///
/// Every function here is entered from `Scanner.swift` only where strict
/// scanning has already failed (a byte that cannot start a value or a key,
/// an escape JSON does not define, a number that breaks JSON's grammar, the
/// end of a container right after a comma, the end of the input inside the
/// top-level object), so that strict JSON pays nothing for them. Without the
/// option that accepts a construct, the same place throws an error that
/// names it and the option.
///
/// The grammar is Foundation's `JSONDecoder` with `allowsJSON5`, as it
/// behaves (which is narrower than the JSON5 specification in places: no
/// `\v` or `\0` escapes, no Unicode spaces as whitespace), with JSONKit's
/// Unicode and number rules kept.
extension Scanner {
  /// The words every error about a JSON5 construct ends with.
  static var json5Acceptance: String { "is JSON5 syntax, accepted with allowsJSON5 / .json5" }

  // MARK: - Values

  /// The value dispatch's last resort: a trailing comma's `]`, a JSON5
  /// value, or the error for the byte at `index`.
  mutating func scanValueOtherwise() throws(ScanFailure) {
    let byte = base[index]
    let depth = state.stack.count
    if byte == UInt8(ascii: "]"), depth > 0, state.stack.base[depth - 1] >> 63 == 0 {
      // Only a comma leads here with an array open: `[]` closes at once.
      guard trailingCommas else { throw trailingComma(before: "]") }
      index += 1
      closeArray()
      return
    }
    if json5 {
      switch byte {
      case UInt8(ascii: "'"):
        let offset = index
        let span = try scanSingleQuotedBytes()
        if Recording.recordsTape {
          state.tape.append(
            TapeEntry(
              .string, flags: TapeEntry.inArena, offset: offset, payload: UInt64(span.start)))
        }
        return
      case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "I"), UInt8(ascii: "N"):
        return try scanJSON5Number(from: index)
      default:
        break
      }
    }
    throw unexpected("a value")
  }

  // MARK: - Keys

  /// The key scanner's last resort: a trailing comma's `}`, the end of the
  /// top-level object without braces, a JSON5 key, or the error. Returns
  /// false when the object ended instead of a key.
  mutating func scanKeyOtherwise(afterComma: Bool) throws(ScanFailure) -> Bool {
    let atBracelessLevel = bracelessObjectStart >= 0 && state.stack.count == 1
    guard index < end else {
      if afterComma, atBracelessLevel {
        guard trailingCommas else { throw trailingComma(before: "the end of the input") }
        return !closeBracelessObjectAtEnd()
      }
      throw endOfInput("a string key")
    }
    let byte = base[index]
    if byte == UInt8(ascii: "}"), afterComma {
      if atBracelessLevel { throw unmatchedBrace() }
      guard trailingCommas else { throw trailingComma(before: "}") }
      index += 1
      closeObject()
      return false
    }
    if json5 {
      let offset = index
      if byte == UInt8(ascii: "'") {
        let span = try scanSingleQuotedBytes()
        guard Recording.recordsTape else {
          try scanColon()
          return true
        }
        let id = state.keys.intern(state.arena.base + span.start + 8, length: span.length)
        state.arena.count = span.start  // the cache now holds the key's bytes
        try recordKey(id, at: offset)
        return true
      }
      if byte == UInt8(ascii: "\\") { throw escapeInUnquotedKey(at: index) }
      if let length = identifierStartLength(at: index) {
        try scanIdentifierKey(firstLength: length)
        return true
      }
    } else if byte == UInt8(ascii: "'") {
      throw unexpectedJSON5("a string key", "a single-quoted key")
    } else if identifierStartLength(at: index) != nil {
      throw unexpectedJSON5("a string key", "an unquoted key")
    }
    throw unexpected("a string key")
  }

  /// Scans a key written as a JSON5 identifier, whose first character
  /// (`firstLength` bytes) is at `index`, and the `:` after it.
  private mutating func scanIdentifierKey(firstLength: Int) throws(ScanFailure) {
    let offset = index
    var position = index + firstLength
    while position < end {
      let byte = base[position]
      if byte == UInt8(ascii: "\\") { throw escapeInUnquotedKey(at: position) }
      if byte < 0x80 {
        guard Self.isIdentifierASCII(byte, first: false) else { break }
        position += 1
        continue
      }
      let (length, scalar) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
      guard length > 0 else { throw invalidScalar(length: length, scalar, at: position) }
      guard Self.isIdentifierScalar(scalar, first: false) else { break }
      position += length
    }
    index = position
    guard Recording.recordsTape else { return try scanColon() }
    try recordKey(state.keys.intern(base + offset, length: position - offset), at: offset)
  }

  /// The length of the identifier's first character at `position`, or nil
  /// when none starts there: `$`, `_`, or a letter (Unicode categories L*
  /// and Nl), as Foundation's JSON5 reader takes them.
  private func identifierStartLength(at position: Int) -> Int? {
    let byte = base[position]
    if byte < 0x80 { return Self.isIdentifierASCII(byte, first: true) ? 1 : nil }
    let (length, scalar) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
    return length > 0 && Self.isIdentifierScalar(scalar, first: true) ? length : nil
  }

  private static func isIdentifierASCII(_ byte: UInt8, first: Bool) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "$")
      || byte == UInt8(ascii: "_") || (!first && DecimalDigits.isDigit(byte))
  }

  /// Whether a non-ASCII scalar may be part of an identifier: a letter
  /// anywhere; marks, digits, connector punctuation, ZWNJ and ZWJ after
  /// the first character.
  private static func isIdentifierScalar(_ value: UInt32, first: Bool) -> Bool {
    guard let scalar = Unicode.Scalar(value) else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .letterNumber:
      return true
    case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
      return !first
    default:
      return !first && (value == 0x200C || value == 0x200D)
    }
  }

  // MARK: - The top-level object without braces

  /// Opens the top-level object whose braces are left out, at `index`, and
  /// scans its first key. Returns false when the input holds nothing more:
  /// the object is then empty, and complete.
  mutating func openBracelessObject() throws(ScanFailure) -> Bool {
    bracelessObjectStart = index
    try open(.object)
    guard index < end else { return !closeBracelessObjectAtEnd() }
    return try scanKey(afterComma: false)
  }

  /// Closes the top-level object without braces at the end of the input,
  /// its only proper ending; returns whether it did (whether that object
  /// is the one open).
  mutating func closeBracelessObjectAtEnd() -> Bool {
    guard bracelessObjectStart >= 0, state.stack.count == 1 else { return false }
    closeObject()
    bracelessObjectEnded = true
    return true
  }

  /// After the top-level object without braces: it must not have been
  /// closed by a `}` (which then is the byte before `index`).
  func checkBracelessObjectEnded() throws(ScanFailure) {
    if !bracelessObjectEnded { throw unmatchedBrace(at: index - 1) }
  }

  /// Foundation keeps an escape in an unquoted key as text (`{\u0061:1}`
  /// has the key `\u0061`, where JSON5 means `a`): rather than give either
  /// meaning silently, JSONKit asks for a quoted key.
  private func escapeInUnquotedKey(at position: Int) -> ScanFailure {
    ScanFailure(
      .invalidEscape, "an escape in an unquoted key is not accepted; write the key in quotes",
      at: position)
  }

  private func unmatchedBrace(at position: Int? = nil) -> ScanFailure {
    ScanFailure(
      .unexpectedCharacter,
      "unexpected '}': the top-level object has no opening brace (assumesTopLevelDictionary)",
      at: position ?? index)
  }

  // MARK: - Strings

  /// Scans the single-quoted string whose quote is at `index` into the
  /// arena and leaves `index` after its closing quote.
  private mutating func scanSingleQuotedBytes() throws(ScanFailure) -> StringSpan {
    let quote = index
    let start = state.arena.count
    if Recording.recordsTape {
      _ = state.arena.reserve(8)
      state.arena.count += 8
    }
    var position = quote + 1
    while true {
      guard position < end else { throw unterminatedString(quote) }
      let byte = base[position]
      if byte == UInt8(ascii: "'") {
        return finishArenaString(start: start, closingQuoteAt: position)
      }
      if byte == UInt8(ascii: "\\") {
        position = try decodeEscape(at: position)
      } else if byte < 0x20 {
        throw controlCharacter(at: position)
      } else if byte < 0x80 {
        if Recording.recordsTape { state.arena.append(byte) }
        position += 1
      } else {
        position = try appendSequenceToArena(at: position)
      }
    }
  }

  /// An escape JSON does not define, at `position`: JSON5's `\'`, `\xHH`
  /// and escaped line breaks, or the error. Returns the position after it.
  ///
  /// An escaped line break keeps the line break in the string (CR LF
  /// both), as Foundation reads it, where the JSON5 specification drops it.
  mutating func decodeEscapeOtherwise(at position: Int) throws(ScanFailure) -> Int {
    let escaped = base[position + 1]
    let isJSON5 =
      escaped == UInt8(ascii: "'") || escaped == UInt8(ascii: "x") || escaped == 0x0A
      || escaped == 0x0D
    guard json5, isJSON5 else {
      let hint = isJSON5 ? "; the escape \(Self.json5Acceptance)" : ""
      throw ScanFailure(
        .invalidEscape, "invalid escape '\\\(describeByte(escaped))' in a string\(hint)",
        at: position)
    }
    switch escaped {
    case UInt8(ascii: "x"):
      guard position + 3 < end, JSON5NumberText.isHexDigit(base[position + 2]),
        JSON5NumberText.isHexDigit(base[position + 3])
      else {
        throw ScanFailure(.invalidEscape, "a \\x escape needs two hex digits", at: position)
      }
      let scalar = UInt32(
        JSON5NumberText.hexValue(base[position + 2]) << 4
          | JSON5NumberText.hexValue(base[position + 3]))
      if scalar == 0 {
        guard looseUnicode else {
          throw ScanFailure(.nullCharacter, "U+0000 is not allowed in a string", at: position)
        }
        appendScalarToArena(0xFFFD)
      } else {
        appendScalarToArena(scalar)
      }
      return position + 4
    case 0x0D where position + 2 < end && base[position + 2] == 0x0A:
      appendToArena(base + position + 1, count: 2)
      return position + 3
    default:
      if Recording.recordsTape { state.arena.append(escaped) }
      return position + 2
    }
  }

  // MARK: - Numbers

  /// Scans the JSON5 number at `start`: an optional sign, then `Infinity`,
  /// `NaN`, a hexadecimal integer, or decimal digits in which the integer
  /// or the fraction part (not both) may be empty. Its tape entry carries
  /// ``TapeEntry/json5Number``, so that readers of its text know the grammar.
  mutating func scanJSON5Number(from start: Int) throws(ScanFailure) {
    var position = start
    let negative = base[position] == UInt8(ascii: "-")
    if negative || base[position] == UInt8(ascii: "+") { position += 1 }
    guard position < end else { throw endOfInput("a digit in a number") }
    switch base[position] {
    case UInt8(ascii: "I"):
      try expectWord("Infinity", at: position)
      appendJSON5Number(.double, start, (negative ? -Double.infinity : .infinity).bitPattern)
      index = position + 8
    case UInt8(ascii: "N"):
      try expectWord("NaN", at: position)
      appendJSON5Number(.double, start, (negative ? -Double.nan : .nan).bitPattern)
      index = position + 3
    case UInt8(ascii: "0") where position + 1 < end && base[position + 1] | 0x20 == 0x78:
      try scanHexadecimal(from: start, digitsAt: position + 2, negative: negative)
    default:
      try scanDecimal(from: start, digitsAt: position, negative: negative)
    }
  }

  private func expectWord(_ word: StaticString, at position: Int) throws(ScanFailure) {
    let count = word.utf8CodeUnitCount
    guard position + count <= end,
      UnsafeRawBufferPointer(start: base + position, count: count).elementsEqual(
        UnsafeRawBufferPointer(start: word.utf8Start, count: count))
    else {
      throw ScanFailure(.invalidLiteral, "invalid literal, expected '\(word)'", at: position)
    }
  }

  private mutating func appendJSON5Number(_ kind: TapeEntry.Kind, _ start: Int, _ payload: UInt64) {
    guard Recording.recordsTape else { return }
    state.tape.append(
      TapeEntry(kind, flags: TapeEntry.json5Number, offset: start, payload: payload))
  }

  /// A hexadecimal integer: like a decimal one, it must fit Int64 when
  /// negative and UInt64 otherwise (beyond, it is an error even for a field
  /// that holds more, as in Foundation). `-0x0` is the integer 0.
  private mutating func scanHexadecimal(from start: Int, digitsAt first: Int, negative: Bool)
    throws(ScanFailure)
  {
    var position = first
    var magnitude: UInt64 = 0
    var overflow = false
    while position < end, JSON5NumberText.isHexDigit(base[position]) {
      overflow = overflow || magnitude >> 60 != 0
      magnitude = magnitude << 4 | JSON5NumberText.hexValue(base[position])
      position += 1
    }
    guard position > first else {
      throw ScanFailure(.invalidNumber, "expected a hexadecimal digit after '0x'", at: position)
    }
    guard !overflow, !negative || magnitude <= UInt64(Int64.max) + 1 else {
      throw ScanFailure(
        .integerOutOfRange,
        "the hexadecimal integer does not fit \(negative ? "Int64" : "UInt64")", at: start)
    }
    index = position
    if negative {
      appendJSON5Number(.int, start, 0 &- magnitude)
    } else {
      appendJSON5Number(magnitude > UInt64(Int64.max) ? .uint : .int, start, magnitude)
    }
  }

  /// A decimal number in JSON5's grammar, converted through its spelling
  /// in JSON's, so that it gets exactly JSON's value and limits.
  private mutating func scanDecimal(from start: Int, digitsAt first: Int, negative: Bool)
    throws(ScanFailure)
  {
    var position = first
    while position < end, DecimalDigits.isDigit(base[position]) { position += 1 }
    let integerDigits = position - first
    if integerDigits > 1, base[first] == UInt8(ascii: "0") { throw leadingZero(at: first) }
    var isInteger = true
    var fractionDigits = 0
    if position < end, base[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      let fractionStart = position
      while position < end, DecimalDigits.isDigit(base[position]) { position += 1 }
      fractionDigits = position - fractionStart
    }
    guard integerDigits + fractionDigits > 0 else {
      throw ScanFailure(.invalidNumber, "expected a digit in a number", at: position)
    }
    if position < end, base[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < end, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < end, DecimalDigits.isDigit(base[position]) else {
        throw ScanFailure(.invalidNumber, "expected a digit in the exponent", at: position)
      }
      while position < end, DecimalDigits.isDigit(base[position]) { position += 1 }
    }
    index = position
    if isInteger {
      // Only `+` makes a decimal integer JSON5 (a `-` one is JSON's), but
      // the sign is handled as JSON handles it all the same.
      guard DecimalDigits.fitsUInt64(base + first, count: integerDigits) else {
        guard configuration.allowsBigIntegers else {
          throw ScanFailure(.integerOutOfRange, "the integer does not fit UInt64", at: start)
        }
        appendJSON5Number(.bigInteger, start, UInt64(position - start))
        return
      }
      let value = DecimalDigits.parseUInt64(base + first, count: integerDigits)
      if !negative {
        appendJSON5Number(value > UInt64(Int64.max) ? .uint : .int, start, value)
      } else if value == 0 {
        appendJSON5Number(.double, start, (-0.0 as Double).bitPattern)
      } else if value <= UInt64(Int64.max) + 1 {
        appendJSON5Number(.int, start, 0 &- value)
      } else {
        throw ScanFailure(.integerOutOfRange, "the integer does not fit Int64", at: start)
      }
      return
    }
    let literal = UnsafeRawBufferPointer(start: base + start, count: position - start)
    let text = JSON5NumberText.jsonText(literal) ?? []
    let outcome = text.withUnsafeBytes { DecimalToDouble.convert(text: $0) }
    let entry = try doubleEntry(outcome, at: start, flags: TapeEntry.json5Number)
    if Recording.recordsTape { state.tape.append(entry) }
  }

  // MARK: - Errors

  /// The error for a `0` followed by a digit or, outside JSON5, an `x`.
  func leadingZero(at position: Int) -> ScanFailure {
    if position + 1 < end, base[position + 1] | 0x20 == UInt8(ascii: "x") {
      return ScanFailure(
        .invalidNumber, "a hexadecimal number \(Self.json5Acceptance)", at: position)
    }
    return ScanFailure(.invalidNumber, "a number may not have leading zeros", at: position)
  }

  private func trailingComma(before what: String) -> ScanFailure {
    ScanFailure(
      .unexpectedCharacter, Scanner<TapeRecording>.trailingCommaMessage(before: what), at: index)
  }

  private func unexpectedJSON5(_ expected: String, _ construct: String) -> ScanFailure {
    ScanFailure(
      .unexpectedCharacter,
      "expected \(expected), found \(construct), which \(Self.json5Acceptance)", at: index)
  }

  /// For an error at `position`: "; " and what would accept the byte found
  /// there, when an option would, else "".
  func optionHint(at position: Int) -> String {
    guard position < end else { return "" }
    let byte = base[position]
    let next = position + 1 < end ? base[position + 1] : 0
    let options = configuration.options
    if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") || next == UInt8(ascii: "*"),
      !json5, !options.contains(.comments)
    {
      return "; comments are accepted with parseOptions: .comments (or .json5)"
    }
    if byte == 0x0B || byte == 0x0C, !json5, !options.contains(.unicodeNewlines) {
      return "; vertical tab and form feed are whitespace with .unicodeNewlines (or .json5)"
    }
    guard !json5 else { return "" }
    switch byte {
    case UInt8(ascii: "'"): return "; a single-quoted string \(Self.json5Acceptance)"
    case UInt8(ascii: "+"): return "; a number with an explicit '+' \(Self.json5Acceptance)"
    case UInt8(ascii: ".") where DecimalDigits.isDigit(next):
      return "; a number with a leading decimal point \(Self.json5Acceptance)"
    case UInt8(ascii: "I") where next == UInt8(ascii: "n"):
      return "; Infinity \(Self.json5Acceptance)"
    case UInt8(ascii: "N") where next == UInt8(ascii: "a"):
      return "; NaN \(Self.json5Acceptance)"
    default: return ""
    }
  }

  /// The hint for a decimal point at `position` with no digit after it.
  func optionHint(trailingPointAt position: Int) -> String {
    json5 ? "" : "; a number with a trailing decimal point \(Self.json5Acceptance)"
  }
}

extension Scanner where Recording == TapeRecording {
  /// What a trailing comma before `what` (a closing bracket or brace, or a
  /// description of what follows) is told in strict JSON; stream framing
  /// says the same. (Whatever a scan records, the words are these: they
  /// are stated on one specialisation so that `Scanner.` names them.)
  static func trailingCommaMessage(before what: String) -> String {
    "a trailing comma before \(what == "]" || what == "}" ? "'\(what)'" : what) is accepted "
      + "only with parseOptions: .trailingCommas (or .json5)"
  }
}
