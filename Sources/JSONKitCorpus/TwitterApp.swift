import Foundation

/// Models for `twitter.json` written as an app would write them: camelCase properties
/// and no coding keys, for `.convertFromSnakeCase`; `Date` for dates, `URL` for links,
/// enums for closed sets of strings, optionals where a value may be missing.
///
/// Twitter writes dates as `Sun Aug 31 00:29:15 +0000 2014`, which no date strategy
/// reads, so these models decode ``appStyleDocument(from:)``, the same file with its
/// `created_at` dates in ISO 8601:
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let search = try decoder.decode(
///   TwitterApp.SearchResult.self, from: TwitterApp.appStyleDocument(from: bytes))
/// ```
///
/// The shape is ``TwitterFromSnakeCase``'s less the fields that are always `null` or
/// empty in the corpus (`geo`, `coordinates`, `place`, `contributors`, `symbols`), which
/// an app with no use for them leaves out; the decoders skip them.
/// ``Twitter/Hashtag`` and ``Twitter/MediaSizes`` are shared.
public enum TwitterApp {
  /// The whole document: a page of search results.
  public struct SearchResult: Codable, Equatable, Sendable {
    /// The tweets found.
    public let statuses: [Status]
    /// How the search ran and how to get the next page.
    public let searchMetadata: SearchMetadata
  }

  /// How the search ran and how to get the next page.
  public struct SearchMetadata: Codable, Equatable, Sendable {
    /// Seconds the search took.
    public let completedIn: Double
    /// The largest tweet id on this page.
    public let maxId: Int64
    /// `maxId` as a string.
    public let maxIdStr: String
    /// The query string for the next page (a query, not a URL).
    public let nextResults: String
    /// The search query, URL-encoded.
    public let query: String
    /// The query string that refreshes this page.
    public let refreshUrl: String
    /// The number of tweets asked for.
    public let count: Int
    /// The smallest tweet id asked for.
    public let sinceId: Int64
    /// `sinceId` as a string.
    public let sinceIdStr: String
  }

  /// Why the search returned a tweet.
  public enum ResultType: String, Codable, Sendable {
    /// Among the most recent tweets.
    case recent
    /// Among the most popular tweets.
    case popular
    /// Both.
    case mixed
  }

  /// A tweet, or the tweet that a tweet retweets.
  public struct Status: Codable, Equatable, Sendable {
    /// Why the search returned this tweet.
    public let metadata: StatusMetadata
    /// When the tweet was posted.
    public let createdAt: Date
    /// The tweet's id.
    public let id: Int64
    /// `id` as a string.
    public let idStr: String
    /// The tweet's text.
    public let text: String
    /// The client that posted the tweet, as an HTML link.
    public let source: String
    /// Whether the text was cut short.
    public let truncated: Bool
    /// The id of the tweet this one replies to.
    public let inReplyToStatusId: Int64?
    /// `inReplyToStatusId` as a string.
    public let inReplyToStatusIdStr: String?
    /// The id of the user this tweet replies to.
    public let inReplyToUserId: Int64?
    /// `inReplyToUserId` as a string.
    public let inReplyToUserIdStr: String?
    /// The screen name of the user this tweet replies to.
    public let inReplyToScreenName: String?
    /// The author.
    public let user: User
    /// How often the tweet was retweeted.
    public let retweetCount: Int
    /// How often the tweet was liked.
    public let favoriteCount: Int
    /// Hashtags, links, mentions and media in the text.
    public let entities: Entities
    /// Whether the searching user liked the tweet.
    public let favorited: Bool
    /// Whether the searching user retweeted the tweet.
    public let retweeted: Bool
    /// The language of the text (BCP 47; an open set, so a string).
    public let lang: String
    /// The retweeted tweet, when this one is a retweet.
    public let retweetedStatus: Indirect<Status>?
    /// Whether a link in the tweet may be sensitive; only present for tweets with links.
    public let possiblySensitive: Bool?
  }

  /// Why the search returned a tweet.
  public struct StatusMetadata: Codable, Equatable, Sendable {
    /// Why the search returned the tweet.
    public let resultType: ResultType
    /// The language the search detected.
    public let isoLanguageCode: String
  }

  /// A Twitter account.
  public struct User: Codable, Equatable, Sendable {
    /// The user's id.
    public let id: Int64
    /// `id` as a string.
    public let idStr: String
    /// The display name.
    public let name: String
    /// The handle, without `@`.
    public let screenName: String
    /// Where the user says they are.
    public let location: String
    /// The profile's description.
    public let description: String
    /// The profile's link.
    public let url: URL?
    /// Links in the description and the profile's link.
    public let entities: UserEntities
    /// Whether the account's tweets are protected.
    public let protected: Bool
    /// The number of followers.
    public let followersCount: Int
    /// The number of accounts followed.
    public let friendsCount: Int
    /// The number of lists the user is on.
    public let listedCount: Int
    /// When the account was created.
    public let createdAt: Date
    /// The number of tweets the user liked.
    public let favouritesCount: Int
    /// The time zone's offset from UTC, in seconds.
    public let utcOffset: Int?
    /// The time zone's name.
    public let timeZone: String?
    /// Whether the user geotags tweets.
    public let geoEnabled: Bool
    /// Whether the account is verified.
    public let verified: Bool
    /// The number of tweets the user posted.
    public let statusesCount: Int
    /// The interface language.
    public let lang: String
    /// Whether the account allows contributors.
    public let contributorsEnabled: Bool
    /// Whether the user translates Twitter.
    public let isTranslator: Bool
    /// Whether the user's tweets may be translated.
    public let isTranslationEnabled: Bool
    /// The profile's background colour, as hex digits.
    public let profileBackgroundColor: String
    /// The profile's background image over HTTP.
    public let profileBackgroundImageUrl: URL
    /// The profile's background image over HTTPS.
    public let profileBackgroundImageUrlHttps: URL
    /// Whether the background image is tiled.
    public let profileBackgroundTile: Bool
    /// The avatar over HTTP.
    public let profileImageUrl: URL
    /// The avatar over HTTPS.
    public let profileImageUrlHttps: URL
    /// The profile's banner; absent when there is none.
    public let profileBannerUrl: URL?
    /// The profile's link colour.
    public let profileLinkColor: String
    /// The profile's sidebar border colour.
    public let profileSidebarBorderColor: String
    /// The profile's sidebar colour.
    public let profileSidebarFillColor: String
    /// The profile's text colour.
    public let profileTextColor: String
    /// Whether the profile shows its background image.
    public let profileUseBackgroundImage: Bool
    /// Whether the profile has the default theme.
    public let defaultProfile: Bool
    /// Whether the profile has the default avatar.
    public let defaultProfileImage: Bool
    /// Whether the searching user follows this one.
    public let following: Bool
    /// Whether the searching user asked to follow this one.
    public let followRequestSent: Bool
    /// Whether the searching user gets this one's notifications.
    public let notifications: Bool
  }

  /// Links in a user's description and profile.
  public struct UserEntities: Codable, Equatable, Sendable {
    /// Links in the description.
    public let description: URLEntities
    /// The profile's link; absent when there is none.
    public let url: URLEntities?
  }

  /// A list of links.
  public struct URLEntities: Codable, Equatable, Sendable {
    /// The links.
    public let urls: [URLEntity]
  }

  /// A link in a text.
  public struct URLEntity: Codable, Equatable, Sendable {
    /// The shortened link, as written.
    public let url: URL
    /// The full link.
    public let expandedUrl: URL
    /// The link as shown (no scheme, possibly cut short: not a URL).
    public let displayUrl: String
    /// Where the link starts and ends in the text.
    public let indices: [Int]
  }

  /// Hashtags, links, mentions and media in a tweet.
  public struct Entities: Codable, Equatable, Sendable {
    /// The hashtags.
    public let hashtags: [Twitter.Hashtag]
    /// The links.
    public let urls: [URLEntity]
    /// The users mentioned.
    public let userMentions: [UserMention]
    /// Attached media; absent when there are none.
    public let media: [Media]?
  }

  /// A user mentioned in a tweet.
  public struct UserMention: Codable, Equatable, Sendable {
    /// The handle, without `@`.
    public let screenName: String
    /// The display name.
    public let name: String
    /// The user's id.
    public let id: Int64
    /// `id` as a string.
    public let idStr: String
    /// Where the mention starts and ends in the text.
    public let indices: [Int]
  }

  /// The kind of a tweet's media.
  public enum MediaType: String, Codable, Sendable {
    /// A photo.
    case photo
    /// A video.
    case video
    /// An animated GIF.
    case animatedGif = "animated_gif"
  }

  /// A photo or video attached to a tweet.
  public struct Media: Codable, Equatable, Sendable {
    /// The media's id.
    public let id: Int64
    /// `id` as a string.
    public let idStr: String
    /// Where the media's link starts and ends in the text.
    public let indices: [Int]
    /// The media over HTTP.
    public let mediaUrl: URL
    /// The media over HTTPS.
    public let mediaUrlHttps: URL
    /// The shortened link in the text.
    public let url: URL
    /// The link as shown.
    public let displayUrl: String
    /// The full link.
    public let expandedUrl: URL
    /// The kind of media.
    public let type: MediaType
    /// The sizes the media is served in.
    public let sizes: Twitter.MediaSizes
    /// The tweet the media first appeared in, when it came from another tweet.
    public let sourceStatusId: Int64?
    /// `sourceStatusId` as a string.
    public let sourceStatusIdStr: String?
  }

  /// `twitter.json` (its bytes as `original`) with every `created_at` date rewritten
  /// from Twitter's `Sun Aug 31 00:29:15 +0000 2014` to ISO 8601,
  /// `2014-08-31T00:29:15Z`; everything else, whitespace included, is kept.
  ///
  /// - Throws: an error when `original` is not JSON or a `created_at` string is not a
  ///   date in Twitter's format.
  public static func appStyleDocument(from original: Data) throws -> Data {
    let tree = try RawJSON(parsing: Array(original))
    return Data(
      try tree.replacingStrings(named: "created_at") { contents in
        let text = String(decoding: contents, as: UTF8.self)
        guard let date = iso8601(fromTwitterDate: text) else {
          throw UnreadableDate(text: text)
        }
        return Array(date.utf8)
      })
  }

  /// A `created_at` string that is not a date in Twitter's format.
  struct UnreadableDate: Error, CustomStringConvertible {
    let text: String
    var description: String { "Not a Twitter date: \(text)" }
  }

  /// `Sun Aug 31 00:29:15 +0000 2014` as `2014-08-31T00:29:15Z` (an offset other than
  /// `+0000` as `±hh:mm`), by rearranging the fields: no calendar or time zone is
  /// involved, so the result is the same everywhere. `nil` for another format.
  public static func iso8601(fromTwitterDate text: String) -> String? {
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 6, let month = months.firstIndex(of: String(fields[1])),
      fields[2].count == 2, fields[2].allSatisfy(\.isASCIIDigit),
      fields[3].count == 8, fields[4].count == 5, fields[5].count == 4,
      fields[5].allSatisfy(\.isASCIIDigit),
      fields[4].first == "+" || fields[4].first == "-",
      fields[4].dropFirst().allSatisfy(\.isASCIIDigit)
    else { return nil }
    let time = fields[3].split(separator: ":", omittingEmptySubsequences: false)
    guard time.count == 3, time.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) })
    else { return nil }
    let offset = fields[4]
    let zone =
      offset == "+0000" ? "Z" : "\(offset.prefix(3)):\(offset.suffix(2))"
    let monthNumber = month + 1 < 10 ? "0\(month + 1)" : "\(month + 1)"
    return "\(fields[5])-\(monthNumber)-\(fields[2])T\(fields[3])\(zone)"
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
