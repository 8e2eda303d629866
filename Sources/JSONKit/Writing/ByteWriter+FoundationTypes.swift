import Foundation

/// Foundation's value types written as JSON strings straight into the
/// buffer, with the bytes `JSONEncoder` writes for them: no `String` is made
/// on the way, except for the rare `Decimal` JSONKit's own writer leaves to
/// its `description`.
extension ByteWriter {
  /// Writes `uuid.uuidString` in quotes; its characters need no escapes.
  @inline(__always)
  mutating func writeQuoted(_ uuid: UUID) {
    ensureCapacity(UUIDText.length + 2)
    let start = freeSpace.assumingMemoryBound(to: UInt8.self)
    start.pointee = UInt8(ascii: "\"")
    UUIDText.write(uuid, to: start + 1)
    start[UUIDText.length + 1] = UInt8(ascii: "\"")
    commit(UUIDText.length + 2)
  }

  /// Writes the date as `JSONEncoder`'s `.iso8601` strategy writes it, in
  /// quotes; its characters need no escapes. The caller refuses a NaN date,
  /// the one date without such a text.
  mutating func writeQuotedISO8601(_ date: Date) {
    ensureCapacity(ISO8601DateText.maxLength + 2)
    let start = freeSpace.assumingMemoryBound(to: UInt8.self)
    let length = ISO8601DateText.write(date, to: start + 1) ?? 0
    start.pointee = UInt8(ascii: "\"")
    start[length + 1] = UInt8(ascii: "\"")
    commit(length + 2)
  }

  /// Writes the data's base64 text (`base64EncodedString()`) in quotes,
  /// with its `/` escaped unless the output says not to, as `JSONEncoder`
  /// escapes it.
  mutating func writeQuotedBase64(_ data: Data) {
    data.withUnsafeBytes { bytes in
      guard let length = Base64Text.maxEncodedLength(bytes.count, escapingSlashes: escapesSlashes),
        length < Int.max - 2
      else {
        // Beyond any buffer this process could allocate; the allocation
        // fails as it would for the String Foundation would make.
        return writeQuoted(Data(bytes).base64EncodedString())
      }
      ensureCapacity(length + 2)
      let start = freeSpace.assumingMemoryBound(to: UInt8.self)
      start.pointee = UInt8(ascii: "\"")
      let written = Base64Text.encode(bytes, escapingSlashes: escapesSlashes, to: start + 1)
      start[written + 1] = UInt8(ascii: "\"")
      commit(written + 2)
    }
  }

  /// Writes a Decimal as `JSONEncoder` does: its `description`, unquoted
  /// (a NaN too, as `NaN`).
  mutating func write(_ decimal: Decimal) {
    ensureCapacity(DecimalDescription.maxLength)
    if let count = DecimalDescription.write(decimal, to: freeSpace) {
      commit(count)
    } else {
      writeFoundationDescription(decimal)
    }
  }

  /// A Decimal whose fields JSONKit's writer does not take for granted.
  @inline(never)
  private mutating func writeFoundationDescription(_ decimal: Decimal) {
    var text = decimal.description
    text.withUTF8 { append(UnsafeRawPointer($0.baseAddress!), count: $0.count) }
  }
}
