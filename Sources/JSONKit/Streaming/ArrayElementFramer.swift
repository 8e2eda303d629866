import Foundation

/// Frames the elements of one top-level JSON array, a chunk at a time.
///
/// It follows only what decides where an element ends: strings and their
/// escapes (single-quoted ones too in JSON5), the depth of brackets and
/// braces, comments when they are allowed, and the commas (a trailing one
/// when allowed) and whitespace between elements. Everything
/// else (Unicode, numbers, literals, matching brackets) is the scanner's to
/// check when it reads the element; but for the UTF-8 of comments between
/// elements, which no element holds, and which the framer checks as the
/// scanner checks a whole document's. Its state lives in the value, so a
/// chunk may end at any byte, inside a string, an escape or a
/// multi-byte character.
///
/// Lines and columns are counted as it goes (columns in Unicode scalars up
/// to each element's start), because the bytes before a record are gone by
/// the time an error inside the record is reported.
///
/// With `runs`, and only strict JSON between elements, it leaves finding
/// where elements end to the scanner, which reads them anyway: at the
/// start of a batch it gives the bytes held from the next element on as
/// one run (``RecordPlace/beginsRun``), and takes up where the scanner
/// stopped (``endRun(_:in:)``). An element the scanner could not take
/// whole (cut off by the end of the bytes held, too long, or in error)
/// it then reads as above, on its own.
struct ArrayElementFramer: RecordFramer {
  private enum Stage {
    case beforeArray, afterOpen, afterComma, inElement, afterElement, afterArray, ignoringRest
  }

  /// What may stand between tokens beyond JSON's whitespace, as the
  /// scanner reads it.
  private let lexicalRules: LexicalRules
  /// Whether `'` opens a string, as in JSON5.
  private let singleQuotes: Bool
  private let allowsTrailingComma: Bool
  private let permitsTextAfterArray: Bool
  /// Whether ill-formed UTF-8 passes (`.looseUnicode`): in a comment, and
  /// in the columns counted.
  private let looseUnicode: Bool
  private let maxDepth: Int
  /// Whether elements are given in runs for the scanner to frame.
  private let runs: Bool
  /// How many runs in a row took no element.
  private var emptyRuns = 0
  /// How many elements are still read here, byte by byte, before a run is
  /// tried again: the one a run stopped at, or after two runs in a row
  /// took nothing, as when a stream brings one element at a time (an async
  /// sequence of bytes), whose elements a run would scan twice, a batch's
  /// worth.
  private var elementsBeforeRuns = 0

  private var stage = Stage.beforeArray
  private var comment = LexicalRules.Comment.none
  private var commentStart = 0
  private var commentLine = 1
  private var commentColumn = 1
  /// Bytes before this stream offset have been looked at.
  private var scanned = 0

  private var elementStart = 0
  private var elementLine = 1
  private var elementColumn = 1
  private var index = 0
  private var depth = 0
  private var inString = false
  /// The byte that closes the string being read.
  private var quote = UInt8(ascii: "\"")
  private var escaped = false
  private var isScalar = false

  private var line = 1
  private var lastCarriageReturn = -2
  /// The Unicode scalars on the current line before `counted`.
  private var columnsBefore = 0
  private var counted = 0

  /// A framer for a stream read with `options`; with `runs`, one whose
  /// reader scans runs of elements (see ``ElementRunEnd``).
  init(options: JKParseOptions, maxDepth: Int, runs: Bool = false) {
    self.maxDepth = maxDepth
    let json5 = options.contains(.json5)
    lexicalRules = LexicalRules(options)
    self.runs = runs && !json5 && !lexicalRules.allowsMoreThanJSON
    singleQuotes = json5
    allowsTrailingComma = json5 || options.contains(.trailingCommas)
    permitsTextAfterArray = options.contains(.permitTextAfterValidJSON)
    looseUnicode = options.contains(.looseUnicode)
  }

  var pendingStart: Int {
    if stage == .inElement { return elementStart }
    // A '/' that may not begin a comment is reported with what follows it.
    return comment == .slash ? commentStart : scanned
  }

