/// A type with no values: the type of a field that a corpus never fills in.
///
/// Some fields are `null` in every entry of a corpus (Twitter's `geo`, CITM's
/// `subtitle`), and some arrays and objects are always empty (Twitter's `symbols`,
/// CITM's `blockIds`). The corpus does not say what they would hold, so the models
/// type them as `Unobserved?`, `[Unobserved]` or `[String: Unobserved]`. Decoding
/// `null`, `[]` and `{}` works as for any optional, array or dictionary; decoding an
/// actual value throws, so a model never silently drops data it was not written for.
public enum Unobserved: Codable, Hashable, Sendable {
  /// Always throws `DecodingError.typeMismatch`: no JSON value is an `Unobserved`.
  public init(from decoder: any Decoder) throws {
    throw DecodingError.typeMismatch(
      Unobserved.self,
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "The corpus model expects no value here; found one."))
  }

  /// Never called: there is no `Unobserved` value to encode.
  public func encode(to encoder: any Encoder) throws {
    switch self {}
  }
}
