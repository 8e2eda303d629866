/// Options that shape the JSON text JSONKit writes.
///
/// The empty set writes compact JSON exactly as Foundation's `JSONEncoder`
/// does with its default `outputFormatting`: no whitespace, `/` escaped as
/// `\/`, and every character outside the control range written as raw UTF-8.
///
/// ```swift
/// let value: JSONValue = ["b": 1, "a": [true, nil]]
/// let text = try value.jsonString(options: [.prettyPrinted, .sortedKeys])
/// // {
/// //   "a" : [
/// //     true,
/// //     null
/// //   ],
/// //   "b" : 1
/// // }
/// ```
///
/// The bits of the options shared with `JSONEncoder.OutputFormatting` have
/// the same raw values as Foundation's, so one set converts to the other with
/// `init(rawValue:)`.
public struct JKOutputFormatting: OptionSet, Sendable, Hashable {
  /// The bit pattern of the set.
  public let rawValue: UInt

  /// Creates a set from its bit pattern.
  public init(rawValue: UInt) {
    self.rawValue = rawValue
  }

  /// Writes each array element and object member on its own line, indented by
  /// two spaces per level, with `" : "` between a key and its value.
  ///
  /// The layout is `JSONEncoder`'s, including its form for an empty
  /// container: `[`, two line breaks, the indentation of the container's own
  /// line, then `]`.
  public static let prettyPrinted = JKOutputFormatting(rawValue: 1 << 0)

  /// Writes the members of every object in the lexicographic order of their
  /// keys' UTF-8 bytes (which is also Unicode scalar order), as `JSONEncoder`
  /// does: `"10"` before `"9"`, `"B"` before `"a"`, `"z"` before `"é"`.
  public static let sortedKeys = JKOutputFormatting(rawValue: 1 << 1)

  /// Writes `/` as itself instead of `\/`.
  public static let withoutEscapingSlashes = JKOutputFormatting(rawValue: 1 << 3)

  /// Writes every non-ASCII scalar in a string as a `\uXXXX` escape with
  /// lowercase hexadecimal digits, and each scalar above U+FFFF as a UTF-16
  /// surrogate pair (`"😀"` becomes `"\ud83d\ude00"`), so the output is pure
  /// ASCII.
  public static let escapeUnicode = JKOutputFormatting(rawValue: 1 << 16)
}
