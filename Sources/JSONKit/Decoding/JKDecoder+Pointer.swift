import Foundation

extension JKDecoder {
  /// Decodes a value of type `T` from the part of a JSON document that an
  /// RFC 6901 JSON Pointer names, without a wrapper type for what lies
  /// around it:
  ///
  /// ```swift
  /// // {"data": {"items": [...]}, "meta": {...}}
  /// let items = try JKDecoder().decode([Item].self, from: data, at: "/data/items")
  /// ```
  ///
  /// The whole document is read and validated first, as by
  /// `decode(_:from:)`; then only the value the pointer names is decoded.
  /// Coding paths in errors are full paths from the document's root. A
  /// pointer that names nothing is `DecodingError.keyNotFound` (an object
  /// lacks the key) or `DecodingError.valueNotFound` (an array lacks the
  /// element, or the token is applied to a string, number, Boolean or
  /// null) at the pointer's path. Members are found by their keys as
  /// written, whatever the key strategy, with exactly the token's Unicode
  /// scalars (RFC 6901 performs no normalization), and a repeated key
  /// names its last value.
  ///
  /// - Throws: ``JSONPointer/SyntaxError`` when `pointer` was made from a
  ///   malformed literal, before the input is read.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data, at pointer: JSONPointer)
    throws -> T
  {
    try data.withUnsafeBytes { try decode(type, from: $0, at: pointer) }
  }

  /// Decodes a value that needs a configuration from the part of a JSON
  /// document that `pointer` names, as ``decode(_:from:at:)-(_,Data,_)``
  /// does, and as `decode(_:from:configuration:)` decodes a whole document.
  public func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, at pointer: JSONPointer,
    configuration: T.DecodingConfiguration
  ) throws -> T {
    let tokens = try pointer.validated().tokens
    return try data.withUnsafeBytes { bytes in
      try withRootDecoder(bytes) {
        try $0.session.initialize(type, atTokens: tokens, configuration: configuration)
      }
    }
  }

  /// Decodes a value whose configuration a provider type supplies from the
  /// part of a JSON document that `pointer` names.
  public func decode<T, C>(
    _ type: T.Type, from data: Data, at pointer: JSONPointer, configuration: C.Type
  ) throws -> T
  where
    T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
    T.DecodingConfiguration == C.DecodingConfiguration
  {
    try decode(type, from: data, at: pointer, configuration: C.decodingConfiguration)
  }

  /// Decodes a value of type `T` from the part of JSON bytes that `pointer`
  /// names, as ``decode(_:from:at:)-(_,Data,_)`` does.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], at pointer: JSONPointer)
    throws -> T
  {
    try bytes.withUnsafeBytes { try decode(type, from: $0, at: pointer) }
  }

  /// Decodes a value of type `T` from the part of JSON text that `pointer`
  /// names, as ``decode(_:from:at:)-(_,Data,_)`` does; the text is read as
  /// UTF-8, as `decode(_:from:)` reads a `String`.
  public func decode<T: Decodable>(_ type: T.Type, from string: String, at pointer: JSONPointer)
    throws -> T
  {
    let tokens = try pointer.validated().tokens
    return try InputBytes.with(string) { bytes in
      try withRootDecoder(InputText(utf8: bytes), withOptions { $0 }) {
        try $0.session.unwrap(type, atTokens: tokens)
      }
    }
  }

  /// Decodes a value of type `T` from the part of JSON bytes in memory the
  /// caller owns that `pointer` names, as ``decode(_:from:at:)-(_,Data,_)``
  /// does; nothing is retained after the call returns.
  public func decode<T: Decodable>(
    _ type: T.Type, from buffer: UnsafeRawBufferPointer, at pointer: JSONPointer
  ) throws -> T {
    let tokens = try pointer.validated().tokens
    return try withRootDecoder(buffer) { try $0.session.unwrap(type, atTokens: tokens) }
  }

  /// Decodes a value of type `T` from the part of any collection of JSON
  /// bytes that `pointer` names, as ``decode(_:from:at:)-(_,Data,_)`` does;
  /// bytes in contiguous storage are read in place.
  public func decode<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes, at pointer: JSONPointer
  ) throws -> T where Bytes.Element == UInt8 {
    if let result = try bytes.withContiguousStorageIfAvailable({
      try decode(type, from: UnsafeRawBufferPointer($0), at: pointer)
    }) {
      return result
    }
    return try decode(type, from: Array(bytes), at: pointer)
  }
}
