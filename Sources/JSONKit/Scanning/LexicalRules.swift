/// What may stand between a document's tokens under its parse options:
/// JSON's four whitespace bytes, and when the options allow them, vertical
/// tab and form feed, Unicode line breaks and comments. The one statement
/// of these rules, which the scanner and the array-element framer of
/// streams both follow.
struct LexicalRules: BitwiseCopyable {
  /// Whether `//` and `/* */` comments may appear (JSON5, or `.comments`).
  let allowsComments: Bool
  /// Whether vertical tab and form feed are whitespace (JSON5, or
  /// `.unicodeNewlines`).
  let allowsVerticalTabAndFormFeed: Bool
  /// Whether U+0085, U+2028 and U+2029 are whitespace (`.unicodeNewlines`
  /// only: Foundation's JSON5 reader rejects them).
  let allowsUnicodeNewlines: Bool

  init(_ options: JKParseOptions) {
    let json5 = options.contains(.json5)
    allowsComments = json5 || options.contains(.comments)
    allowsVerticalTabAndFormFeed = json5 || options.contains(.unicodeNewlines)
    allowsUnicodeNewlines = options.contains(.unicodeNewlines)
  }

  /// Whether anything but JSON's four whitespace bytes may stand between
  /// tokens.
  var allowsMoreThanJSON: Bool {
    allowsComments || allowsVerticalTabAndFormFeed || allowsUnicodeNewlines
  }

  /// Whether `byte` is whitespace on its own: space, line feed, carriage
  /// return, tab, and vertical tab and form feed where allowed.
  @inline(__always)
  func isWhitespace(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x0A, 0x0D, 0x09: true
    case 0x0B, 0x0C: allowsVerticalTabAndFormFeed
    default: false
    }
  }

  /// Whether `byte` is one of JSON's four whitespace bytes: space, line
  /// feed, carriage return and tab.
  @inline(__always)
  static func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// The length of the U+0085, U+2028 or U+2029 at `position`, whether or
  /// not they are allowed; 0 if there is none there, -1 if the bytes end
  /// inside what may be one (a stream waits for more; a whole document has
  /// none there).
  static func unicodeNewlineLength(_ base: UnsafePointer<UInt8>, at position: Int, end: Int)
    -> Int
  {
    switch base[position] {
    case 0xC2:
      guard position + 1 < end else { return -1 }
      return base[position + 1] == 0x85 ? 2 : 0
    case 0xE2:
      guard position + 1 < end else { return -1 }
      guard base[position + 1] == 0x80 else { return 0 }
      guard position + 2 < end else { return -1 }
      return base[position + 2] == 0xA8 || base[position + 2] == 0xA9 ? 3 : 0
    default:
      return 0
    }
  }

  /// Whether `byte` ends a `//` comment: a line feed or carriage return.
  @inline(__always)
  static func endsLineComment(_ byte: UInt8) -> Bool {
    byte == 0x0A || byte == 0x0D
  }
}