  /// Up to two bytes of a byte order mark, held at the stream's start
  /// until its third byte comes (or the stream ends).
  var unlimitedPrefix: Int { stage == .beforeArray && scanned == 0 ? 2 : 0 }

  mutating func willDiscard(in buffer: StreamBuffer, upTo offset: Int) {
    if counted < offset { _ = column(at: offset, in: buffer) }
  }

  func oversized(limit: Int) -> JKParseError {
    .recordTooLarge(elementPlace, limit: limit)
  }

  private var elementPlace: RecordPlace {
    RecordPlace(
      kind: .arrayElement, ordinal: index, offset: elementStart, line: elementLine,
      column: elementColumn)
  }

  mutating func nextRecord(in buffer: StreamBuffer, atEnd: Bool, startingBatch: Bool)
    throws(JKParseError) -> FramedRecord?
  {
    let origin = buffer.origin
    let base = UnsafePointer(buffer.storage)
    let end = buffer.count
    var position = scanned - origin
    if stage == .beforeArray, scanned == 0 {
      // A byte order mark, as the scanner skips one, possibly split.
      let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
      let held = Swift.min(end, 3)
      if held > 0, (0..<held).allSatisfy({ base[$0] == bom[$0] }) {
        if held < 3 {
          if !atEnd { return nil }
        } else {
          position = 3
        }
      }
    }
    while position < end {
      if comment != .none {
        if base[position] >= 0x80, comment != .slash, stage != .inElement,
          stage != .afterArray || !permitsTextAfterArray,
          !(atEnd && position == end - 1 && comment.isBlock)
        {
          // A multi-byte character in a comment between elements, checked
          // as the scanner checks one: not inside an element (the scanner
          // reads that comment itself), not after the array when text may
          // follow it (the scanner reads none), and not in the last byte
          // of a block comment that the input ends in (the scanner reports
          // the comment unclosed).
          let length = UTF8Validation.sequenceLength(lead: base[position])
          if length > 0, position + length > end, !atEnd {
            scanned = origin + position
            return nil
          }
          let (decoded, _) = UTF8Validation.decodeMultibyte(base, at: position, end: end)
          guard decoded > 0 || looseUnicode else {
            throw failure(
              .invalidUTF8, "ill-formed UTF-8 in a comment", at: origin + position, in: buffer)
          }
          _ = comment.advance(base[position])  // one character of the comment
          position += abs(decoded)
          continue
        }
        if try advanceComment(base[position], at: position, in: buffer) { position += 1 }
        continue
      }
      switch stage {
      case .inElement:
        let (stop, reason) = readElement(
          base, from: position, end: end, origin: origin, atEnd: atEnd)
        position = stop
        switch reason {
        case .ended: return finishElement(at: origin + position)
        case .comment:
          openComment(at: origin + position, in: buffer)
          position += 1
        case .needsBytes:
          scanned = origin + position
          return nil
        case .endOfBytes: break
        }
      case .ignoringRest:
        position = end
      case .afterArray where permitsTextAfterArray:
        // Whatever follows the array is ignored, as the scanner ignores
        // what follows a value: even a '/' that begins no comment.
        stage = .ignoringRest
      default:
        let byte = base[position]
        if lexicalRules.isWhitespace(byte) {
          noteLineBreak(byte, at: origin + position)
          position += 1
          continue
        }
        if lexicalRules.allowsUnicodeNewlines, byte == 0xC2 || byte == 0xE2 {
          let length = LexicalRules.unicodeNewlineLength(base, at: position, end: end)
          if length > 0 {
            position += length
            continue
          }
          // Part of what may be a Unicode newline: wait for the rest.
          if length < 0, !atEnd {
            scanned = origin + position
            return nil
          }
        }
        if byte == UInt8(ascii: "/"), lexicalRules.allowsComments {
          openComment(at: origin + position, in: buffer)
          position += 1
          continue
        }
        if runs, elementsBeforeRuns == 0, stage == .afterOpen || stage == .afterComma,
          byte != UInt8(ascii: "]")
        {
          // An element starts here: the scanner finds where it and those
          // after it end. A later record of a batch ends the batch instead.
          scanned = origin + position
          guard startingBatch else { return nil }
          return FramedRecord(start: scanned, end: buffer.end, place: runPlace(in: buffer))
        }
        try structural(byte, at: origin + position, in: buffer)
        position += 1
      }
    }
    scanned = origin + position
    guard atEnd else { return nil }
    return try finish(in: buffer)
  }

