/// What decodes the classes found at a document's shared values: a value
/// that the scan recorded as shared (CBOR's tag 28) and the places that
/// refer to it (tag 29) decode as one instance of a class.
///
/// The format whose scanner records shared values gives one to the session
/// of a document that has some (``DecodingSession/sharedValues``); every
/// other decode pays one test that there is none.
protocol SharedValueDecoding: AnyObject {
  /// The class `type` decoded from the value at `index` of `session`'s
  /// document: the one instance of a shared value, wherever the model
  /// reads it first, or a value of its own at any other place.
  func instance<T: Decodable>(_ type: T.Type, at index: Int, in session: DecodingSession) throws
    -> T

  /// Throws, before a `JSONValue` is built from the value at `index`, for
  /// a shared reference left inside it in place of a copy (see
  /// ``DecodingSession/needsSharedCopies``).
  func checkNoSharedReference(
    in index: Int, path: [any CodingKey], in session: DecodingSession
  ) throws
}
