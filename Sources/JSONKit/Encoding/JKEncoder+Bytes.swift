extension JKEncoder {
  /// Encodes `value` as JSON and lends the bytes to `body`, which copies
  /// them where they are needed (a server's outgoing buffer, a file): no
  /// `Data` or array is made on the way.
  ///
  /// The bytes are valid only inside `body`. Errors are those of
  /// ``encode(_:)``; when encoding fails, `body` is not called.
  public func withEncodedBytes<T: Encodable, Result>(
    of value: T, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result {
    try encodeIntoWriter(value).withBytes(body)
  }
}
