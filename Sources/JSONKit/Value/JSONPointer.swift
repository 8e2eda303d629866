/// A JSON Pointer (RFC 6901): a path from the top of a JSON document to one
/// value in it.
///
/// A pointer is a sequence of reference tokens, each written after a `/`:
/// `"/data/items/0"` names the first element of the array under the key
/// `"items"` of the object under the key `"data"`. The empty pointer `""`
/// names the whole document. In a token, `~1` stands for `/` and `~0` for
/// `~`, so `"/a~1b"` names the member whose key is `"a/b"`:
///
/// ```swift
/// let value: JSONValue = ["data": ["items": [10, 20]], "a/b": true]
/// value[pointer: "/data/items/1"]  // .int(20)
/// value[pointer: "/a~1b"]          // .bool(true)
/// value[pointer: "/data/size"]     // nil
/// ```
///
/// Text from outside the program goes through ``init(_:)``, which throws a
/// ``SyntaxError`` for malformed text. A string literal never traps: a
/// malformed literal makes a pointer that keeps its ``syntaxError``, names
/// nothing, and throws that error from ``validated()``.
///
/// A token names the member of an object whose key has exactly its Unicode
/// scalars: as RFC 6901 requires, no normalization is performed, so the
/// token `"\u{E9}"` (`é` as one scalar) does not name the key `"e\u{301}"`
/// (`e` and a combining accent), although `String`'s `==` and
/// ``JSONObject``'s subscript hold the two equal. An object read from JSON
/// text holds the last value of a repeated key. A token names
/// an element of an array only when it is `0` or a decimal number without a
/// leading zero that is less than the array's count; `-`, which RFC 6901
/// reserves for the position after the last element, names no element.
///
/// Two pointers are equal when their tokens are; a pointer made from a
/// malformed literal equals only one made from the same text.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// Why a pointer's text is not a JSON Pointer, and where.
  ///
  /// ```swift
  /// do {
  ///   _ = try JSONPointer("/a~2")
  /// } catch {
  ///   print(error)
  ///   // Malformed JSON Pointer "/a~2": '~' must be followed by '0' or '1' (at offset 3)
  /// }
  /// ```
  public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was read as a pointer.
    public let pointer: String
    /// The offset of the fault in the UTF-8 bytes of ``pointer``: the byte
    /// that is wrong, or the byte count when the text ends too soon.
    public let offset: Int
    /// What is wrong, such as `'~' must be followed by '0' or '1'`.
    public let message: String

    /// `Malformed JSON Pointer "TEXT": message (at offset N)`.
    public var description: String {
      "Malformed JSON Pointer \"\(pointer)\": \(message) (at offset \(offset))"
    }
  }

  /// The tokens of a well-formed pointer, or the fault of a malformed literal.
  private enum Form: Sendable, Hashable {
    case wellFormed([String])
    case malformed(SyntaxError)
  }

  private let form: Form

  /// Reads a pointer from its text, as RFC 6901 writes it.
  ///
  /// `""` is the whole document; any other pointer starts with `/`, and in
  /// its tokens `~` is followed only by `0` (for `~`) or `1` (for `/`).
  ///
  /// ```swift
  /// let pointer = try JSONPointer("/a~1b/0")
  /// // pointer.tokens == ["a/b", "0"]
  /// ```
  ///
  /// This initializer reads text known at run time. Swift reads
  /// `JSONPointer("...")` with a string literal as the literal itself, made
  /// by ``init(stringLiteral:)``, which never throws.
  ///
  /// - Throws: ``SyntaxError`` when `text` is not a JSON Pointer.
  public init(_ text: String) throws(SyntaxError) {
    form = .wellFormed(try Self.parse(text))
  }

  /// Makes a pointer from a string literal, without trapping.
  ///
  /// A malformed literal makes a pointer whose ``syntaxError`` says why;
  /// it names no value, and ``validated()`` throws that error.
  public init(stringLiteral text: String) {
    do {
      form = .wellFormed(try Self.parse(text))
    } catch {
      form = .malformed(error)
    }
  }

  /// Makes the pointer to the value reached through `tokens` in order:
  /// object keys or array indices, written as they are, without escapes.
  ///
  /// ```swift
  /// JSONPointer(tokens: ["a/b", "0"]).description  // "/a~1b/0"
  /// JSONPointer(tokens: []).description            // "" (the whole document)
  /// ```
  public init(tokens: [String]) {
    form = .wellFormed(tokens)
  }

  /// The reference tokens, without escapes; empty for the pointer to the
  /// whole document, and for a malformed literal.
  public var tokens: [String] {
    if case .wellFormed(let tokens) = form { return tokens }
    return []
  }

  /// Why the literal this pointer was made from is malformed, or `nil` for
  /// a well-formed pointer.
  public var syntaxError: SyntaxError? {
    if case .malformed(let error) = form { return error }
    return nil
  }

  /// The pointer itself when it is well-formed.
  ///
  /// ```swift
  /// let pointer: JSONPointer = "/a~"
  /// try pointer.validated()  // throws: '~' must be followed by '0' or '1'
  /// ```
  ///
  /// - Throws: ``syntaxError`` when the pointer was made from a malformed
  ///   literal.
  public func validated() throws(SyntaxError) -> JSONPointer {
    if case .malformed(let error) = form { throw error }
    return self
  }

  /// The pointer's text, each token escaped (`~` as `~0`, `/` as `~1`)
  /// after a `/`; ``init(_:)`` reads it back as an equal pointer. For a
  /// malformed literal, the literal's text.
  public var description: String {
    switch form {
    case .wellFormed(let tokens):
      var bytes: [UInt8] = []
      for token in tokens {
        bytes.append(UInt8(ascii: "/"))
        for byte in token.utf8 {
          switch byte {
          case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
          case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
          default: bytes.append(byte)
          }
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    case .malformed(let error):
      return error.pointer
    }
  }

  /// The pointer to the value under `token` (an object key or an array
  /// index, without escapes) in the value this pointer names.
  ///
  /// ```swift
  /// let items: JSONPointer = "/data/items"
  /// items.appending("0")  // "/data/items/0"
  /// ```
  ///
  /// A pointer made from a malformed literal stays as it is.
  public func appending(_ token: String) -> JSONPointer {
    guard case .wellFormed(let tokens) = form else { return self }
    return JSONPointer(tokens: tokens + [token])
  }

  // MARK: - Reading

  /// The unescaped tokens of `text`.
  static func parse(_ text: String) throws(SyntaxError) -> [String] {
    let bytes = Array(text.utf8)
    guard let first = bytes.first else { return [] }
    guard first == UInt8(ascii: "/") else {
      throw SyntaxError(
        pointer: text, offset: 0, message: "a pointer other than \"\" must start with '/'")
    }
    var tokens: [String] = []
    var token: [UInt8] = []
    var index = 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "/") {
        tokens.append(String(decoding: token, as: UTF8.self))
        token.removeAll(keepingCapacity: true)
      } else if byte == UInt8(ascii: "~") {
        index += 1
        let escaped = index < bytes.count ? bytes[index] : nil
        switch escaped {
        case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
        default:
          throw SyntaxError(
            pointer: text, offset: index, message: "'~' must be followed by '0' or '1'")
        }
      } else {
        token.append(byte)
      }
      index += 1
    }
    tokens.append(String(decoding: token, as: UTF8.self))
    return tokens
  }

  /// The array index `token` stands for under RFC 6901, or `nil` when it
  /// names no element of any array.
  ///
  /// An index is `0` or ASCII digits without a leading zero; one too large
  /// for `Int` is `nil`, since no array is that long. `-`, the position
  /// after the last element, names no element and is `nil`, as are signs,
  /// spaces and every other token. The caller still checks the index
  /// against the array's count.
  static func arrayIndex(_ token: some StringProtocol) -> Int? {
    let digits = token.utf8
    guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else {
      return nil
    }
    var index = 0
    for digit in digits {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
      let (tens, overflowed) = index.multipliedReportingOverflow(by: 10)
      let (sum, overflowedAdding) = tens.addingReportingOverflow(Int(digit &- UInt8(ascii: "0")))
      guard !overflowed, !overflowedAdding else { return nil }
      index = sum
    }
    return index
  }
}

extension JSONValue {
  /// The value `pointer` names, or `nil` when it names nothing here: a key
  /// the object lacks (keys are compared scalar by scalar, without the
  /// canonical equivalence of ``JSONObject``'s subscript), an index outside the array (or `-`, or a token that
  /// is not an index), a token applied to a string, number, Boolean or
  /// null, or a pointer made from a malformed literal.
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: #"{"users": [{"name": "Ada"}]}"#)
  /// value[pointer: "/users/0/name"]  // .string("Ada")
  /// value[pointer: ""]               // the whole value
  /// value[pointer: "/users/1"]       // nil
  /// ```
  public subscript(pointer pointer: JSONPointer) -> JSONValue? {
    guard pointer.syntaxError == nil else { return nil }
    var current = self
    for token in pointer.tokens {
      switch current {
      case .object(let object):
        // The object holds at most one of the canonically equivalent
        // spellings of a key; the token names it only when spelled alike.
        guard let position = object.index(forKey: token),
          object.members[position].key.utf8.elementsEqual(token.utf8)
        else { return nil }
        current = object.members[position].value
      case .array(let elements):
        guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
          return nil
        }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
