/// Where something is in a decoder's input: a byte offset, the line and
/// column it falls on, and the input around it.
///
/// A syntax error has one (``JKParseError/location``), and so has every
/// `DecodingError` that `JKDecoder` throws about a value in its input:
/// `DecodingError.jsonLocation` points at the value's first byte (a
/// string's opening quote, an object's `{`), or for `keyNotFound` at the
/// object that lacks the key.
///
/// ```swift
/// do {
///   _ = try JKDecoder().decode([Int].self, from: Data("[1, \"2\"]".utf8))
/// } catch let error as DecodingError {
///   print(error.jsonLocation!)
///   // line 1, column 5 (byte offset 4) near [1, "2"]
/// }
/// ```
///
/// Inside a `DecodingError` about a value, the location is the context's
/// `underlyingError`. An error that a model throws with an underlying error
/// of its own comes back unchanged: it keeps that error and its
/// description, and has no location.
public struct JKInputLocation: Error, Sendable, Hashable, CustomStringConvertible {
  /// The zero-based byte offset in the input: in UTF-16 or UTF-32 input,
  /// the offset of the code unit in the bytes given (a byte order mark
  /// included); in gzip input, an offset in the inflated text.
  public let offset: Int
  /// The one-based line; CR, LF and CRLF each end a line. 0 for a place in
  /// compressed bytes or in binary input (CBOR), which have no lines.
  public let line: Int
  /// The one-based column, counted in Unicode scalars from the start of the
  /// line. 0 for a place in compressed bytes.
  public let column: Int
  /// The input around the place, on its line, with control characters and
  /// ill-formed bytes made visible; empty for a place in compressed bytes;
  /// in binary input, the bytes from the place on, in hex (`h'a16161…'`).
  public let excerpt: String

  /// A location whose every part is known.
  public init(offset: Int, line: Int, column: Int, excerpt: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.excerpt = excerpt
  }

  /// The location of `offset` in UTF-8 `input`, whose line, column and
  /// excerpt are worked out from the input.
  init(offset: Int, in input: UnsafeRawBufferPointer) {
    let position = SourcePosition(offset: offset, in: input)
    self.init(
      offset: offset, line: position.line, column: position.column, excerpt: position.excerpt)
  }

  /// The location of `offset` in binary `input` (CBOR), which has no lines:
  /// line and column 0, and as the excerpt, the bytes from there in hex.
  init(binaryOffset offset: Int, in input: UnsafeRawBufferPointer) {
    let shown = input[offset..<min(input.count, offset + 8)]
    let digits = shown.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    let more = offset + 8 < input.count ? "…" : ""
    self.init(offset: offset, line: 0, column: 0, excerpt: "h'\(digits)\(more)'")
  }

  /// `line 3, column 9 (byte offset 28) near "id": "7"`, in the words that
  /// syntax errors use after "around"; in binary input, `byte offset 28
  /// near h'a1626964…'`.
  public var description: String {
    if line == 0 && !excerpt.isEmpty { return "byte offset \(offset) near \(excerpt)" }
    if line == 0 { return "compressed byte offset \(offset)" }
    return "line \(line), column \(column) (byte offset \(offset)) near \(excerpt)"
  }

  /// The location moved by `offset` bytes, to a document in which the one
  /// it was found in starts at line `line`, column `column`.
  func moved(offset: Int, line: Int, column: Int) -> JKInputLocation {
    JKInputLocation(
      offset: offset + self.offset, line: line + self.line - 1,
      column: self.line == 1 ? column + self.column - 1 : self.column, excerpt: excerpt)
  }
}

extension JKParseError {
  /// Where the problem is, as a ``JKInputLocation``: the error's
  /// ``offset``, ``line``, ``column`` and ``excerpt``.
  public var location: JKInputLocation {
    JKInputLocation(offset: offset, line: line, column: column, excerpt: excerpt)
  }
}

extension DecodingError {
  /// Where in the input the error is, when `JKDecoder` threw it: the first
  /// byte of the value it is about (for `keyNotFound`, of the object that
  /// lacks the key), or for a syntax error the place of the
  /// ``JKParseError`` underneath. `nil` for errors from other decoders, and
  /// for an error that a model threw with an underlying error of its own,
  /// which comes back unchanged (its description does not say where
  /// either).
  ///
  /// ```swift
  /// do {
  ///   _ = try JKDecoder().decode(User.self, from: data)
  /// } catch let error as DecodingError {
  ///   if let place = error.jsonLocation {
  ///     print("line \(place.line), column \(place.column): \(place.excerpt)")
  ///   }
  /// }
  /// ```
  public var jsonLocation: JKInputLocation? {
    switch errorContext?.underlyingError {
    case let location as JKInputLocation: location
    case let parseError as JKParseError: parseError.location
    default: nil
    }
  }

  /// The error's context, whatever its case.
  var errorContext: Context? {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      context
    @unknown default: nil
    }
  }

  /// The error with its context changed by `change`, in the same case.
  func withContext(_ change: (Context) -> Context) -> DecodingError {
    switch self {
    case .typeMismatch(let type, let context): .typeMismatch(type, change(context))
    case .valueNotFound(let type, let context): .valueNotFound(type, change(context))
    case .keyNotFound(let key, let context): .keyNotFound(key, change(context))
    case .dataCorrupted(let context): .dataCorrupted(change(context))
    @unknown default: self
    }
  }
}
