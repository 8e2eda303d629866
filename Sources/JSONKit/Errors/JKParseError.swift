/// The error JSONKit throws when its input is not JSON it accepts.
///
/// It says what went wrong (``kind`` and ``description``), where (``offset``,
/// ``line``, ``column``) and shows the input around that place (``excerpt``):
///
/// ```swift
/// do {
///   _ = try JSONValue(parsing: "{\"a\": tru}")
/// } catch let error as JKParseError {
///   print(error)
///   // Invalid literal, expected 'true' around line 1, column 7 (byte offset 6) near {"a": tru}
/// }
/// ```
///
/// The description words the place as Foundation's `JSONDecoder` does on
/// Apple platforms ("around line 1, column 7"), so that logs and searches
/// written for Foundation's errors find JSONKit's too, and adds the byte
/// offset and the excerpt.
public struct JKParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem the input has.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The input holds no value at all (nothing, or only whitespace).
    case emptyInput
    /// The input ends inside a value.
    case unexpectedEndOfInput
    /// A character that cannot appear here.
    case unexpectedCharacter
    /// A misspelled `true`, `false` or `null`.
    case invalidLiteral
    /// A number that does not follow JSON's grammar (`01`, `1.`, `-`, `1e`).
    case invalidNumber
    /// An integer literal that fits neither Int64 (negative) nor UInt64 (positive).
    case integerOutOfRange
    /// A number too large in magnitude for a Double.
    case numberOverflow
    /// A nonzero number too small in magnitude for a Double (it would become zero).
    case numberUnderflow
    /// A control character (U+0000 to U+001F) written raw inside a string.
    case unescapedControlCharacter
    /// A backslash escape JSON does not define, or a malformed `\u` escape.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate without its other half.
    case unpairedSurrogate
    /// Bytes that are not well-formed UTF-8.
    case invalidUTF8
    /// UTF-16 input that is not well-formed: an unpaired surrogate, or a
    /// byte left over at the end.
    case invalidUTF16
    /// UTF-32 input that is not well-formed: a surrogate, a unit above
    /// U+10FFFF, or bytes left over at the end.
    case invalidUTF32
    /// U+0000 in a string.
    case nullCharacter
    /// A Unicode noncharacter (U+FDD0 to U+FDEF, or U+nFFFE / U+nFFFF) in a string.
    case noncharacter
    /// A string or comment that is never closed.
    case unterminated
    /// Arrays and objects nested deeper than the configured limit.
    case tooDeeplyNested
    /// Something other than whitespace follows the value.
    case textAfterValue
    /// The input is larger than one document may be (4 GiB).
    case inputTooLarge
    /// gzip input whose compressed stream is corrupt or truncated, whose
    /// CRC-32 or length check fails, or that has other bytes after its last
    /// member. ``offset`` counts compressed bytes.
    case invalidGzip
    /// gzip input that inflates to more than the configured maximum
    /// (``JKDecompression/maxInflatedSize``). ``offset`` counts compressed
    /// bytes: how far inflation had read when it stopped.
    case inflatedTooLarge
  }

  /// What went wrong.
  public let kind: Kind
  /// A sentence that says what was expected and what was found.
  public let message: String
  /// The zero-based byte offset of the problem in the input: in UTF-16 or
  /// UTF-32 input, the offset of the code unit at fault in the bytes given
  /// (a byte order mark included). For gzip input, an offset into the
  /// inflated text, except for errors in the compressed stream itself
  /// (``isInCompressedInput``), whose offset counts compressed bytes.
  public let offset: Int
  /// The one-based line of the problem; CR, LF and CRLF each end a line.
  /// 0 for an error in compressed input, which has no lines.
  public let line: Int
  /// The one-based column of the problem, counted in Unicode scalars from the
  /// start of its line (each byte of ill-formed UTF-8, and each ill-formed
  /// code unit of UTF-16 or UTF-32 input, counts as one). 0 for an error in
  /// compressed input.
  public let column: Int
  /// The input around the problem, on the problem's line, with control
  /// characters and ill-formed bytes made visible (UTF-16 and UTF-32 input
  /// is shown as text, each ill-formed code unit as `\xFF`); empty for an
  /// error in compressed input.
  public let excerpt: String

  /// Whether the problem lies in compressed (gzip) input rather than in JSON
  /// text: then ``offset`` counts compressed bytes and there is no line,
  /// column or excerpt.
  public var isInCompressedInput: Bool {
    kind == .invalidGzip || kind == .inflatedTooLarge
  }

  /// Creates an error, working out the line, column and excerpt from the
  /// input, which is why the scanner need not count lines as it goes.
  init(_ kind: Kind, _ message: String, offset: Int, in input: UnsafeRawBufferPointer) {
    let location = JKInputLocation(offset: offset, in: input)
    self.init(
      kind, message, offset: offset, line: location.line, column: location.column,
      excerpt: location.excerpt)
  }

  /// An error whose place is already known: one moved from transcoded
  /// text to the caller's bytes, found while framing the records of a
  /// stream, or moved from a record into its stream.
  init(
    _ kind: Kind, _ message: String, offset: Int, line: Int, column: Int, excerpt: String
  ) {
    self.kind = kind
    self.message = message
    self.offset = offset
    self.line = line
    self.column = column
    self.excerpt = excerpt
  }

  /// An error in compressed input, at `offset` compressed bytes: binary
  /// data has no lines, columns or readable excerpt.
  init(compressed kind: Kind, _ message: String, offset: Int) {
    self.kind = kind
    self.message = message
    self.offset = offset
    self.line = 0
    self.column = 0
    self.excerpt = ""
  }

  /// `Message around line L, column C (byte offset N) near excerpt`: the
  /// message as a sentence, placed in Foundation's words; for an error in
  /// compressed input, `Message at compressed byte offset N`.
  public var description: String {
    let sentence = "\(message.prefix(1).uppercased())\(message.dropFirst())"
    if isInCompressedInput {
      return "\(sentence) at compressed byte offset \(offset)"
    }
    return
      "\(sentence) around line \(line), column \(column) (byte offset \(offset)) near \(excerpt)"
  }
}

