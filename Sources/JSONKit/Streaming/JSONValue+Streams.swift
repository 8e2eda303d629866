extension JSONValue {
  /// The values of JSON Lines from an async sequence of byte chunks
  /// (`[UInt8]`, `Data`, `ArraySlice<UInt8>`…), one line at a time, in
  /// memory bounded by the longest line.
  ///
  /// ```swift
  /// for try await value in JSONValue.lines(from: chunks) { … }
  /// ```
  ///
  /// Lines end in `\n` (a `\r` before it is accepted), the last one with or
  /// without it; lines holding only whitespace are skipped; each other line
  /// must hold exactly one value, read with `options` and `maxDepth`.
  ///
  /// - Parameters:
  ///   - chunks: the text in chunks: `[UInt8]`, `Data`, `ArraySlice<UInt8>`…
  ///   - options: the extensions to strict JSON accepted in each line.
  ///   - maxDepth: the deepest nesting accepted in one line.
  ///   - maxRecordSize: the longest line accepted, in bytes (default 64 MiB).
  /// - Returns: the values. They throw ``JKParseError`` (line, column and
  ///   byte offset counting from the start of the stream) for the first bad
  ///   line, `CancellationError` if the task is cancelled, and whatever
  ///   `chunks` throws; each error ends the sequence.
  public static func lines<Chunks: AsyncSequence>(
    from chunks: Chunks, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue>
  where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    JKRecordSequence(chunks: chunks, framer: LineFramer(), maxRecordSize: maxRecordSize) {
      let parser = ValueRecordParser()
      return { try line(from: $0, place: $1, options: options, maxDepth: maxDepth, with: parser) }
    }
  }

  /// The values of JSON Lines from an async sequence of bytes, each
  /// delivered as soon as its line has arrived. See
  /// ``lines(from:options:maxDepth:maxRecordSize:)-(Chunks,_,_,_)``.
  public static func lines<Bytes: AsyncSequence>(
    from bytes: Bytes, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue> where Bytes.Element == UInt8 {
    JKRecordSequence(bytes: bytes, framer: LineFramer(), maxRecordSize: maxRecordSize) {
      let parser = ValueRecordParser()
      return { try line(from: $0, place: $1, options: options, maxDepth: maxDepth, with: parser) }
    }
  }

  /// The elements of one top-level JSON array from an async sequence of
  /// byte chunks, one at a time, in memory bounded by the largest element.
  ///
  /// ```swift
  /// for try await element in JSONValue.arrayElements(from: chunks) { … }
  /// ```
  ///
  /// The stream must hold exactly one array, with only whitespace around
  /// it (and comments with `.comments`); anything else, text after the
  /// array included, is an error. `.permitTextAfterValidJSON` applies after
  /// the array, not inside it.
  ///
  /// - Parameters:
  ///   - chunks: the text in chunks: `[UInt8]`, `Data`, `ArraySlice<UInt8>`…
  ///   - options: the extensions to strict JSON accepted in the stream.
  ///   - maxDepth: the deepest nesting accepted, counting the array itself.
  ///   - maxRecordSize: the longest element accepted, in bytes (default 64 MiB).
  /// - Returns: the elements. They throw ``JKParseError`` (line, column and
  ///   byte offset counting from the start of the stream, the message
  ///   naming the element), `CancellationError` if the task is cancelled,
  ///   and whatever `chunks` throws; each error ends the sequence.
  public static func arrayElements<Chunks: AsyncSequence>(
    from chunks: Chunks, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue>
  where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    JKRecordSequence(
      chunks: chunks, framer: ArrayElementFramer(options: options, maxDepth: maxDepth),
      maxRecordSize: maxRecordSize
    ) {
      let parser = ValueRecordParser()
      return {
        try element(from: $0, place: $1, options: options, maxDepth: maxDepth, with: parser)
      }
    }
  }

  /// The elements of one top-level JSON array from an async sequence of
  /// bytes. See ``arrayElements(from:options:maxDepth:maxRecordSize:)-(Chunks,_,_,_)``.
  public static func arrayElements<Bytes: AsyncSequence>(
    from bytes: Bytes, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue> where Bytes.Element == UInt8 {
    JKRecordSequence(
      bytes: bytes, framer: ArrayElementFramer(options: options, maxDepth: maxDepth),
      maxRecordSize: maxRecordSize
    ) {
      let parser = ValueRecordParser()
      return {
        try element(from: $0, place: $1, options: options, maxDepth: maxDepth, with: parser)
      }
    }
  }

  /// One JSON Lines record, or `nil` for a line holding no value.
  private static func line(
    from bytes: UnsafeRawBufferPointer, place: RecordPlace, options: JKParseOptions,
    maxDepth: Int, with parser: ValueRecordParser
  ) throws(JKParseError) -> JSONValue? {
    if LineFramer.isBlank(bytes) { return nil }
    do {
      return try parser.parse(bytes, options: options, maxDepth: maxDepth)
    } catch  where error.kind == .emptyInput {
      return nil
    } catch {
      throw place.relocate(error)
    }
  }

  /// One line of JSON Lines (without its `\n`), read as the stream readers
  /// read it: as UTF-8 text, never taken for gzip, UTF-16 or UTF-32, as
  /// the JSON Lines format says; `nil` for a line holding no value
  /// (whitespace, or comments the options allow). Errors are placed in
  /// the line alone. The `jsonkit` tool reads its lines here, so that it
  /// gives the library's answer for every line.
  package static func jsonLinesRecord(
    _ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int
  ) throws(JKParseError) -> JSONValue? {
    if LineFramer.isBlank(bytes) { return nil }
    do {
      return try JSONValue(parsingUTF8: bytes, options: options, maxDepth: maxDepth)
    } catch  where error.kind == .emptyInput {
      return nil
    }
  }

  /// Checks one line of JSON Lines as ``jsonLinesRecord(_:options:maxDepth:)``
  /// reads it, without building any value; a line holding no value passes.
  package static func validateJSONLinesRecord(
    _ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int
  ) throws(JKParseError) {
    if LineFramer.isBlank(bytes) { return }
    do {
      try validate(utf8: bytes, options: options, maxDepth: maxDepth)
    } catch  where error.kind == .emptyInput {
      return
    }
  }

  /// One element of a top-level array, read one level down and without
  /// text after it, as the whole array would be.
  private static func element(
    from bytes: UnsafeRawBufferPointer, place: RecordPlace, options: JKParseOptions,
    maxDepth: Int, with parser: ValueRecordParser
  ) throws(JKParseError) -> JSONValue {
    do {
      return try parser.parse(
        bytes, options: options.subtracting(.permitTextAfterValidJSON),
        maxDepth: Swift.max(Swift.min(maxDepth, maxDepthLimit), 1) - 1)
    } catch {
      throw place.relocate(error)
    }
  }
}

/// Parses the records of one stream into values with one scan context for
/// all of them, taken from the pool at the first record and given back
/// when the stream's reader goes away, or as soon as a record grew the
/// context's buffers or key cache past what the pool keeps (so that memory
/// stays bounded by the largest record). One stream's reader uses it, one
/// record at a time.
final class ValueRecordParser {
  private var context: ScanContext?

  deinit {
    if let context { ScanContextPool.shared.give(context) }
  }

  /// The value of one record's UTF-8 `bytes`, as
  /// `JSONValue(parsingUTF8:options:maxDepth:)` reads it.
  func parse(_ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int)
    throws(JKParseError) -> JSONValue
  {
    let context = self.context ?? ScanContextPool.shared.take()
    self.context = context
    defer {
      if context.state.outgrewKept {
        ScanContextPool.shared.give(context)
        self.context = nil
      }
    }
    return try JSONValue.parse(utf8: bytes, options: options, maxDepth: maxDepth, with: context)
  }
}
