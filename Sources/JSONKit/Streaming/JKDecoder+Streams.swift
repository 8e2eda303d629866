import Foundation

extension JKDecoder {
  /// Decodes every record of JSON Lines text: one JSON value per line.
  ///
  /// ```swift
  /// let records = try JKDecoder().decodeLines(Record.self, from: data)
  /// ```
  ///
  /// Lines end in `\n` (a `\r` before it is accepted), the last one with or
  /// without it; lines holding only whitespace are skipped. Each line is
  /// read as a document of its own, with every rule and option of the
  /// decoder, so a line holding anything but exactly one JSON value is an
  /// error, and a record never spans lines (not even a block comment with
  /// `.comments`).
  ///
  /// - Throws: `DecodingError` for the first bad record. A syntax error is
  ///   `dataCorrupted` with a ``JKParseError`` whose line, column and byte
  ///   offset count from the start of `data`; any other error keeps its
  ///   case and coding path, and its description names the record's line.
  public func decodeLines<T: Decodable>(_ type: T.Type, from data: Data) throws -> [T] {
    let decoder = RecordDecoder(options: withOptions { $0 })
    return try data.withUnsafeBytes { bytes in
      // Records move onto the stack as they are decoded, and into the array
      // once at the end: appending to an array from code not specialized
      // for `T`, as a generic caller's is not, would look up the array's
      // metadata for every record, and copy it in and destroy the original.
      // An error leaves the stack to destroy the records before it.
      var records = MovingStack<T>(capacity: 16)
      var batch: [StreamRecord] = []
      batch.reserveCapacity(StreamBatch.records)
      var start = 0
      var line = 1
      while start < bytes.count {
        // The lines of one batch: scanned together, then decoded.
        batch.removeAll(keepingCapacity: true)
        var length = 0
        while start < bytes.count, batch.count < StreamBatch.records,
          length < StreamBatch.bytes
        {
          // Blank lines are skipped as the batch is read.
          let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
          let end = LineFramer.lineEnd(in: rest) ?? rest.count
          let place = RecordPlace(kind: .line, ordinal: line, offset: start, line: line, column: 1)
          batch.append((UnsafeRawBufferPointer(rebasing: rest[..<end]), place))
          length += end
          start += end + 1
          line += 1
        }
        try Self.decodeLines(type, batch, with: decoder) {
          (record: consuming T) in records.push(record)
        }
      }
      return records.popAllAsArray()
    }
  }

  /// Decodes JSON Lines from an async sequence of byte chunks, one record
  /// at a time, in memory bounded by the largest record.
  ///
  /// ```swift
  /// for try await record in decoder.decodeLines(Record.self, from: chunks) { … }
  /// ```
  ///
  /// The chunks may split the text anywhere, even inside a character or
  /// an escape; records decode exactly as if they had arrived whole. The
  /// lines' rules are those of ``decodeLines(_:from:)-(_,Data)``; the key
  /// cache serves every record. The decoder's options are read when this is
  /// called: changing them afterwards does not change the sequence.
  ///
  /// - Parameters:
  ///   - type: the type of each record.
  ///   - chunks: the text in chunks: `[UInt8]`, `Data`, `ArraySlice<UInt8>`…
  ///   - maxRecordSize: the longest line accepted, in bytes (default 64 MiB);
  ///     a longer one is an error rather than unbounded memory.
  /// - Returns: the records, which throw as
  ///   ``decodeLines(_:from:)-(_,Data)`` does (positions counting from the
  ///   start of the stream), `CancellationError` if the task is cancelled,
  ///   and whatever `chunks` throws. Each error ends the sequence.
  public func decodeLines<T: Decodable, Chunks: AsyncSequence>(
    _ type: T.Type, from chunks: Chunks, maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<T> where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    let lines = linesReader(type)
    return JKRecordSequence(
      chunks: chunks, framer: LineFramer(), maxRecordSize: maxRecordSize, decoding: true,
      makeBatchRead: lines)
  }

