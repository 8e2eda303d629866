/// What a scan accepts beyond strict JSON, and its limits.
struct ScanConfiguration: BitwiseCopyable {
  var options: JKParseOptions = []
  /// The deepest nesting of arrays and objects accepted.
  var maxDepth = 512
  /// The deepest any reader of values lets its callers ask for: what
  /// ``JSONValue/maxDepthLimit`` promises, and the cap on `JKDecoder`'s
  /// `maxDepth` (the scanner itself takes any depth).
  static let maxDepthLimit = 1024
  /// Whether integer literals beyond 64 bits go on the tape as
  /// `bigInteger` (for a Codable field that can hold them) instead of being
  /// an error.
  var allowsBigIntegers = false
  /// Whether a top level that does not start with `{` is read as the members
  /// of an object whose braces are left out (`JKDecoder`'s
  /// `assumesTopLevelDictionary`).
  var assumesTopLevelDictionary = false
  /// Whether a byte order mark before the document is skipped: not for
  /// the elements of a stream's array, which a whole document's scan
  /// would find inside the array.
  var skipsByteOrderMark = true
  /// Whether the scan ends right after the first value, leaving what
  /// follows it to the caller: for the elements of a stream's array read
  /// one after another from the stream's buffer, where a comma follows.
  var endsAtValue = false
}

/// The scanner: one pass over UTF-8 bytes that validates everything JSONKit
/// validates and records each value on the tape (see ``TapeEntry``).
///
/// It is iterative: open containers live on an explicit stack, so no input,
/// however deep, can overflow the call stack; the nesting limit is checked as
/// each container opens.
///
/// JSON5 and trailing commas are a mode of this scanner, in
/// `Scanner+JSON5.swift`: it is entered only where strict scanning would
/// otherwise fail, so strict JSON pays nothing for it.
///
/// What it records is its type parameter (see ``ScanRecording``): the tape
/// for parsing and decoding, nothing for validation, which then needs no
/// memory beyond the stack of open containers.
///
/// Every member but ``state`` must be plain bits (its own types are
/// `BitwiseCopyable`): ``run(_:into:configuration:within:appending:)`` never destroys a
/// scanner as a value, only moves its state out.
struct Scanner<Recording: ScanRecording> {
  let base: UnsafePointer<UInt8>
  /// Where the document ends; a batch of records, scanned by one scanner,
  /// sets it for each record.
  var end: Int
  var index = 0
  var state: ScanState
  let configuration: ScanConfiguration
  /// What may stand between tokens beyond JSON's whitespace.
  private let lexicalRules: LexicalRules
  /// Whether anything may: comments, vertical tab and form feed, or
  /// Unicode line breaks.
  private let extendedWhitespace: Bool
  let looseUnicode: Bool
  /// Whether the JSON5 grammar is accepted.
  let json5: Bool
  /// Whether a comma may end an array or object (`.trailingCommas` or JSON5).
  let trailingCommas: Bool
  /// Where the top-level object whose braces are left out began, or -1 if
  /// there is none (see ``ScanConfiguration/assumesTopLevelDictionary``).
  var bracelessObjectStart = -1
  /// Whether that object has been closed by the end of the input, its only
  /// proper ending.
  var bracelessObjectEnded = false

  private init(
    base: UnsafePointer<UInt8>, count: Int, state: consuming ScanState,
    configuration: ScanConfiguration
  ) {
    self.base = base
    self.end = count
    self.state = state
    self.configuration = configuration
    let options = configuration.options
    lexicalRules = LexicalRules(options)
    extendedWhitespace = lexicalRules.allowsMoreThanJSON
    looseUnicode = options.contains(.looseUnicode)
    json5 = options.contains(.json5)
    trailingCommas = !options.isDisjoint(with: [.trailingCommas, .json5])
  }

  /// Scans `input` with the buffers of `context`; when recording the tape,
  /// it replaces what was there, and on return the root value is entry 0.
  ///
  /// A stream scans a batch of records, one after another, before decoding
  /// them; for that, `region` is memory that holds `input` (and the batch's
  /// other records): the entries' offsets count from its start, so that
  /// one view of the tape reads every record of the batch. `appending`
  /// keeps what the tape and arena hold and records the document after it:
  /// its root is the entry at the tape's count before the scan, and its
  /// entries' indexes (containers' ends included) are the tape's. A scan
  /// that fails then leaves the tape and arena as they were. Errors are
  /// placed in `input` alone. Returns where in `input` the scan ended:
  /// its end, or with ``ScanConfiguration/endsAtValue`` the end of the
  /// value.
  @discardableResult
  static func run(
    _ input: UnsafeRawBufferPointer, into context: ScanContext, configuration: ScanConfiguration,
    within region: UnsafeRawBufferPointer? = nil, appending: Bool = false
  ) throws(JKParseError) -> Int {
    guard let inputStart = input.baseAddress, input.count > 0 else { throw emptyInput(input) }
    let base = region?.baseAddress ?? inputStart
    let start = inputStart - base
    guard start + input.count < Int(UInt32.max) else { throw inputTooLarge(input) }
    return try withScanner(
      over: base, count: start + input.count, context: context, configuration: configuration
    ) { (scanner) throws(JKParseError) -> Int in
      scanner.pointee.index = start
      try scanner.pointee.scan(input, appending: appending)
      return scanner.pointee.index - start
    }
  }

