/// Models for `twitter.json` whose coding keys spell out the file's snake_case keys,
/// for decoders and encoders with the default key strategy.
///
/// Properties follow the order of the keys in the file. ``TwitterFromSnakeCase`` has
/// the same shape for `.convertFromSnakeCase`; the types without snake_case keys
/// (``Hashtag``, ``MediaSizes``, ``MediaSize``) are shared by both.
///
/// ```swift
/// let search = try JSONDecoder().decode(Twitter.SearchResult.self, from: bytes)
/// ```
public enum Twitter {
  /// The whole document: a page of search results.
  public struct SearchResult: Codable, Equatable, Sendable {
    /// The tweets found.
    public let statuses: [Status]
    /// How the search ran and how to get the next page.
    public let searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
      case statuses
      case searchMetadata = "search_metadata"
    }
  }

  /// How the search ran and how to get the next page.
  public struct SearchMetadata: Codable, Equatable, Sendable {
    /// Seconds the search took.
    public let completedIn: Double
    /// The largest tweet id on this page.
    public let maxId: Int64
    /// `maxId` as a string.
    public let maxIdStr: String
    /// The query string for the next page.
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

    enum CodingKeys: String, CodingKey {
      case completedIn = "completed_in"
      case maxId = "max_id"
      case maxIdStr = "max_id_str"
      case nextResults = "next_results"
      case query
      case refreshUrl = "refresh_url"
      case count
      case sinceId = "since_id"
      case sinceIdStr = "since_id_str"
    }
  }

  /// A tweet, or the tweet that a tweet retweets.
  public struct Status: Codable, Equatable, Sendable {
    /// Why the search returned this tweet.
    public let metadata: StatusMetadata
    /// When the tweet was posted, as Twitter formats dates.
    public let createdAt: String
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
    /// Always `null` in the corpus.
    public let geo: Unobserved?
    /// Always `null` in the corpus.
    public let coordinates: Unobserved?
    /// Always `null` in the corpus.
    public let place: Unobserved?
    /// Always `null` in the corpus.
    public let contributors: Unobserved?
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
    /// The language of the text (BCP 47).
    public let lang: String
    /// The retweeted tweet, when this one is a retweet.
    public let retweetedStatus: Indirect<Status>?
    /// Whether a link in the tweet may be sensitive; only present for tweets with links.
    public let possiblySensitive: Bool?

    enum CodingKeys: String, CodingKey {
      case metadata
      case createdAt = "created_at"
      case id
      case idStr = "id_str"
      case text
      case source
      case truncated
      case inReplyToStatusId = "in_reply_to_status_id"
      case inReplyToStatusIdStr = "in_reply_to_status_id_str"
      case inReplyToUserId = "in_reply_to_user_id"
      case inReplyToUserIdStr = "in_reply_to_user_id_str"
      case inReplyToScreenName = "in_reply_to_screen_name"
      case user
      case geo
      case coordinates
      case place
      case contributors
      case retweetCount = "retweet_count"
      case favoriteCount = "favorite_count"
      case entities
      case favorited
      case retweeted
      case lang
      case retweetedStatus = "retweeted_status"
      case possiblySensitive = "possibly_sensitive"
    }
  }

  /// Why the search returned a tweet.
  public struct StatusMetadata: Codable, Equatable, Sendable {
    /// `recent` or `popular`.
    public let resultType: String
    /// The language the search detected.
    public let isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
      case resultType = "result_type"
      case isoLanguageCode = "iso_language_code"
    }
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
    public let url: String?
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
    public let createdAt: String
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
    public let profileBackgroundImageUrl: String
    /// The profile's background image over HTTPS.
    public let profileBackgroundImageUrlHttps: String
    /// Whether the background image is tiled.
    public let profileBackgroundTile: Bool
    /// The avatar over HTTP.
    public let profileImageUrl: String
    /// The avatar over HTTPS.
    public let profileImageUrlHttps: String
    /// The profile's banner; absent when there is none.
    public let profileBannerUrl: String?
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

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case name
      case screenName = "screen_name"
      case location
      case description
      case url
      case entities
      case protected
      case followersCount = "followers_count"
      case friendsCount = "friends_count"
      case listedCount = "listed_count"
      case createdAt = "created_at"
      case favouritesCount = "favourites_count"
      case utcOffset = "utc_offset"
      case timeZone = "time_zone"
      case geoEnabled = "geo_enabled"
      case verified
      case statusesCount = "statuses_count"
      case lang
      case contributorsEnabled = "contributors_enabled"
      case isTranslator = "is_translator"
      case isTranslationEnabled = "is_translation_enabled"
      case profileBackgroundColor = "profile_background_color"
      case profileBackgroundImageUrl = "profile_background_image_url"
      case profileBackgroundImageUrlHttps = "profile_background_image_url_https"
      case profileBackgroundTile = "profile_background_tile"
      case profileImageUrl = "profile_image_url"
      case profileImageUrlHttps = "profile_image_url_https"
      case profileBannerUrl = "profile_banner_url"
      case profileLinkColor = "profile_link_color"
      case profileSidebarBorderColor = "profile_sidebar_border_color"
      case profileSidebarFillColor = "profile_sidebar_fill_color"
      case profileTextColor = "profile_text_color"
      case profileUseBackgroundImage = "profile_use_background_image"
      case defaultProfile = "default_profile"
      case defaultProfileImage = "default_profile_image"
      case following
      case followRequestSent = "follow_request_sent"
      case notifications
    }
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
    public let url: String
    /// The full link.
    public let expandedUrl: String
    /// The link as shown.
    public let displayUrl: String
    /// Where the link starts and ends in the text.
    public let indices: [Int]

    enum CodingKeys: String, CodingKey {
      case url
      case expandedUrl = "expanded_url"
      case displayUrl = "display_url"
      case indices
    }
  }

  /// Hashtags, links, mentions and media in a tweet.
  public struct Entities: Codable, Equatable, Sendable {
    /// The hashtags.
    public let hashtags: [Hashtag]
    /// Cashtags; always empty in the corpus.
    public let symbols: [Unobserved]
    /// The links.
    public let urls: [URLEntity]
    /// The users mentioned.
    public let userMentions: [UserMention]
    /// Attached photos; absent when there are none.
    public let media: [Media]?

    enum CodingKeys: String, CodingKey {
      case hashtags
      case symbols
      case urls
      case userMentions = "user_mentions"
      case media
    }
  }

  /// A hashtag in a tweet.
  public struct Hashtag: Codable, Equatable, Sendable {
    /// The tag, without `#`.
    public let text: String
    /// Where the tag starts and ends in the text.
    public let indices: [Int]
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

    enum CodingKeys: String, CodingKey {
      case screenName = "screen_name"
      case name
      case id
      case idStr = "id_str"
      case indices
    }
  }

  /// A photo attached to a tweet.
  public struct Media: Codable, Equatable, Sendable {
    /// The photo's id.
    public let id: Int64
    /// `id` as a string.
    public let idStr: String
    /// Where the photo's link starts and ends in the text.
    public let indices: [Int]
    /// The photo over HTTP.
    public let mediaUrl: String
    /// The photo over HTTPS.
    public let mediaUrlHttps: String
    /// The shortened link in the text.
    public let url: String
    /// The link as shown.
    public let displayUrl: String
    /// The full link.
    public let expandedUrl: String
    /// The kind of media: `photo`.
    public let type: String
    /// The sizes the photo is served in.
    public let sizes: MediaSizes
    /// The tweet the photo first appeared in, when it came from another tweet.
    public let sourceStatusId: Int64?
    /// `sourceStatusId` as a string.
    public let sourceStatusIdStr: String?

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case indices
      case mediaUrl = "media_url"
      case mediaUrlHttps = "media_url_https"
      case url
      case displayUrl = "display_url"
      case expandedUrl = "expanded_url"
      case type
      case sizes
      case sourceStatusId = "source_status_id"
      case sourceStatusIdStr = "source_status_id_str"
    }
  }

  /// The sizes a photo is served in.
  public struct MediaSizes: Codable, Equatable, Sendable {
    /// Medium.
    public let medium: MediaSize
    /// Small.
    public let small: MediaSize
    /// Thumbnail.
    public let thumb: MediaSize
    /// Large.
    public let large: MediaSize
  }

  /// One size of a photo.
  public struct MediaSize: Codable, Equatable, Sendable {
    /// Width in pixels.
    public let w: Int
    /// Height in pixels.
    public let h: Int
    /// `fit` or `crop`.
    public let resize: String
  }
}
