/// Why CBOR input was rejected, and at which byte.
///
/// `JKCBORDecoder` throws it inside a `DecodingError.dataCorrupted` (as the
/// context's `underlyingError`), and `CBORValue(cbor:)` throws
/// it as it is.
///
/// ```swift
/// do {
///   _ = try CBORValue(cbor: [0x82, 0x01])
/// } catch let error as JKCBORError {
///   print(error)  // The input ends inside an item (byte offset 2).
/// }
/// ```
public struct JKCBORError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with the input.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The input has no bytes.
    case emptyInput
    /// The input ends inside an item.
    case unexpectedEndOfInput
    /// A head uses additional information 28, 29 or 30, which RFC 8949
    /// reserves.
    case reservedAdditionalInformation
    /// An indefinite length where none may be (an integer, a tag, a simple
    /// value), or a chunk of an indefinite-length string that is not a
    /// definite string of the same type.
    case invalidIndefiniteLength
    /// A break byte (0xFF) outside an indefinite-length item.
    case unexpectedBreak
    /// A two-byte simple value below 32, which RFC 8949 forbids.
    case invalidSimpleValue
    /// A text string that is not well-formed UTF-8.
    case invalidUTF8
    /// A map key that an earlier key of the same map equals.
    case duplicateKey
    /// Bytes after the top-level item.
    case bytesAfterItem
    /// A tag whose content has the wrong type or form (tag 1 on a text
    /// string, tag 37 on 15 bytes).
    case invalidTagContent
    /// Nesting deeper than the depth limit.
    case tooDeeplyNested
    /// A length or count that more bytes than remain would be needed for.
    case lengthBeyondInput
    /// A length or count over the limit the reader was given.
    case limitExceeded
    /// A value that the type asked for cannot hold (an integer too large, a
    /// negative number for an unsigned type).
    case valueOutOfRange
    /// A tag that the reader does not know, where the type asked for needs
    /// its content to be understood.
    case unknownTag
    /// A reference that refers to nothing it may: a string reference (tag
    /// 25) outside any string namespace (tag 256) or past its table, or a
    /// shared reference (tag 29) to a value not yet marked (tag 28) or to
    /// one that contains the reference.
    case invalidReference
  }

  /// What is wrong.
  public let kind: Kind
  /// A sentence saying what is wrong, without the offset.
  public let message: String
  /// The zero-based byte offset of the item (or the byte) at fault.
  public let offset: Int

  /// An error of `kind` at byte `offset`.
  public init(_ kind: Kind, _ message: String, at offset: Int) {
    self.kind = kind
    self.message = message
    self.offset = offset
  }

  /// The message followed by the offset: `The input ends inside an item
  /// (byte offset 2).`
  public var description: String {
    let sentence = message.hasSuffix(".") ? String(message.dropLast()) : message
    return "\(sentence) (byte offset \(offset))."
  }
}