  /// Decodes JSON Lines from an async sequence of bytes (such as a file's
  /// or a response's `bytes`), one record at a time; each record is
  /// delivered as soon as its line has arrived. See
  /// ``decodeLines(_:from:maxRecordSize:)-(_,Chunks,_)``.
  @inlinable
  public func decodeLines<T: Decodable, Bytes: AsyncSequence>(
    _ type: T.Type, from bytes: Bytes, maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<T> where Bytes.Element == UInt8 {
    decodeRecords(
      type, filling: ByteGathering.filler(bytes, lines: true), lines: true,
      maxRecordSize: maxRecordSize)
  }

  /// The records of `type`, as lines or as a top-level array's elements, of
  /// the bytes that the fillers `makeFill` makes store (see
  /// ``ByteGathering``): the body of the readers of async bytes.
  @usableFromInline
  func decodeRecords<T: Decodable>(
    _ type: T.Type, filling makeFill: @escaping () -> ByteGathering.Fill, lines: Bool,
    maxRecordSize: Int
  ) -> JKRecordSequence<T> {
    if lines {
      return JKRecordSequence(
        filling: makeFill, framer: LineFramer(), maxRecordSize: maxRecordSize, decoding: true,
        makeBatchRead: linesReader(type))
    }
    let (framer, elements) = elementsReader(type)
    return JKRecordSequence(
      filling: makeFill, framer: framer, maxRecordSize: maxRecordSize, decoding: true,
      makeBatchRead: elements)
  }

  /// Decodes the elements of one top-level JSON array from an async
  /// sequence of byte chunks, one element at a time, in memory bounded by
  /// the largest element.
  ///
  /// ```swift
  /// for try await record in decoder.decodeArrayElements(Record.self, from: chunks) { … }
  /// ```
  ///
  /// The stream must hold exactly one array, with only whitespace around
  /// it (and comments with `.comments`); anything else, text after the
  /// array included, is an error. Each element is read with every rule and
  /// option of the decoder, as they are when this is called;
  /// `.permitTextAfterValidJSON` applies after the array, not inside it.
  ///
  /// - Parameters:
  ///   - type: the type of each element.
  ///   - chunks: the text in chunks: `[UInt8]`, `Data`, `ArraySlice<UInt8>`…
  ///   - maxRecordSize: the longest element accepted, in bytes (default
  ///     64 MiB); a longer one is an error rather than unbounded memory.
  /// - Returns: the elements. A syntax error is `DecodingError.dataCorrupted`
  ///   with a ``JKParseError`` whose line, column and byte offset count from
  ///   the start of the stream and whose message names the element; any other
  ///   error keeps its case, and its coding path starts with the element's
  ///   index, as decoding the whole array with `decode(_:from:)` would give.
  ///   Each error ends the sequence; the elements before it were delivered.
  public func decodeArrayElements<T: Decodable, Chunks: AsyncSequence>(
    _ type: T.Type, from chunks: Chunks, maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<T> where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    let (framer, elements) = elementsReader(type)
    return JKRecordSequence(
      chunks: chunks, framer: framer, maxRecordSize: maxRecordSize, decoding: true,
      makeBatchRead: elements)
  }

  /// Decodes the elements of one top-level JSON array from an async
  /// sequence of bytes. See
  /// ``decodeArrayElements(_:from:maxRecordSize:)-(_,Chunks,_)``.
  @inlinable
  public func decodeArrayElements<T: Decodable, Bytes: AsyncSequence>(
    _ type: T.Type, from bytes: Bytes, maxRecordSize: Int = 64 << 20
  ) -> JKRecordSequence<T> where Bytes.Element == UInt8 {
    decodeRecords(
      type, filling: ByteGathering.filler(bytes, lines: false), lines: false,
      maxRecordSize: maxRecordSize)
  }

  /// What makes, per iteration, the reader of JSON Lines records of
  /// `type`, with the options in force now.
  private func linesReader<T: Decodable>(_ type: T.Type) -> () -> JKRecordSequence<T>.BatchRead {
    let options = withOptions { $0 }
    return {
      let decoder = RecordDecoder(options: options)
      return { batch, _, deliver in
        try Self.decodeLines(type, batch, with: decoder, deliver: deliver)
        return nil
      }
    }
  }

  /// The framer of a top-level array's elements, and what makes, per
  /// iteration, the reader of its elements of `type`, with the options in
  /// force now.
  private func elementsReader<T: Decodable>(_ type: T.Type) -> (
    ArrayElementFramer, () -> JKRecordSequence<T>.BatchRead
  ) {
    let options = withOptions { $0 }
    // The scanner finds where elements end, but in an object whose braces
    // are left out, which only the end of the input ends.
    let framer = ArrayElementFramer(
      options: options.parseOptions, maxDepth: options.decoding.maxDepth,
      runs: !options.assumesTopLevelDictionary)
    return (
      framer,
      {
        let decoder = RecordDecoder(options: Self.elementOptions(options), elements: true)
        return { batch, limit, deliver in
          if batch.count == 1, batch[0].place.beginsRun {
            let run = batch[0]
            let (taken, failure) = decoder.decodeRun(
              type, run: run.bytes, limit: limit, deliver: deliver)
            guard let failure else { return taken.end }
            guard let error = failure.error as? DecodingError else { throw failure.error }
            let start = taken.ranges[failure.index].lowerBound
            throw run.place.element(failure.index, at: start, in: run.bytes).relocate(error)
          }
          let failure = decoder.decode(
            type, records: batch.indices, bytes: { batch[$0].bytes }, deliver: deliver)
          guard let failure else { return nil }
          guard let error = failure.error as? DecodingError else { throw failure.error }
          throw batch[failure.index].place.relocate(error)
        }
      }
    )
  }

  /// Decodes a batch of JSON Lines records in order, passing each to
  /// `deliver`; lines that hold no value are skipped. Throws the error of
  /// the first record that fails, placed in the stream.
  private static func decodeLines<T: Decodable>(
    _ type: T.Type, _ batch: [StreamRecord], with decoder: RecordDecoder,
    deliver: (consuming T) -> Void
  ) throws {
    try LineFramer.readLines(batch) { records in
      let failure = decoder.decode(
        type, records: records, bytes: { batch[$0].bytes }, deliver: deliver)
      guard let failure else { return nil }
      guard let error = failure.error as? DecodingError else { throw failure.error }
      if let error = lineError(error, place: batch[failure.index].place) { throw error }
      return failure.index
    }
  }

  /// The error that decoding the line at `place` ends with, placed in the
  /// stream; nil when the line holds only what the options allow between
  /// values (whitespace, comments), and is blank.
  private static func lineError(_ error: DecodingError, place: RecordPlace) -> DecodingError? {
    if case .dataCorrupted(let context) = error,
      (context.underlyingError as? JKParseError)?.kind == .emptyInput
    {
      return nil
    }
    return place.relocate(error)
  }

  /// The options an element of a top-level array is read with, as the
  /// whole array would read it: one level down, and without text after it.
  private static func elementOptions(_ options: Options) -> Options {
    var options = options
    options.parseOptions.remove(.permitTextAfterValidJSON)
    // At least 0, so that no limit (Int.min included) can overflow here.
    options.decoding.maxDepth =
      Swift.max(Swift.min(options.decoding.maxDepth, ScanConfiguration.maxDepthLimit), 1) - 1
    return options
  }
}