  /// Why ``readElement(_:from:end:origin:atEnd:)`` stopped.
  private enum ElementStop {
    /// The element ends before the position returned.
    case ended
    /// The bytes held ran out inside the element.
    case endOfBytes
    /// A `/` that may open a comment is at the position returned.
    case comment
    /// What may be a Unicode newline ending a number or literal is cut
    /// short at the position returned; more bytes decide.
    case needsBytes
  }

  /// Runs through an element's bytes from `start`, with the element's
  /// state in locals and string bodies skipped eight bytes at a time: this
  /// loop is where a stream of large elements spends its framing time.
  private mutating func readElement(
    _ base: UnsafePointer<UInt8>, from start: Int, end: Int, origin: Int, atEnd: Bool
  ) -> (position: Int, stop: ElementStop) {
    var position = start
    var depth = self.depth
    var inString = self.inString
    var escaped = self.escaped
    defer {
      self.depth = depth
      self.inString = inString
      self.escaped = escaped
    }
    while position < end {
      if inString {
        if escaped {
          escaped = false
          noteLineBreak(base[position], at: origin + position)
          position += 1
          continue
        }
        position = Self.skipToQuoteOrBackslash(base, from: position, end: end, quote: quote)
        guard position < end else { break }
        position += 1
        if base[position - 1] == UInt8(ascii: "\\") {
          escaped = true
          continue
        }
        inString = false
        if depth == 0 { return (position, .ended) }
        continue
      }
      if !isScalar {
        // Inside a container, outside strings, only a few bytes matter.
        while position < end, !Self.mattersInContainer(base[position]) { position &+= 1 }
        guard position < end else { break }
      }
      let byte = base[position]
      if isScalar {
        if isScalarDelimiter(byte) { return (position, .ended) }
        if lexicalRules.allowsUnicodeNewlines, byte == 0xC2 || byte == 0xE2 {
          let length = LexicalRules.unicodeNewlineLength(base, at: position, end: end)
          if length > 0 { return (position, .ended) }
          if length < 0, !atEnd { return (position, .needsBytes) }
        }
        position += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        quote = byte
      case UInt8(ascii: "'") where singleQuotes:
        inString = true
        quote = byte
      case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        if depth == 0 { return (position + 1, .ended) }
      case 0x0A, 0x0D: noteLineBreak(byte, at: origin + position)
      case UInt8(ascii: "/") where lexicalRules.allowsComments: return (position, .comment)
      default: break
      }
      position += 1
    }
    return (position, .endOfBytes)
  }

