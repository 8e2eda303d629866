import Foundation

extension JSONValue {
  /// The value as UTF-8 JSON text.
  ///
  /// With no options the bytes equal those of Foundation's `JSONEncoder`
  /// encoding the same value, except that object members keep their order
  /// (`JSONEncoder` on Linux orders them at random); with `.sortedKeys` they
  /// are identical for every option set the two share. Any nesting depth can
  /// be written: the writer keeps no call-stack frame per level.
  ///
  /// - Throws: `EncodingError.invalidValue` for a `.double` that is NaN or
  ///   infinite, and for a string (or key) holding U+0000 or a noncharacter
  ///   (U+FDD0 to U+FDEF, U+nFFFE, U+nFFFF), which JSONKit's reader rejects
  ///   and so could not read back; the error's `codingPath` leads to it.
  ///
  /// With `compression` set to ``JKCompression/gzip`` (or a level of it)
  /// the result is that text compressed as one gzip member.
  public func jsonBytes(options: JKOutputFormatting = [], compression: JKCompression = .none)
    throws -> [UInt8]
  {
    try jsonWriter(options: options).compressed(compression).finishBytes()
  }

  /// The value as UTF-8 JSON text in `Data`, gzip-compressed if
  /// `compression` asks; see ``jsonBytes(options:compression:)``.
  ///
  /// ```swift
  /// let value: JSONValue = ["a": [1, 2.5]]
  /// let data = try value.jsonData()  // {"a":[1,2.5]}
  /// ```
  ///
  /// - Throws: `EncodingError.invalidValue` for a `.double` that is NaN or
  ///   infinite, or a string holding U+0000 or a noncharacter.
  public func jsonData(options: JKOutputFormatting = [], compression: JKCompression = .none)
    throws -> Data
  {
    try jsonWriter(options: options).compressed(compression).finishData()
  }

  /// The value as JSON text in a `String`; see ``jsonBytes(options:compression:)``.
  ///
  /// - Throws: `EncodingError.invalidValue` for a `.double` that is NaN or
  ///   infinite, or a string holding U+0000 or a noncharacter.
  public func jsonString(options: JKOutputFormatting = []) throws -> String {
    try jsonWriter(options: options).finishString()
  }

  /// The value's text, in a buffer that starts as large as the last value
  /// written with the same layout, as the encoder's does for a type (see
  /// ``OutputSizeHints``): written without growing, when values are alike.
  private func jsonWriter(options: JKOutputFormatting) throws -> ByteWriter {
    let isPretty = options.contains(.prettyPrinted)
    var writer = ByteWriter(
      options: options,
      capacity: OutputSizeHints.shared.capacity(for: JSONValue.self, isPretty: isPretty))
    try JSONValueWriter.write(self, into: &writer)
    OutputSizeHints.shared.note(writer.count, for: JSONValue.self, isPretty: isPretty)
    return writer
  }

  /// `string` as a JSON string literal, quotes included, escaped as
  /// ``jsonString(options:)`` escapes strings.
  ///
  /// ```swift
  /// JSONValue.quote("say \"hi\"/bye")  // "say \"hi\"\/bye" (with the quotes)
  /// JSONValue.quote("é", options: .escapeUnicode)  // "\u00e9"
  /// ```
  ///
  /// Only `.withoutEscapingSlashes` and `.escapeUnicode` affect the result.
  /// Unlike ``jsonString(options:)``, it writes U+0000 (as `\u0000`) and
  /// the noncharacters rather than throwing, though JSONKit's reader
  /// rejects them.
  public static func quote(_ string: String, options: JKOutputFormatting = []) -> String {
    var writer = ByteWriter(options: options, capacity: string.utf8.count + 2)
    writer.writeQuoted(string)
    return writer.finishString()
  }

  /// `string` escaped for use inside a JSON string literal, without the
  /// surrounding quotes.
  ///
  /// Only `.withoutEscapingSlashes` and `.escapeUnicode` affect the result.
  /// As ``quote(_:options:)``, it writes U+0000 and the noncharacters.
  public static func escape(_ string: String, options: JKOutputFormatting = []) -> String {
    var writer = ByteWriter(options: options, capacity: string.utf8.count)
    writer.writeEscaped(string)
    return writer.finishString()
  }
}

extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// Compact JSON text. A NaN or infinite `.double`, which JSON cannot hold,
  /// appears as `NaN`, `Infinity` or `-Infinity`; U+0000 and the
  /// noncharacters, which JSONKit's reader rejects, appear too.
  public var description: String {
    var writer = ByteWriter()
    try! JSONValueWriter.write(self, into: &writer, doubles: .lenient, checkingStrings: false)
    return writer.finishString()
  }

  /// Compact JSON text in which every `.double` shows a fraction or an
  /// exponent (`1.0`, `nan`), so that it can be told from an integer.
  public var debugDescription: String {
    var writer = ByteWriter()
    try! JSONValueWriter.write(self, into: &writer, doubles: .debug, checkingStrings: false)
    return writer.finishString()
  }
}

extension JSONObject: CustomStringConvertible {
  /// The object as compact JSON text; see ``JSONValue/description``.
  public var description: String {
    JSONValue.object(self).description
  }
}
