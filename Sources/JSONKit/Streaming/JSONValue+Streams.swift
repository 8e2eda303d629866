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
    JKRecordSequence(
      chunks: chunks, framer: LineFramer(), maxRecordSize: maxRecordSize,
      makeBatchRead: { linesReader(options: options, maxDepth: maxDepth) })
  }

  /// The values of JSON Lines from an async sequence of bytes, each
  /// delivered as soon as its line has arrived. See
  /// ``lines(from:options:maxDepth:maxRecordSize:)-(Chunks,_,_,_)``.
  @inlinable
  public static func lines<Bytes: AsyncSequence>(
    from bytes: Bytes, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue> where Bytes.Element == UInt8 {
    records(
      filling: ByteGathering.filler(bytes, lines: true), lines: true, options: options,
      maxDepth: maxDepth, maxRecordSize: maxRecordSize)
  }

  /// The values, as lines or as a top-level array's elements, of the bytes
  /// that the fillers `makeFill` makes store (see ``ByteGathering``): the
  /// body of the readers of async bytes.
  @usableFromInline
  static func records(
    filling makeFill: @escaping () -> ByteGathering.Fill, lines: Bool, options: JKParseOptions,
    maxDepth: Int, maxRecordSize: Int
  ) -> JKRecordSequence<JSONValue> {
    if lines {
      return JKRecordSequence(
        filling: makeFill, framer: LineFramer(), maxRecordSize: maxRecordSize,
        makeBatchRead: { linesReader(options: options, maxDepth: maxDepth) })
    }
    return JKRecordSequence(
      filling: makeFill,
      framer: ArrayElementFramer(options: options, maxDepth: maxDepth, runs: true),
      maxRecordSize: maxRecordSize,
      makeBatchRead: { elementsReader(options: options, maxDepth: maxDepth) })
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
      chunks: chunks, framer: ArrayElementFramer(options: options, maxDepth: maxDepth, runs: true),
      maxRecordSize: maxRecordSize,
      makeBatchRead: { elementsReader(options: options, maxDepth: maxDepth) })
  }

  /// The elements of one top-level JSON array from an async sequence of
  /// bytes. See ``arrayElements(from:options:maxDepth:maxRecordSize:)-(Chunks,_,_,_)``.
  @inlinable
  public static func arrayElements<Bytes: AsyncSequence>(
    from bytes: Bytes, options: JKParseOptions = [], maxDepth: Int = 512,
    maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<JSONValue> where Bytes.Element == UInt8 {
    records(
      filling: ByteGathering.filler(bytes, lines: false), lines: false, options: options,
      maxDepth: maxDepth, maxRecordSize: maxRecordSize)
  }

  /// What reads a batch of JSON Lines records with `options` and
  /// `maxDepth`: one per iteration.
  private static func linesReader(options: JKParseOptions, maxDepth: Int)
    -> JKRecordSequence<JSONValue>.BatchRead
  {
    let parser = ValueRecordParser()
    return { batch, _, deliver throws(JKParseError) in
      try LineFramer.readLines(batch) { records throws(JKParseError) in
        guard
          let failure = parser.parse(
            batch, records, options: options, maxDepth: maxDepth, elements: false,
            deliver: deliver)
        else { return nil }
        if failure.error.kind == .emptyInput { return failure.index }
        throw batch[failure.index].place.relocate(failure.error)
      }
      return nil
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

  /// What reads a batch of a top-level array's elements, one level down
  /// and without text after them, as the whole array would be: one per
  /// iteration.
  private static func elementsReader(options: JKParseOptions, maxDepth: Int)
    -> JKRecordSequence<JSONValue>.BatchRead
  {
    let parser = ValueRecordParser()
    let options = options.subtracting(.permitTextAfterValidJSON)
    let maxDepth = Swift.max(Swift.min(maxDepth, maxDepthLimit), 1) - 1
    return { batch, limit, deliver throws(JKParseError) in
      if batch.count == 1, batch[0].place.beginsRun {
        let run = batch[0]
        let (taken, failure) = parser.parseRun(
          run.bytes, options: options, maxDepth: maxDepth, limit: limit, deliver: deliver)
        guard let failure else { return taken.end }
        let start = taken.ranges[failure.index].lowerBound
        throw run.place.element(failure.index, at: start, in: run.bytes).relocate(failure.error)
      }
      guard
        let failure = parser.parse(
          batch, batch.indices, options: options, maxDepth: maxDepth, elements: true,
          deliver: deliver)
      else { return nil }
      throw batch[failure.index].place.relocate(failure.error)
    }
  }
}

/// Parses the records of one stream into values with one scan context for
/// all of them, taken from the pool at the first batch and given back
/// when the stream's reader goes away, or as soon as a batch grew the
/// context's buffers or key cache past what the pool keeps (so that memory
/// stays bounded by the largest batch). One stream's reader uses it, one
/// batch at a time.
final class ValueRecordParser {
  private var context: ScanContext?

  deinit {
    if let context { ScanContextPool.shared.give(context) }
  }

  /// The values of the records `records` of `batch`, as
  /// `JSONValue(parsingUTF8:options:maxDepth:)` reads each, scanned
  /// together and then built (see ``JSONValue/parseRecords(_:bytes:options:maxDepth:elements:with:deliver:)``),
  /// passed to `deliver`; the index and error of the first record that
  /// fails, placed in the record.
  func parse(
    _ batch: [StreamRecord], _ records: Range<Int>, options: JKParseOptions, maxDepth: Int,
    elements: Bool, deliver: (consuming JSONValue) -> Void
  ) -> (index: Int, error: JKParseError)? {
    withContext { context in
      JSONValue.parseRecords(
        records, bytes: { batch[$0].bytes }, options: options, maxDepth: maxDepth,
        elements: elements, with: context, deliver: deliver)
    }
  }

  /// The values of the elements of a run, as
  /// ``JSONValue/parseElementRun(_:options:maxDepth:limit:with:deliver:)``
  /// parses them.
  func parseRun(
    _ run: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int, limit: Int,
    deliver: (consuming JSONValue) -> Void
  ) -> (taken: ElementRun, failure: (index: Int, error: JKParseError)?) {
    withContext { context in
      JSONValue.parseElementRun(
        run, options: options, maxDepth: maxDepth, limit: limit, with: context, deliver: deliver)
    }
  }

  /// Runs `body` with the stream's context, which goes back to the pool
  /// when the batch grew it past what the pool keeps.
  private func withContext<Result>(_ body: (ScanContext) -> Result) -> Result {
    let context = self.context ?? ScanContextPool.shared.take()
    self.context = context
    defer {
      if context.state.outgrewKept {
        ScanContextPool.shared.give(context)
        self.context = nil
      }
    }
    return body(context)
  }
}
