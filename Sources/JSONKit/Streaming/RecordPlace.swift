/// Where one record of a stream is: which record, and where its first byte
/// lies in the stream. Errors inside the record are moved by it from the
/// record's own coordinates to the stream's.
struct RecordPlace {
  /// How records are counted.
  enum Kind {
    /// A JSON Lines record, named by its line number (from 1).
    case line
    /// An element of a top-level array, named by its index (from 0).
    case arrayElement
  }

  var kind: Kind
  /// The line number of a JSON Lines record, or the index of an array element.
  var ordinal: Int
  /// The stream offset of the record's first byte.
  var offset: Int
  /// The line of the record's first byte in the stream.
  var line: Int
  /// The column of the record's first byte in the stream.
  var column: Int
  /// Whether the record is not one element but the bytes held from an
  /// element on, for the batch reader to scan as many elements of as it
  /// can (see ``Scanner/scanElements(_:into:configuration:elementSize:)``):
  /// the place is its first element's.
  var beginsRun = false

  /// The place of the element `ordinal` places after this run's first,
  /// which starts at `offset` in `run` (the bytes from the first element
  /// on).
  func element(_ ordinal: Int, at offset: Int, in run: UnsafeRawBufferPointer) -> RecordPlace {
    let position = SourcePosition(offset: offset, in: run)
    return RecordPlace(
      kind: kind, ordinal: self.ordinal + ordinal, offset: self.offset + offset,
      line: line + position.line - 1,
      column: position.line == 1 ? column + position.column - 1 : position.column)
  }

  /// The record and its place, for a message: "the record on line 5, byte
  /// offset 310" or "array element 3, line 1, column 52, byte offset 51".
  var whereabouts: String {
    switch kind {
    case .line: "the record on line \(ordinal), byte offset \(offset)"
    case .arrayElement:
      "array element \(ordinal), line \(line), column \(column), byte offset \(offset)"
    }
  }

  /// `error`, found by scanning the record alone, placed in the stream.
  func relocate(_ error: JKParseError) -> JKParseError {
    let message =
      switch kind {
      case .line: error.message
      case .arrayElement: "\(error.message) in array element \(ordinal)"
      }
    let moved = error.location.moved(offset: offset, line: line, column: column)
    return JKParseError(
      error.kind, message, offset: moved.offset, line: moved.line, column: moved.column,
      excerpt: moved.excerpt)
  }

  /// A `DecodingError` from decoding the record alone, placed in the
  /// stream: syntax errors get the stream's line, column and offset; other
  /// errors say which record in their description, and an array element's
  /// coding path starts with its index, as decoding the whole array would
  /// give.
  func relocate(_ error: DecodingError) -> DecodingError {
    if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
      let parseError = context.underlyingError as? JKParseError
    {
      return DecodingErrors.invalidJSON(relocate(parseError))
    }
    let prefix: [any CodingKey] =
      kind == .arrayElement ? [AnyCodingKey(intValue: ordinal)] : []
    return error.withContext { context in
      var description = context.debugDescription
      var underlying = context.underlyingError
      // The value's place, found in the record, moves into the stream.
      if let location = underlying as? JKInputLocation,
        description.hasSuffix(location.description)
      {
        let moved = location.moved(offset: offset, line: line, column: column)
        description = description.dropLast(location.description.count) + moved.description
        underlying = moved
      }
      return DecodingError.Context(
        codingPath: prefix + context.codingPath,
        debugDescription: "\(description) (\(whereabouts))", underlyingError: underlying)
    }
  }
}
