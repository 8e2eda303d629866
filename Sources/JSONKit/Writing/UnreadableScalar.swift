/// A string about to be written holds a scalar that JSONKit's reader
/// rejects: U+0000 or a noncharacter (U+FDD0 to U+FDEF, U+nFFFE, U+nFFFF).
///
/// Foundation writes such a string (U+0000 as `\u0000`), but JSONKit could
/// not read its own output back, so its writers throw instead. The string
/// writer throws this; the encoder and the `JSONValue` writer turn it into
/// an `EncodingError.invalidValue` with the coding path.
struct UnreadableScalar: Error {
  /// The first such scalar in the string.
  let scalar: Unicode.Scalar
  /// The string that holds it.
  let string: String

  init(_ scalar: Unicode.Scalar, in string: String) {
    self.scalar = scalar
    self.string = string
  }

  /// `U+XXXX`, with at least four hexadecimal digits.
  private var scalarName: String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The error for the string as a value, at `codingPath`.
  func valueError(codingPath: [any CodingKey]) -> EncodingError {
    .invalidValue(
      string,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: "The string holds \(scalarName), which cannot be read back by "
          + "JSONKit's strict reader (it rejects U+0000 and the noncharacters)."))
  }

  /// The error for the string as an object key; `codingPath` is the path of
  /// the member it names.
  func keyError(codingPath: [any CodingKey]) -> EncodingError {
    .invalidValue(
      string,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: "The key holds \(scalarName), which cannot be read back by "
          + "JSONKit's strict reader (it rejects U+0000 and the noncharacters)."))
  }
}
