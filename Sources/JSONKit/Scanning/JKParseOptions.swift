/// Options that relax JSONKit's strict reading of JSON.
///
/// The empty set, `[]`, is strict RFC 8259 JSON with JSONKit's Unicode and
/// number rules. Each option admits one well-defined extension:
///
/// ```swift
/// let value = try JSONValue(parsing: "[1, 2] // two", options: .comments)
/// ```
public struct JKParseOptions: OptionSet, Sendable, Hashable, BitwiseCopyable {
  /// The bit pattern of the set.
  public let rawValue: UInt32

  /// Creates a set from its bit pattern.
  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// Accepts `//` line comments and `/* */` block comments wherever
  /// whitespace may appear.
  public static let comments = JKParseOptions(rawValue: 1 << 0)

  /// Accepts U+0085, U+2028, U+2029, vertical tab and form feed as whitespace
  /// between tokens.
  public static let unicodeNewlines = JKParseOptions(rawValue: 1 << 1)

  /// Replaces each maximal ill-formed UTF-8 subpart, each unpaired surrogate
  /// escape, U+0000 and each noncharacter inside strings with U+FFFD instead
  /// of rejecting the input.
  public static let looseUnicode = JKParseOptions(rawValue: 1 << 2)

  /// Stops after the first complete value and ignores whatever follows it.
  public static let permitTextAfterValidJSON = JKParseOptions(rawValue: 1 << 3)

  /// Accepts one comma after the last element of an array or the last
  /// member of an object (`[1, 2,]`, `{"a": 1,}`), as Foundation's
  /// `JSONDecoder` does; a comma with nothing before it (`[,]`) or two in a
  /// row (`[1,,]`) stay errors.
  public static let trailingCommas = JKParseOptions(rawValue: 1 << 4)

  /// Accepts JSON5, the grammar of Foundation's `JSONDecoder.allowsJSON5`:
  /// comments, trailing commas, unquoted identifier keys, single-quoted
  /// strings and keys, hexadecimal integers, numbers with a leading or
  /// trailing decimal point or an explicit `+`, `Infinity`, `-Infinity` and
  /// `NaN`, escaped line breaks, `\x` and `\'` escapes, and vertical tab and
  /// form feed as whitespace.
  ///
  /// JSONKit's Unicode and number rules hold inside JSON5 text as in JSON:
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: "{size: 0x10, name: 'a', }", options: .json5)
  /// // ["size": 16, "name": "a"]
  /// ```
  public static let json5 = JKParseOptions(rawValue: 1 << 5)
}
