/// The one way from a document's text to its tape, or to the answer of
/// validating it: every reader of whole documents (`JKDecoder`, `JSONValue`'s
/// parsers and validators, and the encoder reading its own text back at a
/// hand-over) scans through here, so that an error is always placed in the
/// caller's bytes. (Streams scan batches of records through
/// ``Scanner/scanRecords(_:_:within:into:configuration:roots:)`` and
/// ``Scanner/scanElements(_:into:configuration:elementSize:)``.)
extension InputText {
  /// Scans the text into the tape of `context`, or after what the tape
  /// holds when `appending`, with offsets in `region` when given (see
  /// ``Scanner/run(_:into:configuration:within:appending:)``). `bytes`,
  /// when given, are read in the text's place (`{}` for the empty input of
  /// a top level whose braces may be left out); a place in them is a place
  /// in the text.
  func scan(
    into context: ScanContext, configuration: ScanConfiguration,
    reading bytes: UnsafeRawBufferPointer? = nil, within region: UnsafeRawBufferPointer? = nil,
    appending: Bool = false
  ) throws(JKParseError) {
    do {
      try Scanner.scan(
        bytes ?? utf8, into: context, configuration: configuration, within: region,
        appending: appending)
    } catch {
      throw relocated(error)
    }
  }

  /// Scans the text with a context from `pool` and calls `body` with the
  /// tape; the context goes back to the pool afterwards, so `body` must not
  /// keep the tape.
  func withTape<R>(
    configuration: ScanConfiguration, pool: ScanContextPool, _ body: (Tape) throws -> R
  ) throws -> R {
    let context = pool.take()
    defer { pool.give(context) }
    try scan(into: context, configuration: configuration)
    return try body(Tape(context: context, input: utf8))
  }

  /// Validates the text with the stack of `context`, recording nothing.
  func validate(with context: ScanContext, configuration: ScanConfiguration)
    throws(JKParseError)
  {
    do {
      try Scanner.validate(utf8, with: context, configuration: configuration)
    } catch {
      throw relocated(error)
    }
  }
}