  /// Takes a byte between elements: the array's opening bracket, a comma,
  /// the closing bracket, or an element's first byte.
  private mutating func structural(_ byte: UInt8, at offset: Int, in buffer: StreamBuffer)
    throws(JKParseError)
  {
    switch stage {
    case .beforeArray:
      guard byte == UInt8(ascii: "[") else {
        throw failure(
          .unexpectedCharacter, "expected '[' to open an array, found \(describe(byte))",
          at: offset, in: buffer)
      }
      guard maxDepth >= 1 else {
        throw failure(
          .tooDeeplyNested, "arrays and objects are nested more than \(maxDepth) deep",
          at: offset, in: buffer)
      }
      stage = .afterOpen
    case .afterOpen, .afterComma:
      if byte == UInt8(ascii: "]"), stage == .afterOpen {
        stage = .afterArray
        return
      }
      if byte == UInt8(ascii: "]"), allowsTrailingComma {
        stage = .afterArray
        return
      }
      if byte == UInt8(ascii: "]") {
        throw failure(
          .unexpectedCharacter, Scanner.trailingCommaMessage(before: "]"), at: offset, in: buffer)
      }
      elementStart = offset
      elementLine = line
      elementColumn = column(at: offset, in: buffer)
      stage = .inElement
      escaped = false
      inString = byte == UInt8(ascii: "\"") || (singleQuotes && byte == UInt8(ascii: "'"))
      quote = byte
      depth = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") ? 1 : 0
      isScalar = !inString && depth == 0
    case .afterElement:
      switch byte {
      case UInt8(ascii: ","): stage = .afterComma
      case UInt8(ascii: "]"): stage = .afterArray
      default:
        throw failure(
          .unexpectedCharacter,
          "expected ',' or ']' after an array element, found \(describe(byte))", at: offset,
          in: buffer)
      }
    case .afterArray:
      if permitsTextAfterArray {
        stage = .ignoringRest
        return
      }
      throw failure(
        .textAfterValue, "unexpected \(describe(byte)) after the value", at: offset, in: buffer)
    case .inElement, .ignoringRest:
      break
    }
  }

  /// Notes a `/` that may begin a comment, and its place, which an error
  /// about the comment names once the bytes are gone.
  private mutating func openComment(at offset: Int, in buffer: StreamBuffer) {
    comment = .slash
    commentStart = offset
    commentLine = line
    commentColumn = column(at: offset, in: buffer)
  }

  /// Takes a byte inside a comment (or just after a `/`); returns whether
  /// it was consumed.
  private mutating func advanceComment(_ byte: UInt8, at position: Int, in buffer: StreamBuffer)
    throws(JKParseError) -> Bool
  {
    let followsSlash = comment == .slash
    guard comment.advance(byte) else {
      // Inside an element a stray '/' is the scanner's to report.
      if followsSlash, stage != .inElement { throw strayCommentSlash(in: buffer) }
      return false
    }
    if comment.isBlock { noteLineBreak(byte, at: buffer.origin + position) }
    return true
  }

  /// What the end of the stream means where the framer stands.
  private mutating func finish(in buffer: StreamBuffer) throws(JKParseError) -> FramedRecord? {
    switch comment {
    case .block, .blockStar:
      throw failure(
        .unterminated, "a '/*' comment is never closed", at: commentStart, in: buffer,
        place: (commentLine, commentColumn))
    case .slash where stage != .inElement:
      throw strayCommentSlash(in: buffer)
    default:
      break
    }
    let end = buffer.end
    switch stage {
    case .inElement:
      // An unfinished element: the scanner says what is missing.
      return finishElement(at: end)
    case .beforeArray:
      throw failure(.emptyInput, "the input holds no value", at: end, in: buffer)
    case .afterOpen, .afterComma:
      throw failure(
        .unexpectedEndOfInput, "unexpected end of input, expected a value", at: end, in: buffer)
    case .afterElement:
      throw failure(
        .unexpectedEndOfInput,
        "unexpected end of input, expected ',' or ']' after an array element", at: end,
        in: buffer)
    case .afterArray, .ignoringRest:
      return nil
    }
  }

  private mutating func finishElement(at end: Int) -> FramedRecord {
    let record = FramedRecord(start: elementStart, end: end, place: elementPlace)
    if elementsBeforeRuns > 0 { elementsBeforeRuns -= 1 }
    index += 1
    stage = .afterElement
    scanned = end
    return record
  }

  /// The place of the run that starts at `scanned`: its first element's.
  private mutating func runPlace(in buffer: StreamBuffer) -> RecordPlace {
    var place = RecordPlace(
      kind: .arrayElement, ordinal: index, offset: scanned, line: line,
      column: column(at: scanned, in: buffer))
    place.beginsRun = true
    return place
  }

