import JSONKitCorpus

/// The reply to a posted status: the status, with one more favourite.
struct StatusReply: Encodable, Sendable {
  /// The status's id.
  let id: Int64
  /// The status's favourite count after this one.
  let favoriteCount: Int
  /// The status as posted.
  let status: Twitter.Status

  init(_ status: Twitter.Status) {
    id = status.id
    favoriteCount = status.favoriteCount + 1
    self.status = status
  }

  enum CodingKeys: String, CodingKey {
    case id
    case favoriteCount = "favorite_count"
    case status
  }
}
