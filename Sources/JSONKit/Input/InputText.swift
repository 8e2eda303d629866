/// A document as the scanner reads it, UTF-8, and what it takes to report an
/// error's place in the bytes the caller gave.
///
/// UTF-8 input is the caller's own bytes, untouched and uncopied: telling it
/// apart costs a look at its first two bytes. UTF-16 and UTF-32 input (see
/// ``InputEncoding``) is transcoded into a buffer that lives for the duration
/// of the call. An error's ``JKParseError/offset`` is then the offset in the
/// caller's bytes (its byte order mark included) of the code unit at fault;
/// its line and column are those of the text, the same in any encoding.
struct InputText {
  /// The document in UTF-8.
  let utf8: UnsafeRawBufferPointer
  /// How the caller's bytes became ``utf8``; `nil` when they are ``utf8``.
  private let transcoder: UnicodeTranscoder?
  private let markLength: Int

  /// Text that is UTF-8 whatever its first bytes (a `String`'s): no
  /// encoding is detected, so that U+0000 is never taken for half of a
  /// UTF-16 code unit.
  init(utf8: UnsafeRawBufferPointer) {
    self.utf8 = utf8
    transcoder = nil
    markLength = 0
  }

  private init(utf8: UnsafeRawBufferPointer, transcoder: UnicodeTranscoder, markLength: Int) {
    self.utf8 = utf8
    self.transcoder = transcoder
    self.markLength = markLength
  }

  /// Runs `body` with the text of `bytes`, in whichever Unicode encoding
  /// they are, as UTF-8.
  @inline(__always)
  static func withUTF8<R, E: Error>(
    _ bytes: UnsafeRawBufferPointer, _ body: (InputText) throws(E) -> R
  ) throws(E) -> R {
    let (encoding, markLength) = InputEncoding.detect(bytes)
    guard encoding == .utf8 else {
      return try withTranscoding(bytes, encoding, markLength, body)
    }
    return try body(InputText(utf8: bytes))
  }

  @inline(never)
  private static func withTranscoding<R, E: Error>(
    _ bytes: UnsafeRawBufferPointer, _ encoding: InputEncoding, _ markLength: Int,
    _ body: (InputText) throws(E) -> R
  ) throws(E) -> R {
    let transcoder = UnicodeTranscoder(
      source: UnsafeRawBufferPointer(rebasing: bytes[markLength...]), encoding: encoding)
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: transcoder.maximumUTF8Count, alignment: 8)
    defer { buffer.deallocate() }
    let count = transcoder.transcode(into: buffer)
    let text = InputText(
      utf8: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), transcoder: transcoder,
      markLength: markLength)
    return try body(text)
  }

  /// `error`, found in ``utf8``, as it reads in the caller's bytes: the
  /// offset of its code unit there, and an ill-formed code unit described
  /// as what it is rather than as the byte that stood for it.
  func relocated(_ error: JKParseError) -> JKParseError {
    guard let transcoder else { return error }
    let (offset, isIllFormed) = transcoder.sourceOffset(ofUTF8Offset: error.offset)
    var kind = error.kind
    var message = error.message
    if isIllFormed {
      let what = transcoder.describeIllFormed(at: offset)
      if kind == .invalidUTF8 {
        let utf16 = transcoder.encoding.unitSize == 2
        kind = utf16 ? .invalidUTF16 : .invalidUTF32
        message =
          message.replacing("ill-formed UTF-8", with: "ill-formed \(transcoder.encoding.name)")
          + " (\(what))"
      } else {
        message = message.replacing("'\\xFF'", with: what)
      }
    }
    return JKParseError(
      kind, message, offset: markLength + offset, line: error.line, column: error.column,
      excerpt: error.excerpt)
  }
}

extension InputText {
  /// `location`, found in ``utf8``, as it reads in the caller's bytes: the
  /// offset of its code unit there (its line, column and excerpt are the
  /// text's, the same in any encoding).
  func relocated(_ location: JKInputLocation) -> JKInputLocation {
    guard let transcoder else { return location }
    let (offset, _) = transcoder.sourceOffset(ofUTF8Offset: location.offset)
    return JKInputLocation(
      offset: markLength + offset, line: location.line, column: location.column,
      excerpt: location.excerpt)
  }
}

extension InputText {
  /// Runs `body` with the text that `bytes` hold, as the input stage reads
  /// every document: inflated first when it is gzip and `decompression`
  /// recognises gzip, then transcoded to UTF-8 when it is UTF-16 or
  /// UTF-32. Plain UTF-8 passes straight through. `wrap` turns an error in
  /// the compressed stream into the caller's error type.
  static func withText<R, E: Error>(
    _ bytes: UnsafeRawBufferPointer, _ decompression: JKDecompression,
    wrap: (JKParseError) -> E, _ body: (InputText) throws(E) -> R
  ) throws(E) -> R {
    try GzipReader.withInput(bytes, decompression, wrap: wrap) { bytes throws(E) in
      try withUTF8(bytes, body)
    }
  }

  /// ``withText(_:_:wrap:_:)`` for callers whose error is ``JKParseError``.
  static func withText<R>(
    _ bytes: UnsafeRawBufferPointer, _ decompression: JKDecompression,
    _ body: (InputText) throws(JKParseError) -> R
  ) throws(JKParseError) -> R {
    try withText(bytes, decompression, wrap: { $0 }, body)
  }
}