  mutating func endRun(_ end: ElementRunEnd, in buffer: StreamBuffer) {
    emptyRuns = end.elements == 0 ? emptyRuns + 1 : 0
    if emptyRuns >= 2 {
      emptyRuns = 0
      elementsBeforeRuns = StreamBatch.records
    } else if end.stoppedAtTrouble {
      elementsBeforeRuns = 1
    }
    guard end.elements > 0 else { return }
    let resume = scanned + end.resume
    noteLineBreaks(from: scanned, to: resume, in: buffer)
    index += end.elements
    scanned = resume
    stage = end.afterComma ? .afterComma : .afterElement
  }

  private mutating func strayCommentSlash(in buffer: StreamBuffer) -> JKParseError {
    failure(
      .unexpectedCharacter, "expected a comment after '/', found \(describe(0x2F))",
      at: commentStart, in: buffer, place: (commentLine, commentColumn))
  }

  // MARK: - Bytes

  /// The index of the first `quote` or backslash at or after `start`, or
  /// `end`: nothing else inside a string can end it, so the string's other
  /// bytes (non-ASCII ones included, which the scanner checks) are passed
  /// over eight at a time.
  @inline(__always)
  private static func skipToQuoteOrBackslash(
    _ base: UnsafePointer<UInt8>, from start: Int, end: Int, quote: UInt8
  ) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = ones &* UInt64(quote)
    let backslashes = ones &* 0x5C
    let raw = UnsafeRawPointer(base)
    var position = start
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let quoteLanes = word ^ quotes
      let backslashLanes = word ^ backslashes
      // A zero lane is a match; lanes above the first may be flagged
      // falsely by a borrow, and only the lowest is used.
      let mask =
        ((quoteLanes &- ones) & ~quoteLanes | (backslashLanes &- ones) & ~backslashLanes) & highs
      if mask != 0 { return position + mask.trailingZeroBitCount >> 3 }
      position += 8
    }
    while position < end, base[position] != quote, base[position] != UInt8(ascii: "\\") {
      position += 1
    }
    return position
  }

  /// Whether `byte` can matter inside a container outside strings: a quote
  /// of either kind, a bracket or brace, `/`, a line feed or a carriage
  /// return. Numbers, literals, colons, commas and spaces are passed over.
  @inline(__always)
  private static func mattersInContainer(_ byte: UInt8) -> Bool {
    // Bit `b & 63` of the word for `b >> 6` (0 or 1; every such byte is
    // below 0x80).
    let low: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x22 | 1 << 0x27 | 1 << 0x2F
    let high: UInt64 = 1 << (0x5B - 64) | 1 << (0x5D - 64) | 1 << (0x7B - 64) | 1 << (0x7D - 64)
    let word = byte < 64 ? low : byte < 128 ? high : 0
    return word >> UInt64(byte & 63) & 1 != 0
  }

  /// Whether `byte` ends a number or literal element: whatever cannot
  /// continue one and can follow a value.
  private func isScalarDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "["),
      UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "/"):
      true
    case UInt8(ascii: "'"): singleQuotes
    default: lexicalRules.isWhitespace(byte)
    }
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x20, byte < 0x7F { return "'\(String(UnicodeScalar(byte)))'" }
    return "'\\x" + String(byte, radix: 16, uppercase: true) + "'"
  }

  // MARK: - Lines and columns

  /// Counts a line break as `SourcePosition` does: CR, LF and CRLF each end
  /// one line.
  @inline(__always)
  private mutating func noteLineBreak(_ byte: UInt8, at offset: Int) {
    guard byte == 0x0A || byte == 0x0D else { return }
    if byte == 0x0D || lastCarriageReturn != offset - 1 { line += 1 }
    if byte == 0x0D { lastCarriageReturn = offset }
    columnsBefore = 0
    counted = offset + 1
  }

  /// Counts the line breaks of the bytes from stream offset `start` to
  /// `end`, which the scanner read: the C library finds each (most runs
  /// hold none, and it passes over them many bytes at a time).
  private mutating func noteLineBreaks(from start: Int, to end: Int, in buffer: StreamBuffer) {
    let bytes = buffer.bytes(from: start, to: end)
    guard let base = bytes.baseAddress else { return }
    func next(_ byte: UInt8, from position: Int) -> Int {
      guard position < bytes.count,
        let found = memchr(base + position, Int32(byte), bytes.count - position)
      else { return bytes.count }
      return UnsafeRawPointer(found) - base
    }
    var feed = next(0x0A, from: 0)
    var carriageReturn = next(0x0D, from: 0)
    while feed < bytes.count || carriageReturn < bytes.count {
      let position = Swift.min(feed, carriageReturn)
      noteLineBreak(bytes[position], at: start + position)
      if position == feed { feed = next(0x0A, from: position + 1) }
      if position == carriageReturn { carriageReturn = next(0x0D, from: position + 1) }
    }
  }

  /// The column of stream offset `offset` on the current line, counting
  /// the scalars not yet counted (each byte that does not continue a
  /// multi-byte sequence starts one; under `.looseUnicode`, each byte of an
  /// ill-formed sequence too).
  private mutating func column(at offset: Int, in buffer: StreamBuffer) -> Int {
    if counted < offset {
      let from = Swift.max(counted, buffer.origin)
      if looseUnicode {
        // Ill-formed bytes may be let through, each a column of its own, as
        // an error in the whole input counts them.
        let held = buffer.bytes(from: buffer.origin, to: buffer.end)
        columnsBefore += SourcePosition.columns(
          in: held, from: from - buffer.origin, to: offset - buffer.origin)
      } else {
        columnsBefore += Self.scalarStarts(in: buffer.bytes(from: from, to: offset))
      }
      counted = offset
    }
    return columnsBefore + 1
  }

  /// How many bytes of `bytes` start a scalar, counted sixteen at a time:
  /// every element's column is counted so, over every byte of a stream
  /// written on one line.
  private static func scalarStarts(in bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    // A continuation byte is 10xxxxxx: read as signed, below -64.
    let continuationBelow = SIMD16<Int8>(repeating: -64)
    var continuations = 0
    var position = 0
    while position &+ 16 <= bytes.count {
      // Up to 255 blocks are counted lane by lane (a true compare is all
      // ones, so subtracting it adds one), then the lanes are summed by
      // multiplications: the baseline x86-64 has no population count
      // instruction.
      var lanes = SIMD16<UInt8>()
      let stop = Swift.min(bytes.count, position &+ 255 &* 16)
      while position &+ 16 <= stop {
        let block = base.loadUnaligned(fromByteOffset: position, as: SIMD16<Int8>.self)
        lanes &-= unsafeBitCast(block .< continuationBelow, to: SIMD16<UInt8>.self)
        position &+= 16
      }
      let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
      continuations &+= Self.laneSum(halves[0]) &+ Self.laneSum(halves[1])
    }
    while position < bytes.count {
      if bytes[position] & 0xC0 == 0x80 { continuations += 1 }
      position += 1
    }
    return bytes.count - continuations
  }

  /// The sum of the eight bytes of `lanes`: pairs of lanes in 16 bits, then
  /// those four summed into the top 16 by one multiplication.
  @inline(__always)
  private static func laneSum(_ lanes: UInt64) -> Int {
    let lanePairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ (lanes >> 8 & 0x00FF_00FF_00FF_00FF)
    return Int(truncatingIfNeeded: (lanePairs &* 0x0001_0001_0001_0001) >> 48)
  }

  /// The error at `offset`, on the current line unless `place` says
  /// where.
  private mutating func failure(
    _ kind: JKParseError.Kind, _ message: String, at offset: Int, in buffer: StreamBuffer,
    place: (line: Int, column: Int)? = nil
  ) -> JKParseError {
    let (line, column) = place ?? (line, column(at: Swift.min(offset, buffer.end), in: buffer))
    let from = Swift.min(
      Swift.max(buffer.origin, offset - SourcePosition.excerptRadius), buffer.end)
    let to = Swift.max(from, Swift.min(buffer.end, offset + SourcePosition.excerptRadius))
    let window = buffer.bytes(from: from, to: to)
    let excerpt = SourcePosition(offset: offset - from, in: window).excerpt
    return JKParseError(
      kind, message, offset: offset, line: line, column: column, excerpt: excerpt)
  }
}
