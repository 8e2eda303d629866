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
  /// so that it accepts exactly what parsing accepts.
  public static let maxDepthLimit = 1024

  /// Parses JSON bytes into a value.
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: data)
  /// let relaxed = try JSONValue(parsing: text, options: [.comments, .looseUnicode])
  /// ```
  ///
  /// - Parameters:
  ///   - data: UTF-8 JSON text; a leading byte order mark is skipped.
  ///   - options: extensions to strict JSON to accept; `[]` is strict.
  ///   - maxDepth: the deepest nesting of arrays and objects accepted; at
  ///     most ``maxDepthLimit``.
  /// - Throws: ``JKParseError`` saying what is wrong and where.
  public init(parsing data: Data, options: JKParseOptions = [], maxDepth: Int = 512)
    throws(JKParseError)
  {
    self = try data.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Parses JSON bytes into a value. See ``init(parsing:options:maxDepth:)-(Data,_,_)``.
  public init(parsing bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512)
    throws(JKParseError)
  {
    self = try bytes.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Parses JSON text into a value.
  public init(parsing text: String, options: JKParseOptions = [], maxDepth: Int = 512)
    throws(JKParseError)
  {
    self = try InputBytes.with(text) { bytes in
      Result { () throws(JKParseError) in
        try Self.parse(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Parses JSON bytes in memory the caller owns; nothing refers to the
  /// memory after the initializer returns.
  public init(
    parsing buffer: UnsafeRawBufferPointer, options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    self = try Self.parse(buffer, options: options, maxDepth: maxDepth)
  }

  /// Checks that bytes are JSON that JSONKit accepts with `options`, without
  /// building any value.
  ///
  /// - Throws: ``JKParseError`` saying what is wrong and where.
  public static func validate(
    _ data: Data, options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    try data.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in try validate(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Checks that bytes are JSON that JSONKit accepts with `options`.
  public static func validate(
    _ bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    try bytes.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in try validate(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Checks that text is JSON that JSONKit accepts with `options`.
  public static func validate(
    _ text: String, options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    try InputBytes.with(text) { bytes in
      Result { () throws(JKParseError) in try validate(bytes, options: options, maxDepth: maxDepth)
      }
    }.get()
  }

  /// Checks that bytes in memory the caller owns are JSON that JSONKit accepts.
  public static func validate(
    _ buffer: UnsafeRawBufferPointer, options: JKParseOptions = [], maxDepth: Int = 512
  ) throws(JKParseError) {
    try scan(buffer, options: options, maxDepth: maxDepth) { _, _ in }
  }

  private static func parse(
    _ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int
  ) throws(JKParseError) -> JSONValue {
    try scan(bytes, options: options, maxDepth: maxDepth) {
      tape, configuration throws(JKParseError) in
      try build(tape, input: bytes, mayHoldBigIntegers: configuration.allowsBigIntegers)
    }
  }

  /// The root value of `tape`.
  private static func build(
    _ tape: Tape, input: UnsafeRawBufferPointer, mayHoldBigIntegers: Bool
  ) throws(JKParseError) -> JSONValue {
    do {
      return try JSONValueBuilder.value(at: 0, in: tape, mayHoldBigIntegers: mayHoldBigIntegers)
    } catch {
      // The scan already rejects integers beyond 64 bits; this keeps the
      // answer an error, not a crash, should that ever change.
      throw JKParseError(
        .integerOutOfRange, "the integer does not fit 64 bits", offset: tape[error.index].offset,
        in: input)
    }
  }

  /// Scans with a context from the shared pool, whose key cache makes each
  /// distinct key's `String` once.
  private static func scan<R>(
    _ bytes: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int,
    _ body: (Tape, ScanConfiguration) throws(JKParseError) -> R
  ) throws(JKParseError) -> R {
    let pool = ScanContextPool.shared
    let context = pool.take()
    defer { pool.give(context) }
    let configuration = ScanConfiguration(
      options: options, maxDepth: Swift.min(maxDepth, maxDepthLimit))
    try Scanner.scan(bytes, into: context, configuration: configuration)
    return try body(Tape(context: context, input: bytes), configuration)
  }
}
