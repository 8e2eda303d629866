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

  /// Where a reader stands in a comment, taking one byte at a time: what a
  /// comment is, for the scanner, which reads a whole document, and for the
  /// array-element framer of streams, which must stop at the end of a chunk
  /// and carry on in the next.
  ///
  /// A comment is `//` up to a line feed or carriage return (which is not
  /// part of it), or `/*` up to the first `*/`. A byte of 0x80 or more is
  /// read as one character (its reader checks the sequence it begins).
  enum Comment {
    /// Not in a comment.
    case none
    /// Just after a `/` that may begin one.
    case slash
    /// In a `//` comment.
    case line
    /// In a `/* */` comment.
    case block
    /// In a `/* */` comment, just after a `*`.
    case blockStar

    /// Whether a `/* */` comment is open.
    var isBlock: Bool { self == .block || self == .blockStar }

    /// Takes the next byte; returns whether it belongs to the comment. It
    /// does not after a `/` that no `/` or `*` follows (then no comment
    /// began), nor when it is the line break that ends a `//` comment;
    /// either way the state is then ``none``.
    @inline(__always)
    mutating func advance(_ byte: UInt8) -> Bool {
      switch self {
      case .none:
        return false
      case .slash:
        switch byte {
        case UInt8(ascii: "*"): self = .block
        case UInt8(ascii: "/"): self = .line
        default:
          self = .none
          return false
        }
      case .line:
        if LexicalRules.endsLineComment(byte) {
          self = .none
          return false
        }
      case .block, .blockStar:
        if self == .blockStar, byte == UInt8(ascii: "/") {
          self = .none
        } else {
          self = byte == UInt8(ascii: "*") ? .blockStar : .block
        }
      }
      return true
    }
  }
}
