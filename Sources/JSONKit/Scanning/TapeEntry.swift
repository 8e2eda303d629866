/// One value (or object key) on the tape: the flat record the scanner leaves
/// and every consumer walks.
///
/// Each entry is two words. The `header` holds the kind in bits 0–3, flags in
/// bits 4–7 and, in bits 8–63, the byte offset in the input where the value
/// starts (so any consumer can say where a bad value is). The `payload` depends
/// on the kind:
///
/// | kind        | payload                                                    |
/// |-------------|------------------------------------------------------------|
/// | null, bools | 0                                                          |
/// | int         | the value as Int64 bits                                    |
/// | uint        | the value, greater than Int64.max                          |
/// | double      | the value as Double bits                                   |
/// | bigInteger  | the literal's length; its text is in the input at offset   |
/// | string      | length of the bytes after the opening quote, or, with the  |
/// |             | `inArena` flag, the arena offset of an 8-byte length        |
/// |             | followed by the unescaped bytes                            |
/// | key         | the key's id in the ``KeyInterner``                           |
/// | bytes       | a CBOR byte string, as a string's payload                  |
/// | array,      | child count in the high 32 bits; in the low 32 bits, the   |
/// | object      | index of the first entry after the container               |
/// | shared      | a CBOR shared reference (tag 29) left for a class to read: |
/// | Reference   | the tape index of the value it refers to                   |
///
/// The flags are the kind's: a string's `inArena` (1) and `isASCII` (2), an
/// object's `hasDuplicateKeys` (1), a number's `json5Number` (1); from CBOR,
/// a byte string's `inArena` (1), `positiveBignum` (2), `negativeBignum` (4)
/// and `uuidBytes` (8), an array's `decimalFraction` (1), a null's
/// `undefined` (1).
///
/// An object's children alternate key, value. There are no end entries: the
/// value after index `i` starts at `i + 1` for scalars and at the container's
/// recorded end otherwise, which is how a consumer skips an unwanted value in
/// constant time. For example, `{"a":[1,2],"b":null}` becomes
///
/// ```
/// 0  object  count 2, end 7
/// 1  key     id of "a"
/// 2  array   count 2, end 5
/// 3  int     1
/// 4  int     2
/// 5  key     id of "b"
/// 6  null
/// ```
struct TapeEntry: BitwiseCopyable, Equatable {
  /// Kind, flags and source offset.
  var header: UInt64
  /// Kind-dependent value; see the type's documentation.
  var payload: UInt64

  /// What an entry holds.
  enum Kind: UInt8 {
    case null = 0
    case `false` = 1
    case `true` = 2
    case int = 3
    case uint = 4
    case double = 5
    case bigInteger = 6
    case string = 7
    case key = 8
    case bytes = 9
    case array = 10
    case object = 11
    /// A CBOR shared reference (tag 29) in place of a copy of the value it
    /// refers to: a class decoded there is the instance decoded at the
    /// value; any other reading of it has the document scanned again with
    /// copies (see `DecodingSession.needsSharedCopies`).
    case sharedReference = 12
  }

  /// Flag of a string whose unescaped bytes are in the arena.
  static let inArena: UInt8 = 1
  /// Flag of a string whose bytes are in the input (no `inArena`) and all
  /// below 0x80. A string in the input without it holds a byte of 0x80 or
  /// more; one in the arena may be either (an escape can spell ASCII).
  static let isASCII: UInt8 = 2
  /// Flag of a CBOR byte string that holds a bignum's magnitude (tag 2).
  static let positiveBignum: UInt8 = 2
  /// Flag of a CBOR byte string that holds `n` of the negative bignum
  /// −1 − n (tag 3, or a negative integer below −2⁶³).
  static let negativeBignum: UInt8 = 4
  /// Flag of a CBOR byte string that holds a UUID (tag 37).
  static let uuidBytes: UInt8 = 8
  /// Flag of a CBOR array that holds a decimal fraction (tag 4).
  static let decimalFraction: UInt8 = 1
  /// Flag of a `null` that is CBOR's `undefined`.
  static let undefined: UInt8 = 1
  /// Flag of an object in which some key occurs more than once.
  static let hasDuplicateKeys: UInt8 = 1
  /// Flag of a number written in JSON5's syntax (hexadecimal, an explicit
  /// `+`, a leading or trailing decimal point, `Infinity`, `NaN`): readers
  /// of its text must not take it for JSON's (see ``JSON5NumberText``).
  static let json5Number: UInt8 = 1

  /// The entry every scan writes after the document's last entry: a `null`
  /// at offset 0, the absent value that decoders of a missing key read (see
  /// TapeLayout.md, "After the document").
  static let end = TapeEntry(.null, offset: 0, payload: 0)

  @inline(__always)
  init(_ kind: Kind, flags: UInt8 = 0, offset: Int, payload: UInt64) {
    header = UInt64(kind.rawValue) | UInt64(flags) << 4 | UInt64(truncatingIfNeeded: offset) << 8
    self.payload = payload
  }

  /// What the entry holds.
  @inline(__always)
  var kind: Kind {
    // Every entry is written through `init`, so the nibble is always one of
    // the cases, whose raw values are their declaration order (0 to 11):
    // the enum's layout is that byte, and the tape's tests check it.
    unsafeBitCast(UInt8(truncatingIfNeeded: header & 0xF), to: Kind.self)
  }

  /// The kind-specific flags.
  @inline(__always)
  var flags: UInt8 { UInt8(truncatingIfNeeded: header >> 4) & 0xF }

  /// The byte offset in the input where the value (or key) starts.
  @inline(__always)
  var offset: Int { Int(truncatingIfNeeded: header >> 8) }

  /// For arrays and objects: the number of children (key–value pairs count once).
  @inline(__always)
  var childCount: Int { Int(truncatingIfNeeded: payload >> 32) }

  /// For arrays and objects: the index just past the container's last entry.
  @inline(__always)
  var containerEnd: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }

  /// Whether the entry is an array or an object (kinds 10 and 11).
  @inline(__always)
  var isContainer: Bool { (header & 0xF) &- UInt64(Kind.array.rawValue) < 2 }
}
