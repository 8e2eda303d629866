extension JKDecoder {
  /// Decodes a value of type `T` from any collection of JSON bytes, in any
  /// of the encodings that `decode(_:from:)` with `Data` reads.
  ///
  /// Bytes in contiguous storage (`ArraySlice<UInt8>`, `ContiguousArray`,
  /// an `UnsafeBufferPointer`, or a server framework's buffer view) are
  /// read in place; any other sequence is gathered into one array first.
  /// Nothing is retained after the call returns.
  public func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, from bytes: Bytes) throws -> T
  where Bytes.Element == UInt8 {
    if let result = try bytes.withContiguousStorageIfAvailable({
      try decode(type, from: UnsafeRawBufferPointer($0))
    }) {
      return result
    }
    return try decode(type, from: Array(bytes))
  }
}
