import Foundation

extension JKEncoder {
  /// Encodes each value as JSON Lines: minified on one line, each line
  /// ending in `"\n"`.
  ///
  /// ```swift
  /// let out: Data = try JKEncoder().encodeLines(records)
  /// ```
  ///
  /// Every option applies to each value as in ``encode(_:)``, except
  /// `.prettyPrinted`, which would break values across lines.
  ///
  /// - Throws: `EncodingError.invalidValue` if ``outputFormatting`` holds
  ///   `.prettyPrinted`; otherwise the first value's error as ``encode(_:)``
  ///   throws it, its coding path starting with the value's index in
  ///   `values`, as encoding them as one array would give.
  public func encodeLines<Values: Sequence>(_ values: Values) throws -> Data
  where Values.Element: Encodable {
    guard !outputFormatting.contains(.prettyPrinted) else {
      throw EncodingError.invalidValue(
        values,
        EncodingError.Context(
          codingPath: [],
          debugDescription:
            "JSON Lines holds each value on one line, so .prettyPrinted cannot be used"))
    }
    var output: [UInt8] = []
    for (index, value) in values.enumerated() {
      do {
        try encode(value, appendingTo: &output)
      } catch let error as EncodingError {
        guard case .invalidValue(let value, let context) = error else { throw error }
        throw EncodingError.invalidValue(
          value,
          EncodingError.Context(
            codingPath: [AnyCodingKey(intValue: index)] + context.codingPath,
            debugDescription: context.debugDescription, underlyingError: context.underlyingError))
      }
      output.append(0x0A)
    }
    return Data(output)
  }
}
