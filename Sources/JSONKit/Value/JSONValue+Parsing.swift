import Foundation

extension JSONValue {
  /// The deepest nesting of arrays and objects that parsing and `JKDecoder`
  /// accept, whatever larger `maxDepth` is asked for.
  ///
  /// A `JSONValue` is a tree of Swift values, and the standard library
  /// frees (and Codable walks) such a tree with one call-stack frame per
  /// level. The limit keeps every value JSONKit builds shallow enough to be
  /// compared, hashed, written, encoded and freed within a 512 KiB stack,
  /// the size of a secondary thread's stack on Apple platforms, so that no
  /// input can turn into a stack overflow later. Validation applies it too,
  /// so that it accepts exactly what parsing accepts, and so do
  /// ``init(foundationObject:)`` and Codable's ``encode(to:)``, for values
  /// built in code.
  public static let maxDepthLimit = ScanConfiguration.maxDepthLimit

  /// Parses JSON bytes into a value.
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: data)
  /// let relaxed = try JSONValue(parsing: text, options: [.comments, .looseUnicode])
  /// ```
  ///
  /// - Parameters:
  ///   - data: JSON text in UTF-8 (a leading byte order mark is skipped),
  ///     or in UTF-16 or UTF-32 of either byte order, with or without a
  ///     byte order mark, told apart as Foundation's `JSONDecoder` tells
  ///     them. An error's offset is then the offset in `data`.
  ///   - options: extensions to strict JSON to accept; `[]` is strict.
  ///   - maxDepth: the deepest nesting of arrays and objects accepted; at
  ///     most ``maxDepthLimit``.
  ///   - decompression: whether gzip input is inflated first, and to at
  ///     most how many bytes; by default gzip is recognised and inflated up
  ///     to 1 GiB.
  /// - Throws: ``JKParseError`` saying what is wrong and where.
  public init(
    parsing data: Data, options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    self = try data.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(bytes, options: options, maxDepth: maxDepth, decompression: decompression)
      }
    }.get()
  }

  /// Parses JSON bytes into a value. See ``init(parsing:options:maxDepth:decompression:)-(Data,_,_,_)``.
  public init(
    parsing bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    self = try bytes.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(bytes, options: options, maxDepth: maxDepth, decompression: decompression)
      }
    }.get()
  }

  /// Parses JSON text into a value. A `String` is text already: its UTF-8
  /// is read as it is, never taken for gzip or UTF-16.
  public init(parsing text: String, options: JKParseOptions = [], maxDepth: Int = 512)
    throws(JKParseError)
  {
    self = try InputBytes.with(text) { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(InputText(utf8: bytes), options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Parses UTF-8 text as it is, never taken for gzip or another encoding:
  /// a record of a stream, which is UTF-8 by definition.
  init(parsingUTF8 bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int)
    throws(JKParseError)
  {
    self = try Self.parse(InputText(utf8: bytes), options: options, maxDepth: maxDepth)
  }

  /// Parses a batch of records, UTF-8 as it is (`bytes(i)` is the record
  /// at `i`, valid for the call, never empty), with `context`: each is
  /// scanned onto its tape after the one before, and then the values are
  /// built in order and passed to `deliver`. Stops at the first record
  /// that fails, and returns its index and its error, placed in the
  /// record; the values before it have been delivered.
  ///
  /// The records are scanned within one block of memory when they lie in
  /// one, in order (see ``Scanner/run(_:into:configuration:within:appending:)``);
  /// otherwise each is a batch of its own. The elements of an array
  /// (`elements`) are parsed as a whole array's are: a byte order mark
  /// before one is an error, not a mark.
  static func parseRecords(
    _ records: Range<Int>, bytes: (Int) -> UnsafeRawBufferPointer, options: JKParseOptions,
    maxDepth: Int, elements: Bool, with context: ScanContext,
    deliver: (consuming JSONValue) -> Void
  ) -> (index: Int, error: JKParseError)? {
    var configuration = configuration(options, maxDepth)
    configuration.skipsByteOrderMark = !elements
    if let region = Scanner.region(of: records, bytes) {
      return parseRecords(records, bytes, within: region, configuration, context, deliver)
    }
    for index in records {
      let record = index..<index + 1
      if let failure = parseRecords(
        record, bytes, within: bytes(index), configuration, context, deliver)
      {
        return failure
      }
    }
    return nil
  }

  /// Parses the records, which lie in `region`, as
  /// ``parseRecords(_:bytes:options:maxDepth:elements:with:deliver:)`` does.
  private static func parseRecords(
    _ records: Range<Int>, _ bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, _ configuration: ScanConfiguration,
    _ context: ScanContext, _ deliver: (consuming JSONValue) -> Void
  ) -> (index: Int, error: JKParseError)? {
    var roots: [Int] = []
    roots.reserveCapacity(records.count)
    let failure = Scanner.scanRecords(
      records, bytes, within: region, into: context, configuration: configuration,
      roots: &roots)
    return buildRecords(
      roots, first: records.lowerBound, bytes, within: region, configuration, context, deliver)
      ?? failure
  }

  /// Parses the elements of a stream's array that `run` holds from its
  /// start, as many as the scanner takes in one batch (see
  /// ``Scanner/scanElements(_:into:configuration:elementSize:)``),
  /// none longer than `limit`, passing each value to `deliver`, as
  /// ``parseRecords(_:bytes:options:maxDepth:elements:with:deliver:)``
  /// parses elements; returns what the run took, and the index and error of
  /// the element that failed, if one did.
  static func parseElementRun(
    _ run: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int, limit: Int,
    with context: ScanContext, deliver: (consuming JSONValue) -> Void
  ) -> (taken: ElementRun, failure: (index: Int, error: JKParseError)?) {
    var configuration = configuration(options, maxDepth)
    configuration.skipsByteOrderMark = false
    let taken = Scanner.scanElements(
      run, into: context, configuration: configuration, elementSize: limit)
    let failure = buildRecords(
      taken.roots, first: 0, { taken.element($0, in: run) }, within: run, configuration, context,
      deliver)
    return (taken, failure)
  }

  /// Builds the values of the records whose roots a scan of `region` into
  /// `context` left on its tape, the first being record `first`.
  private static func buildRecords(
    _ roots: [Int], first: Int, _ bytes: (Int) -> UnsafeRawBufferPointer,
    within region: UnsafeRawBufferPointer, _ configuration: ScanConfiguration,
    _ context: ScanContext, _ deliver: (consuming JSONValue) -> Void
  ) -> (index: Int, error: JKParseError)? {
    guard let regionStart = region.baseAddress else { return nil }
    var workspace = JSONValueBuilder.Workspace()
    for (offset, root) in roots.enumerated() {
      let index = first + offset
      let text = bytes(index)
      do {
        deliver(
          try buildRecord(
            at: root, scannedInto: context, within: region, text: InputText(utf8: text),
            start: text.baseAddress.unsafelyUnwrapped - regionStart,
            mayHoldBigIntegers: configuration.allowsBigIntegers, using: &workspace))
      } catch {
        return (index, error)
      }
    }
    return nil
  }

  /// The value of the record whose root is the entry at `root` of the
  /// tape of `context`, scanned within `region` from `text`, which starts
  /// at offset `start` of it.
  // Not inlined: building the view of the tape in the caller's loop makes
  // Swift 6.3's optimizer fail (an ownership error in copy propagation).
  @inline(never)
  private static func buildRecord(
    at root: Int, scannedInto context: ScanContext, within region: UnsafeRawBufferPointer,
    text: InputText, start: Int, mayHoldBigIntegers: Bool,
    using workspace: inout JSONValueBuilder.Workspace
  ) throws(JKParseError) -> JSONValue {
    let tape = Tape(context: context, input: region)
    do {
      return try JSONValueBuilder.value(
        at: root, in: tape, mayHoldBigIntegers: mayHoldBigIntegers, using: &workspace)
    } catch {
      throw bigIntegerError(error, in: tape, text: text, start: start)
    }
  }

  /// Checks UTF-8 text as it is, never taken for gzip or another encoding,
  /// without building any value.
  static func validate(utf8 bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int)
    throws(JKParseError)
  {
    try check(InputText(utf8: bytes), options: options, maxDepth: maxDepth)
  }

  /// Parses JSON bytes in memory the caller owns; nothing refers to the
  /// memory after the initializer returns.
  public init(
    parsing buffer: UnsafeRawBufferPointer, options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    self = try Self.parse(
      buffer, options: options, maxDepth: maxDepth, decompression: decompression)
  }

  /// Checks that bytes are JSON that JSONKit accepts with `options`, without
  /// building any value. The bytes may be in any encoding that parsing
  /// reads (UTF-8, UTF-16, UTF-32), and gzip input is inflated first
  /// unless `decompression` says otherwise.
  ///
  /// - Throws: ``JKParseError`` saying what is wrong and where.
  public static func validate(
    _ data: Data, options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    try data.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try validate(bytes, options: options, maxDepth: maxDepth, decompression: decompression)
      }
    }.get()
  }

  /// Checks that bytes are JSON that JSONKit accepts with `options`.
  public static func validate(
    _ bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    try bytes.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try validate(bytes, options: options, maxDepth: maxDepth, decompression: decompression)
      }
    }.get()
  }

  /// Checks that text is JSON that JSONKit accepts with `options`.
  public static func validate(
    _ text: String, options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    try InputBytes.with(text) { bytes in
      Result { () throws(JKParseError) in
        try check(InputText(utf8: bytes), options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Checks that bytes in memory the caller owns are JSON that JSONKit accepts.
  public static func validate(
    _ buffer: UnsafeRawBufferPointer, options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws(JKParseError) {
    try InputText.withText(buffer, decompression) { text throws(JKParseError) in
      try check(text, options: options, maxDepth: maxDepth)
    }
  }

  private static func parse(
    _ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int,
    decompression: JKDecompression
  ) throws(JKParseError) -> JSONValue {
    try InputText.withText(bytes, decompression) { text throws(JKParseError) in
      try parse(text, options: options, maxDepth: maxDepth)
    }
  }

  /// Parses with a context from the shared pool, whose key cache makes
  /// each distinct key's `String` once.
  private static func parse(
    _ text: InputText, options: JKParseOptions, maxDepth: Int
  ) throws(JKParseError) -> JSONValue {
    let pool = ScanContextPool.shared
    let context = pool.take()
    defer { pool.give(context) }
    return try parse(text, options: options, maxDepth: maxDepth, with: context)
  }

  /// Scans `text` into `context` and builds its root value.
  private static func parse(
    _ text: InputText, options: JKParseOptions, maxDepth: Int, with context: ScanContext
  ) throws(JKParseError) -> JSONValue {
    let configuration = configuration(options, maxDepth)
    try text.scan(into: context, configuration: configuration)
    return try build(
      Tape(context: context, input: text.utf8), text: text,
      mayHoldBigIntegers: configuration.allowsBigIntegers)
  }

  /// The root value of `tape`.
  private static func build(
    _ tape: Tape, text: InputText, mayHoldBigIntegers: Bool
  ) throws(JKParseError) -> JSONValue {
    do {
      return try JSONValueBuilder.value(at: 0, in: tape, mayHoldBigIntegers: mayHoldBigIntegers)
    } catch {
      throw bigIntegerError(error, in: tape, text: text, start: 0)
    }
  }

  /// The error for an integer beyond 64 bits that a build met, in `text`,
  /// which starts at offset `start` of the tape's input. The scan already
  /// rejects such integers; this keeps the answer an error, not a crash,
  /// should that ever change.
  private static func bigIntegerError(
    _ error: JSONValueBuilder.BigInteger, in tape: Tape, text: InputText, start: Int
  ) -> JKParseError {
    text.relocated(
      JKParseError(
        .integerOutOfRange, "the integer does not fit 64 bits",
        offset: tape[error.index].offset - start, in: text.utf8))
  }

  /// Validates without recording anything: no tape, no arena, no keys,
  /// only the stack of open containers, so that memory does not grow with
  /// the input. The answer and any error are parsing's.
  private static func check(_ text: InputText, options: JKParseOptions, maxDepth: Int)
    throws(JKParseError)
  {
    let pool = ScanContextPool.shared
    let context = pool.take()
    defer { pool.give(context) }
    try text.validate(with: context, configuration: configuration(options, maxDepth))
  }

  private static func configuration(_ options: JKParseOptions, _ maxDepth: Int)
    -> ScanConfiguration
  {
    ScanConfiguration(options: options, maxDepth: Swift.min(maxDepth, maxDepthLimit))
  }
}
