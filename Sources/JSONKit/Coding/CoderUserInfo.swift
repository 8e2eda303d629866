extension Dictionary where Key == CodingUserInfoKey, Value == any Sendable {
  /// These values as the `userInfo` of a coder's decoders or encoders,
  /// which Codable types read as `[CodingUserInfoKey: Any]`.
  var asCoderUserInfo: [CodingUserInfoKey: Any] {
    isEmpty ? [:] : mapValues { $0 as Any }
  }
}