  /// The error for empty input.
  static func emptyInput(_ input: UnsafeRawBufferPointer) -> JKParseError {
    JKParseError(.emptyInput, "the input is empty", offset: 0, in: input)
  }

  /// The error for input whose offsets do not fit the tape's 32 bits.
  static func inputTooLarge(_ input: UnsafeRawBufferPointer) -> JKParseError {
    JKParseError(
      .inputTooLarge, "the input is larger than 4 GiB, the most one document may hold",
      offset: 0, in: input)
  }

  /// Calls `body` with a scanner of the `count` bytes at `base` that holds
  /// the state of `context` until `body` returns.
  ///
  /// The scanner owns the context's state while it runs: moved in from
  /// the context and back out, never copied. A copy would take and drop a
  /// reference to each of the state's buffers, and a stream scans one
  /// small record after another. So the scanner lives in memory that is
  /// not destroyed as a value: every other member of it is plain bits.
  @inline(__always)
  static func withScanner<Result, Failure: Error>(
    over base: UnsafeRawPointer, count: Int, context: ScanContext,
    configuration: ScanConfiguration,
    _ body: (UnsafeMutablePointer<Scanner>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let state = context.stateAddress
    return try withUnsafeTemporaryAllocation(of: Scanner.self, capacity: 1) {
      (memory) throws(Failure) -> Result in
      let scanner = memory.baseAddress.unsafelyUnwrapped
      scanner.initialize(
        to: Scanner(
          base: base.assumingMemoryBound(to: UInt8.self), count: count,
          state: state.move(), configuration: configuration))
      defer {
        // The stored member's own address: the move leaves it empty.
        state.moveInitialize(from: scanner.pointer(to: \.state).unsafelyUnwrapped, count: 1)
      }
      return try body(scanner)
    }
  }

  /// Scans the document, which starts at `index`: `input` is its text, for
  /// errors.
  mutating func scan(_ input: UnsafeRawBufferPointer, appending: Bool) throws(JKParseError) {
    let start = index
    let tapeStart = appending ? state.tape.count : 0
    let arenaStart = appending ? state.arena.count : 0
    state.tape.count = tapeStart
    state.arena.count = arenaStart
    state.stack.count = 0
    state.keyStack.count = 0
    state.keys.beginDocument()
    // A scanner may read several documents (a batch of records) in turn.
    bracelessObjectStart = -1
    bracelessObjectEnded = false
    do {
      try scanDocument()
    } catch {
      if appending {
        state.tape.count = tapeStart
        state.arena.count = arenaStart
      }
      throw JKParseError(error.kind, error.message, offset: error.offset - start, in: input)
    }
    if Recording.recordsTape { state.tape.append(TapeEntry.end) }
  }

  // MARK: - Document and containers

  private mutating func scanDocument() throws(ScanFailure) {
    if configuration.skipsByteOrderMark, end - index >= 3, base[index] == 0xEF,
      base[index + 1] == 0xBB, base[index + 2] == 0xBF
    {
      index += 3
    }
    try skipWhitespace()
    if configuration.assumesTopLevelDictionary, index >= end || base[index] != UInt8(ascii: "{") {
      guard try openBracelessObject() else { return }
    } else if index >= end {
      throw ScanFailure(.emptyInput, "the input holds no value", at: index)
    }

    values: while true {
      // A value starts at `index`, after any whitespace.
      guard index < end else { throw endOfInput("a value") }
      switch base[index] {
      case UInt8(ascii: "{"):
        try open(.object)
        index += 1
        try skipWhitespace()
        if index < end, base[index] == UInt8(ascii: "}") {
          index += 1
          closeObject()
        } else {
          // Only a key after a comma can turn out to be an object's end.
          _ = try scanKey(afterComma: false)
          continue values
        }
      case UInt8(ascii: "["):
        try open(.array)
        index += 1
        try skipWhitespace()
        if index < end, base[index] == UInt8(ascii: "]") {
          index += 1
          closeArray()
        } else {
          continue values
        }
      case UInt8(ascii: "\""):
        try scanString()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        try scanNumber()
      case UInt8(ascii: "t"):
        try scanLiteral(0x6575_7274, .true, "true")
      case UInt8(ascii: "f"):
        try scanLiteral(0x6C61_66, .false, "false")
      case UInt8(ascii: "n"):
        try scanLiteral(0x6C6C_756E, .null, "null")
      default:
        try scanValueOtherwise()
      }

      // A value just ended; what may follow depends on the open container.
      while true {
        guard state.stack.count > 0 else { break values }
        let top = state.stack.count - 1
        state.stack.base[top] &+= 1 << 32
        let inObject = state.stack.base[top] >> 63 != 0
        try skipWhitespace()
        guard index < end else {
          if closeBracelessObjectAtEnd() { continue }
          throw endOfInput(inObject ? "',' or '}'" : "',' or ']'")
        }
        let byte = base[index]
        if byte == UInt8(ascii: ",") {
          index += 1
          try skipWhitespace()
          // A trailing comma's object is closed by then: its value has ended.
          if inObject, try !scanKey(afterComma: true) { continue }
          continue values
        }
        if inObject, byte == UInt8(ascii: "}") {
          index += 1
          closeObject()
        } else if !inObject, byte == UInt8(ascii: "]") {
          index += 1
          closeArray()
        } else {
          throw unexpected(
            inObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
        }
      }
    }

    if bracelessObjectStart >= 0 { try checkBracelessObjectEnded() }
    if configuration.endsAtValue { return }
    // Whatever follows the value is ignored when text after it is
    // permitted, even an unclosed comment or ill-formed UTF-8 in one.
    if configuration.options.contains(.permitTextAfterValidJSON) { return }
    try skipWhitespace()
    if index < end {
      throw ScanFailure(
        .textAfterValue,
        "unexpected \(describe(at: index)) after the value\(optionHint(at: index))",
        at: index)
    }
  }

  @inline(__always)
  mutating func open(_ kind: TapeEntry.Kind) throws(ScanFailure) {
    guard state.stack.count < configuration.maxDepth else {
      throw ScanFailure(
        .tooDeeplyNested,
        "arrays and objects are nested more than \(configuration.maxDepth) deep", at: index)
    }
    let tapeIndex = state.tape.count
    if Recording.recordsTape { state.tape.append(TapeEntry(kind, offset: index, payload: 0)) }
    state.stack.append(UInt64(tapeIndex) | (kind == .object ? 1 << 63 : 0))
  }

  @inline(__always)
  mutating func closeArray() {
    state.stack.count -= 1
    guard Recording.recordsTape else { return }
    let open = state.stack.base[state.stack.count]
    let tapeIndex = Int(truncatingIfNeeded: open & 0xFFFF_FFFF)
    let childCount = (open >> 32) & 0x7FFF_FFFF
    state.tape.base[tapeIndex].payload = childCount << 32 | UInt64(state.tape.count)
  }

  @inline(__always)
  mutating func closeObject() {
    state.stack.count -= 1
    guard Recording.recordsTape else { return }
    let open = state.stack.base[state.stack.count]
    let tapeIndex = Int(truncatingIfNeeded: open & 0xFFFF_FFFF)
    let childCount = (open >> 32) & 0x7FFF_FFFF
    state.tape.base[tapeIndex].payload = childCount << 32 | UInt64(state.tape.count)
    let keyCount = Int(childCount)
    if keyCount > 1,
      state.hasRepeatedKeys(amongLast: keyCount)
    {
      state.tape.base[tapeIndex].header |= UInt64(TapeEntry.hasDuplicateKeys) << 4
    }
    state.keyStack.count -= keyCount
  }

  /// Scans `"key"` and the `:` after it, leaving `index` at the value.
  /// Returns false when, instead, a trailing comma's object ended here.
  @inline(__always)
  mutating func scanKey(afterComma: Bool) throws(ScanFailure) -> Bool {
    guard index < end, base[index] == UInt8(ascii: "\"") else {
      return try scanKeyOtherwise(afterComma: afterComma)
    }
    let offset = index
    guard Recording.recordsTape else {
      _ = try scanStringBytes()
      try scanColon()
      return true
    }
    let id: UInt32
    if let predicted = state.keys.predictedKey(in: base, at: index + 1, end: end) {
      id = predicted.id
      index += predicted.length + 2
    } else if let plain = state.keys.plainKey(in: base, at: index + 1, end: end) {
      id = plain.id
      index += plain.length + 2
    } else {
      let span = try scanStringBytes()
      if span.inArena {
        let bytes = state.arena.base + span.start + 8
        id = state.keys.intern(bytes, length: span.length)
        state.arena.count = span.start  // the cache now holds the key's bytes
      } else {
        id = state.keys.intern(base + span.start, length: span.length)
      }
    }
    // As `recordKey`, written out: the specialised scan does not inline it here.
    state.tape.append(TapeEntry(.key, offset: offset, payload: UInt64(id)))
    state.keyStack.append(state.keys.canonicalIDs[Int(id)])
    try scanColon()
    return true
  }

  /// Records the key `id` found at `offset` and scans the `:` after it.
  @inline(__always)
  mutating func recordKey(_ id: UInt32, at offset: Int) throws(ScanFailure) {
    state.tape.append(TapeEntry(.key, offset: offset, payload: UInt64(id)))
    // Duplicates are found among Swift-equal keys, not byte-equal ones.
    state.keyStack.append(state.keys.canonicalIDs[Int(id)])
    try scanColon()
  }

  /// Scans the `:` after a key and the whitespace after it.
  @inline(__always)
  mutating func scanColon() throws(ScanFailure) {
    // Most keys have their ':' right after them: look for it before any whitespace.
    if index >= end || base[index] != UInt8(ascii: ":") {
      try skipWhitespace()
      guard index < end, base[index] == UInt8(ascii: ":") else {
        throw index < end ? unexpected("':' after the key") : endOfInput("':' after the key")
      }
    }
    index += 1
    try skipWhitespace()
  }

  // MARK: - Literals

  /// Scans `true`, `false` or `null`, given their first four bytes as a
  /// little-endian word (for `false`, its last four: "alse").
  @inline(__always)
  private mutating func scanLiteral(
    _ word: UInt32, _ kind: TapeEntry.Kind, _ spelling: StaticString
  ) throws(ScanFailure) {
    let length = kind == .false ? 5 : 4
    let from = kind == .false ? index + 1 : index
    let expected = kind == .false ? 0x6573_6C61 : word
    guard index + length <= end,
      UnsafeRawPointer(base + from).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: expected)
    else {
      throw ScanFailure(.invalidLiteral, "invalid literal, expected '\(spelling)'", at: index)
    }
    if Recording.recordsTape { state.tape.append(TapeEntry(kind, offset: index, payload: 0)) }
    index += length
  }

  // MARK: - Whitespace

  @inline(__always)
  mutating func skipWhitespace() throws(ScanFailure) {
    // Between tokens there is mostly no whitespace at all (always, in
    // minified JSON): one comparison settles that before any loop.
    if index < end, base[index] > 0x20, !extendedWhitespace { return }
    try skipWhitespaceRun()
  }

  @inline(__always)
  private mutating func skipWhitespaceRun() throws(ScanFailure) {
    while index < end {
      let byte = base[index]
      if byte == 0x20 {
        // One space, as after a pretty printer's colons, needs no loop
        // (unless what follows may be a comment or a Unicode newline).
        if !extendedWhitespace, index + 1 < end, base[index + 1] > 0x20 {
          index += 1
          return
        }
        // Indentation comes in runs of spaces: skip them eight at a time.
        index = ScanPrimitives.skipSpaces(base, from: index, end: end)
        continue
      }
      if byte == 0x0A || byte == 0x0D || byte == 0x09 {
        index += 1
        continue
      }
      if extendedWhitespace, try skipExtendedWhitespace() { continue }
      return
    }
  }

  /// Skips one comment or one Unicode newline when the options allow it;
  /// returns whether it skipped anything.
  private mutating func skipExtendedWhitespace() throws(ScanFailure) -> Bool {
    let byte = base[index]
    if lexicalRules.isWhitespace(byte) {
      index += 1
      return true
    }
    if lexicalRules.allowsUnicodeNewlines {
      let length = LexicalRules.unicodeNewlineLength(base, at: index, end: end)
      if length > 0 {
        index += length
        return true
      }
    }
    guard lexicalRules.allowsComments, byte == UInt8(ascii: "/"), index + 1 < end else {
      return false
    }
    let start = index
    var comment = LexicalRules.Comment.slash
    guard comment.advance(base[index + 1]) else { return false }
    index += 2
    while index < end {
      // A line break ends a line comment; it is whitespace.
      guard comment.advance(base[index]) else { return true }
      if comment == .none {
        index += 1  // the `/` of `*/`
        return true
      }
      // The last byte cannot close a block comment; it is left unread, and
      // the comment reported unclosed.
      if comment.isBlock, index + 1 == end { break }
      try skipCommentCharacter()
    }
    if comment == .line { return true }
    throw ScanFailure(.unterminated, "a '/*' comment is never closed", at: start)
  }

  /// Comments must be well-formed UTF-8 like the rest of the document.
  @inline(__always)
  private mutating func skipCommentCharacter() throws(ScanFailure) {
    if base[index] < 0x80 {
      index += 1
      return
    }
    let (length, _) = UTF8Validation.decodeMultibyte(base, at: index, end: end)
    if length > 0 {
      index += length
    } else if looseUnicode {
      index += -length
    } else {
      throw ScanFailure(.invalidUTF8, "ill-formed UTF-8 in a comment", at: index)
    }
  }

  // MARK: - Strings

  /// Where a scanned string's bytes are: in the input (`start` is the offset
  /// after the quote) or in the arena (`start` is the offset of its 8-byte
  /// length, followed by the bytes).
  struct StringSpan {
    var start: Int
    var length: Int
    var inArena: Bool
    /// Whether the bytes are in the input and every one is below 0x80.
    var isASCII = false
  }

  @inline(__always)
  private mutating func scanString() throws(ScanFailure) {
    let offset = index
    let span = try scanStringBytes()
    guard Recording.recordsTape else { return }
    if span.inArena {
      state.tape.append(
        TapeEntry(.string, flags: TapeEntry.inArena, offset: offset, payload: UInt64(span.start)))
    } else {
      state.tape.append(
        TapeEntry(
          .string, flags: span.isASCII ? TapeEntry.isASCII : 0, offset: offset,
          payload: UInt64(span.length)))
    }
  }

  /// Scans the string whose opening quote is at `index` and leaves `index`
  /// after its closing quote. Strings without escapes (or, under
  /// `.looseUnicode`, without repairs) stay in the input; others are decoded
  /// into the arena.
  @inline(__always)
  mutating func scanStringBytes() throws(ScanFailure) -> StringSpan {
    let quote = index
    var position = index + 1
    // Until a byte of 0x80 or more is met: the run of plain bytes then ends
    // before it, so the closing quote is found on the first turn or not at all.
    var isASCII = true
    while true {
      position = ScanPrimitives.skipPlainStringBytes(base, from: position, end: end)
      guard position < end else { throw unterminatedString(quote) }
      let byte = base[position]
      if byte == UInt8(ascii: "\"") {
        index = position + 1
        return StringSpan(
          start: quote + 1, length: position - quote - 1, inArena: false, isASCII: isASCII)
      }
      if byte == UInt8(ascii: "\\") {
        return try scanStringIntoArena(quote: quote, from: position)
      }
      if byte < 0x20 { throw controlCharacter(at: position) }
      isASCII = false
      // Text in most scripts is a run of multibyte sequences: skip those
      // that need no scalar-level check, then validate the rest one
      // sequence after another before going back to the ASCII scan.
      position = UTF8Validation.skipCommonSequences(base, from: position, end: end)
      guard position < end, base[position] >= 0x80 else { continue }
      var (length, scalar) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
      while length > 0, !UTF8Validation.isNoncharacter(scalar) {
        position += length
        guard position < end, base[position] >= 0x80 else { break }
        (length, scalar) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
      }
      if length > 0, !UTF8Validation.isNoncharacter(scalar) { continue }
      if looseUnicode { return try scanStringIntoArena(quote: quote, from: position) }
      throw invalidScalar(length: length, scalar, at: position)
    }
  }

  /// The slow path of a string: from `position` on, decode escapes and
  /// repairs into the arena. The arena holds an 8-byte length, then the bytes.
  @inline(never)
  private mutating func scanStringIntoArena(quote: Int, from firstSpecial: Int) throws(ScanFailure)
    -> StringSpan
  {
    let start = state.arena.count
    if Recording.recordsTape {
      let prefix = firstSpecial - quote - 1
      let destination = state.arena.reserve(8 + prefix)
      (destination + 8).update(from: base + quote + 1, count: prefix)
      state.arena.count += 8 + prefix
    }
    var position = firstSpecial
    while true {
      let runEnd = ScanPrimitives.skipPlainStringBytes(base, from: position, end: end)
      if runEnd > position {
        appendToArena(base + position, count: runEnd - position)
        position = runEnd
      }
      guard position < end else { throw unterminatedString(quote) }
      let byte = base[position]
      if byte == UInt8(ascii: "\"") {
        return finishArenaString(start: start, closingQuoteAt: position)
      }
      if byte == UInt8(ascii: "\\") {
        position = try decodeEscape(at: position)
        continue
      }
      if byte < 0x20 { throw controlCharacter(at: position) }
      let commonEnd = UTF8Validation.skipCommonSequences(base, from: position, end: end)
      if commonEnd > position {
        appendToArena(base + position, count: commonEnd - position)
        position = commonEnd
        continue
      }
      position = try appendSequenceToArena(at: position)
    }
  }

  /// Appends the multibyte sequence at `position` to the arena, or U+FFFD
  /// for an ill-formed one or a noncharacter under `.looseUnicode`; returns
  /// the position after it.
  @inline(__always)
  mutating func appendSequenceToArena(at position: Int) throws(ScanFailure) -> Int {
    let (length, scalar) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
    if length > 0, !UTF8Validation.isNoncharacter(scalar) {
      appendToArena(base + position, count: length)
      return position + length
    }
    guard looseUnicode else { throw invalidScalar(length: length, scalar, at: position) }
    appendScalarToArena(0xFFFD)
    return position + abs(length)
  }

  /// Decodes the escape at `position` into the arena; returns the position after it.
  mutating func decodeEscape(at position: Int) throws(ScanFailure) -> Int {
    guard position + 1 < end else { throw unterminatedString(position) }
    let escaped = base[position + 1]
    let simple: UInt8
    switch escaped {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = escaped
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"):
      return try decodeUnicodeEscape(at: position)
    default:
      return try decodeEscapeOtherwise(at: position)
    }
    if Recording.recordsTape { state.arena.append(simple) }
    return position + 2
  }

  /// Decodes `\uXXXX`, or a surrogate pair of two such escapes.
  mutating func decodeUnicodeEscape(at position: Int) throws(ScanFailure) -> Int {
    let unit = try hexQuad(at: position + 2, escapeAt: position)
    var scalar = UInt32(unit)
    var next = position + 6
    if unit & 0xF800 == 0xD800 {
      // A high surrogate needs a low one right after it; a low one alone is unpaired.
      var paired = false
      if unit < 0xDC00, next + 1 < end, base[next] == UInt8(ascii: "\\"),
        base[next + 1] == UInt8(ascii: "u")
      {
        let low = try hexQuad(at: next + 2, escapeAt: next)
        if low & 0xFC00 == 0xDC00 {
          scalar = 0x10000 + (UInt32(unit - 0xD800) << 10 | UInt32(low - 0xDC00))
          next += 6
          paired = true
        }
      }
      if !paired {
        guard looseUnicode else {
          throw ScanFailure(
            .unpairedSurrogate, "the escape \\u\(Self.hex4(unit)) is an unpaired surrogate",
            at: position)
        }
        appendScalarToArena(0xFFFD)
        return next
      }
    }
    if scalar == 0 || UTF8Validation.isNoncharacter(scalar) {
      guard looseUnicode else {
        throw scalar == 0
          ? ScanFailure(.nullCharacter, "U+0000 is not allowed in a string", at: position)
          : ScanFailure(
            .noncharacter, "the noncharacter \(Self.hex(scalar)) in a string", at: position)
      }
      scalar = 0xFFFD
    }
    appendScalarToArena(scalar)
    return next
  }

  /// The four hex digits at `position` as a UTF-16 code unit.
  func hexQuad(at position: Int, escapeAt escape: Int) throws(ScanFailure) -> UInt16 {
    guard position + 4 <= end else {
      throw ScanFailure(.invalidEscape, "a \\u escape needs four hex digits", at: escape)
    }
    var unit: UInt16 = 0
    for offset in 0..<4 {
      let byte = base[position + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw ScanFailure(.invalidEscape, "a \\u escape needs four hex digits", at: escape)
      }
      unit = unit << 4 | UInt16(digit)
    }
    return unit
  }

  /// Ends a string unescaped into the arena from `start`: stores its
  /// length in the entry's 8-byte header and leaves `index` after the
  /// closing quote at `position`.
  @inline(__always)
  mutating func finishArenaString(start: Int, closingQuoteAt position: Int) -> StringSpan {
    index = position + 1
    guard Recording.recordsTape else { return StringSpan(start: 0, length: 0, inArena: true) }
    let length = state.arena.count - start - 8
    UnsafeMutableRawPointer(state.arena.base + start).storeBytes(
      of: UInt64(length), as: UInt64.self)
    return StringSpan(start: start, length: length, inArena: true)
  }

  @inline(__always)
  mutating func appendToArena(_ bytes: UnsafePointer<UInt8>, count: Int) {
    guard Recording.recordsTape else { return }
    state.arena.reserve(count).update(from: bytes, count: count)
    state.arena.count += count
  }

  mutating func appendScalarToArena(_ scalar: UInt32) {
    guard Recording.recordsTape else { return }
    let destination = state.arena.reserve(4)
    state.arena.count += ScanPrimitives.encodeUTF8(scalar, into: destination)
  }

  // MARK: - Numbers

  /// Scans a number per RFC 8259's grammar. Integer literals that fit 64 bits
  /// become `int`/`uint`; `-0` and every literal with a fraction or exponent
  /// become a correctly rounded `double`.
  @inline(__always)
  private mutating func scanNumber() throws(ScanFailure) {
    let start = index
    var position = index
    let negative = base[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    guard position < end, DecimalDigits.isDigit(base[position]) else {
      if json5 { return try scanJSON5Number(from: start) }
      throw ScanFailure(
        .invalidNumber, "expected a digit in a number\(optionHint(at: position))", at: position)
    }
    var significand: UInt64 = 0
    let integerStart = position
    if base[position] == UInt8(ascii: "0") {
      position += 1
      if position < end,
        DecimalDigits.isDigit(base[position]) || base[position] | 0x20 == UInt8(ascii: "x")
      {
        if json5 { return try scanJSON5Number(from: start) }
        throw leadingZero(at: integerStart)
      }
    } else {
      position = DecimalDigits.accumulateDigits(base, from: position, end: end, into: &significand)
    }
    let integerDigits = position - integerStart
    var fractionDigits = 0
    var isInteger = true
    if position < end, base[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      let fractionStart = position
      position = DecimalDigits.accumulateDigits(base, from: position, end: end, into: &significand)
      fractionDigits = position - fractionStart
      guard fractionDigits > 0 else {
        if json5 { return try scanJSON5Number(from: start) }
        throw ScanFailure(
          .invalidNumber,
          "expected a digit after the decimal point\(optionHint(trailingPointAt: position - 1))",
          at: position)
      }
    }
    var exponent = 0
    if position < end, base[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      var exponentNegative = false
      if position < end, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")
      {
        exponentNegative = base[position] == UInt8(ascii: "-")
        position += 1
      }
      guard position < end, DecimalDigits.isDigit(base[position]) else {
        throw ScanFailure(.invalidNumber, "expected a digit in the exponent", at: position)
      }
      while position < end, DecimalDigits.isDigit(base[position]) {
        // Saturate: any exponent this large already decides the outcome.
        if exponent < 100_000_000 { exponent = exponent * 10 + Int(base[position] &- 0x30) }
        position += 1
      }
      if exponentNegative { exponent = -exponent }
    }
    index = position
    let digits = integerDigits + fractionDigits

    if isInteger {
      if digits <= 19 || DecimalDigits.fitsUInt64(base + integerStart, count: digits) {
        // A negative one may still be out of range: only past Int64.min.
        if !Recording.recordsTape, !negative || digits < 19 { return }
        if digits > 19 {
          significand = DecimalDigits.parseUInt64(base + integerStart, count: digits)
        }
        if !negative {
          let kind: TapeEntry.Kind = significand > UInt64(Int64.max) ? .uint : .int
          state.tape.append(TapeEntry(kind, offset: start, payload: significand))
          return
        }
        if significand == 0 {
          if Recording.recordsTape {
            state.tape.append(
              TapeEntry(.double, offset: start, payload: (-0.0 as Double).bitPattern))
          }
          return
        }
        if significand <= UInt64(Int64.max) + 1 {
          let value = 0 &- significand  // two's complement of the magnitude
          if Recording.recordsTape {
            state.tape.append(TapeEntry(.int, offset: start, payload: value))
          }
          return
        }
      }
      guard configuration.allowsBigIntegers else {
        throw ScanFailure(
          .integerOutOfRange,
          "the integer does not fit \(negative ? "Int64" : "UInt64")", at: start)
      }
      if Recording.recordsTape {
        state.tape.append(TapeEntry(.bigInteger, offset: start, payload: UInt64(position - start)))
      }
      return
    }

    // Below 10^19 times at most 10^280, above 10^-280: neither overflow nor
    // underflow is possible, and validation needs no value.
    if !Recording.recordsTape, digits <= 19, (-280...280).contains(exponent - fractionDigits) {
      return
    }
    let text = UnsafeRawBufferPointer(start: base + start, count: position - start)
    let outcome =
      digits <= 19
      ? DecimalToDouble.convert(
        significand: significand, exponent: exponent - fractionDigits, negative: negative,
        truncated: false, text: text)
      : DecimalToDouble.convert(text: text)
    let entry = try doubleEntry(outcome, at: start)
    if Recording.recordsTape { state.tape.append(entry) }
  }

  /// The tape entry of a converted Double, or the error for one beyond
  /// Double's range.
  @inline(__always)
  func doubleEntry(_ outcome: DecimalToDouble.Outcome, at start: Int, flags: UInt8 = 0)
    throws(ScanFailure) -> TapeEntry
  {
    switch outcome {
    case .value(let value):
      return TapeEntry(.double, flags: flags, offset: start, payload: value.bitPattern)
    case .overflow:
      throw ScanFailure(.numberOverflow, "the number is too large for a Double", at: start)
    case .underflow:
      throw ScanFailure(
        .numberUnderflow, "the number is too small for a Double and would become zero", at: start)
    }
  }

  // MARK: - Errors

  func endOfInput(_ expected: String) -> ScanFailure {
    ScanFailure(.unexpectedEndOfInput, "unexpected end of input, expected \(expected)", at: index)
  }

  func unexpected(_ expected: String) -> ScanFailure {
    ScanFailure(
      .unexpectedCharacter,
      "expected \(expected), found \(describe(at: index))\(optionHint(at: index))", at: index)
  }

  func unterminatedString(_ quote: Int) -> ScanFailure {
    ScanFailure(.unterminated, "a string is never closed", at: quote)
  }

  /// The error for a sequence that ``UTF8Validation/decodeMultibyte(_:at:end:)``
  /// found ill-formed (a negative length) or a noncharacter.
  func invalidScalar(length: Int, _ scalar: UInt32, at position: Int) -> ScanFailure {
    length > 0
      ? ScanFailure(.noncharacter, "the noncharacter \(Self.hex(scalar)) in a string", at: position)
      : ScanFailure(.invalidUTF8, "ill-formed UTF-8 in a string", at: position)
  }

  func controlCharacter(at position: Int) -> ScanFailure {
    ScanFailure(
      .unescapedControlCharacter,
      "the control character \(Self.hex(UInt32(base[position]))) must be escaped in a string",
      at: position)
  }

  func describe(at position: Int) -> String {
    "'\(describeByte(base[position]))'"
  }

  func describeByte(_ byte: UInt8) -> String {
    if byte >= 0x20, byte < 0x7F { return String(UnicodeScalar(byte)) }
    return "\\x" + String(byte, radix: 16, uppercase: true)
  }

  static func hex4(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  static func hex(_ scalar: UInt32) -> String {
    let digits = String(scalar, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension Scanner where Recording == TapeRecording {
  /// Scans `input` onto the tape of `context`, replacing what was there
  /// (on return the root value is entry 0), or after it when `appending`,
  /// with offsets in `region` (see
  /// ``run(_:into:configuration:within:appending:)``).
  @inline(__always)
  static func scan(
    _ input: UnsafeRawBufferPointer, into context: ScanContext, configuration: ScanConfiguration,
    within region: UnsafeRawBufferPointer? = nil, appending: Bool = false
  ) throws(JKParseError) {
    try run(
      input, into: context, configuration: configuration, within: region, appending: appending)
  }
}

extension Scanner where Recording == TapeRecording {
  /// The block of memory from the first record's start to the last one's
  /// end, within which a batch of records is scanned onto one tape (see
  /// ``run(_:into:configuration:within:appending:)``): when the records
  /// `bytes(i)` lie in it in order and none is empty; nil otherwise.
  static func region(
    of records: Range<Int>, _ bytes: (Int) -> UnsafeRawBufferPointer
  ) -> UnsafeRawBufferPointer? {
    var start: UnsafeRawPointer?
    var end: UnsafeRawPointer?
    for index in records {
      let record = bytes(index)
      guard let base = record.baseAddress, record.count > 0, base >= end ?? base else {
        return nil
      }
      start = start ?? base
      end = base + record.count
    }
    // Offsets in the block must fit the tape's 32 bits, as a document's do.
    guard let start, let end, end - start < Int(UInt32.max) else { return nil }
    return UnsafeRawBufferPointer(start: start, count: end - start)
  }

  /// Scans the records `bytes(i)` (UTF-8 as it is) within `region` onto the
  /// tape of `context`, each after the one before, adding each one's root
  /// to `roots`; stops at the first that fails, whose index and error,
  /// placed in the record, it returns.
  static func scanRecords(
    _ records: Range<Int>, _ bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, into context: ScanContext,
    configuration: ScanConfiguration, roots: inout [Int]
  ) -> (index: Int, error: JKParseError)? {
    guard !records.isEmpty else { return nil }
    guard let regionStart = region.baseAddress, region.count > 0 else {
      return (records.lowerBound, emptyInput(bytes(records.lowerBound)))
    }
    // A batch's region is smaller (see ``region(of:_:)``); a record read
    // alone is its own region.
    guard region.count < Int(UInt32.max) else {
      let record = bytes(records.lowerBound)
      return (records.lowerBound, InputText(utf8: record).relocated(inputTooLarge(record)))
    }
    // One scanner for the batch, each record scanned as a document of its
    // own in it, as `InputText.scan` would scan it.
    return withScanner(
      over: regionStart, count: region.count, context: context, configuration: configuration
    ) { scanner in
      for index in records {
        let appending = index != records.lowerBound
        let root = appending ? scanner.pointee.state.tape.count : 0
        let record = bytes(index)
        guard let recordStart = record.baseAddress, record.count > 0 else {
          return (index, emptyInput(record))
        }
        let start = recordStart - regionStart
        scanner.pointee.index = start
        scanner.pointee.end = start + record.count
        do throws(JKParseError) {
          try scanner.pointee.scan(record, appending: appending)
        } catch {
          return (index, InputText(utf8: record).relocated(error))
        }
        roots.append(root)
      }
      return nil
    }
  }
}

extension Scanner where Recording == NoRecording {
  /// Checks `input` as ``Scanner/scan(_:into:configuration:)`` would, with the
  /// same answer and the same error, writing nothing but the stack of open
  /// containers of `context`.
  @inline(__always)
  static func validate(
    _ input: UnsafeRawBufferPointer, with context: ScanContext, configuration: ScanConfiguration
  ) throws(JKParseError) {
    try run(input, into: context, configuration: configuration)
  }
}

/// A scan error before its line and column are known (the scanner throws
/// this cheap value; the entry point turns it into a ``JKParseError``).
struct ScanFailure: Error {
  var kind: JKParseError.Kind
  var message: String
  var offset: Int

  init(_ kind: JKParseError.Kind, _ message: String, at offset: Int) {
    self.kind = kind
    self.message = message
    self.offset = offset
  }
}