/// Line, column and excerpt of a byte offset, computed only when an error is
/// reported.
struct SourcePosition {
  var line = 1
  var column = 1
  var excerpt = ""

  /// The widest stretch of the line shown on each side of the offset, in bytes.
  static let excerptRadius = 24

  init(offset: Int, in input: UnsafeRawBufferPointer) {
    let offset = min(max(offset, 0), input.count)
    var lineStart = 0
    var index = 0
    while index < offset {
      let byte = input[index]
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0D, index + 1 < offset, input[index + 1] == 0x0A {
          index += 1
        }
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    column += Self.columns(in: input, from: lineStart, to: offset)
    var lineEnd = offset
    while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D {
      lineEnd += 1
    }
    var from = max(lineStart, offset - Self.excerptRadius)
    var to = min(lineEnd, offset + Self.excerptRadius)
    while from > lineStart, from < input.count, Self.isContinuation(of: input, at: from) {
      from -= 1
    }
    while to < lineEnd, Self.isContinuation(of: input, at: to) {
      to += 1
    }
    excerpt = Self.visible(UnsafeRawBufferPointer(rebasing: input[from..<to]))
  }

  /// How many columns the bytes of `input` from `start` to `end` take: one
  /// for each scalar, and one for each byte of an ill-formed sequence (which
  /// `.looseUnicode` lets through). Continuation bytes of well-formed
  /// sequences do not start a scalar; the bytes of `input` around the range
  /// are read to tell. ASCII needs no look back: a line megabytes long
  /// (minified JSON) costs one comparison per byte.
  static func columns(in input: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
    var columns = 0
    for position in start..<end
    where input[position] < 0x80 || !isContinuation(of: input, at: position) {
      columns += 1
    }
    return columns
  }

  /// Whether the byte at `position` continues a well-formed multi-byte
  /// sequence (so that it is not counted as a column of its own).
  private static func isContinuation(of input: UnsafeRawBufferPointer, at position: Int) -> Bool {
    guard input[position] & 0xC0 == 0x80 else { return false }
    var start = position
    while start > 0, position - start < 3, input[start] & 0xC0 == 0x80 {
      start -= 1
    }
    let lead = input[start]
    let length = UTF8Validation.sequenceLength(lead: lead)
    guard length > position - start, start + length <= input.count else { return false }
    return UTF8Validation.validSequenceLength(input, at: start) == length
  }

  /// The bytes as text, with control characters as `\n`-style or `\u{..}`
  /// escapes and each ill-formed byte as `\x..`, so the excerpt prints on one line.
  private static func visible(_ bytes: UnsafeRawBufferPointer) -> String {
    var text = ""
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        switch byte {
        case 0x09: text += "\\t"
        case 0x0A: text += "\\n"
        case 0x0D: text += "\\r"
        case 0..<0x20, 0x7F: text += "\\u{\(String(byte, radix: 16))}"
        default: text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        index += 1
        continue
      }
      let length = UTF8Validation.validSequenceLength(bytes, at: index)
      if length > 0 {
        text += String(
          decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        index += length
      } else {
        text += "\\x" + String(byte, radix: 16, uppercase: true)
        index += 1
      }
    }
    return text
  }
}
