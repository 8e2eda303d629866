#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// JSON's text layout, written in one place for every writer of JSON text:
/// the encoder's streaming and tree forms and `JSONValue`'s writer.
///
/// Compact output has no whitespace. Pretty output is `JSONEncoder`'s: each
/// member on its own line indented two spaces per level, `" : "` between a
/// key and its value, and an empty container written as its opening
/// bracket, two line breaks, the indentation of its own line and its
/// closing bracket.
///
/// Indentation levels count containers: the members of the top-level
/// container are on level 1, and its closing bracket on level 0.
extension ByteWriter {
  /// Writes `{` or `[`.
  @inline(__always)
  mutating func openContainer(isObject: Bool) {
    append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
  }

  /// Writes what comes before a member (or element) on `indentLevel`: the
  /// comma after the previous one, then in pretty output the line break
  /// and indentation.
  @inline(__always)
  mutating func beginMember(isFirst: Bool, indentLevel: Int) {
    if !isFirst { append(UInt8(ascii: ",")) }
    if isPrettyPrinted { appendNewline(indentLevel: indentLevel) }
  }

  /// The length of what ``beginMember(isFirst:indentLevel:)`` writes
  /// between two members on `indentLevel`.
  func memberSeparatorLength(indentLevel: Int) -> Int {
    isPrettyPrinted ? 2 + 2 * indentLevel : 1
  }

  /// Writes an object member's key and the separator before its value.
  @inline(__always)
  mutating func writeKey(_ name: String) {
    writeQuoted(name)
    writeKeySeparator()
  }

  /// Writes the separator between a key and its value.
  @inline(__always)
  mutating func writeKeySeparator() {
    if isPrettyPrinted {
      append(" : ")
    } else {
      append(UInt8(ascii: ":"))
    }
  }

  /// Writes the end of a container whose own line is on `indentLevel`.
  @inline(__always)
  mutating func closeContainer(isObject: Bool, isEmpty: Bool, indentLevel: Int) {
    if isPrettyPrinted {
      if isEmpty { append(UInt8(ascii: "\n")) }
      appendNewline(indentLevel: indentLevel)
    }
    append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
  }

  /// Writes an empty object or array whose own line is on `indentLevel`.
  mutating func writeEmptyContainer(isObject: Bool, indentLevel: Int) {
    openContainer(isObject: isObject)
    closeContainer(isObject: isObject, isEmpty: true, indentLevel: indentLevel)
  }

  /// Whether `first` comes before `second` in sorted-keys order: by the
  /// UTF-8 bytes of the keys, as `JSONEncoder` sorts them.
  static func keyPrecedes(_ first: String, _ second: String) -> Bool {
    let compared = first.utf8.withContiguousStorageIfAvailable { first in
      second.utf8.withContiguousStorageIfAvailable { second in
        let common = min(first.count, second.count)
        if common > 0, let left = first.baseAddress, let right = second.baseAddress {
          let order = memcmp(left, right, common)
          if order != 0 { return order < 0 }
        }
        return first.count < second.count
      }
    }
    if let compared = compared ?? nil { return compared }
    return first.utf8.lexicographicallyPrecedes(second.utf8)
  }

}
