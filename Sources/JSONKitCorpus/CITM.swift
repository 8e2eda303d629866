/// Models for `citm_catalog.json`, a ticketing catalog.
///
/// The file's keys are camelCase, so these types need no coding keys and decode the
/// same with the default key strategy and with `.convertFromSnakeCase` (which leaves
/// the keys of `[String: …]` dictionaries, such as `PLEYEL_PLEYEL`, alone).
///
/// ```swift
/// let catalog = try JSONDecoder().decode(CITM.Catalog.self, from: bytes)
/// ```
public enum CITM {
  /// The whole document. The name tables are keyed by id strings.
  public struct Catalog: Codable, Equatable, Sendable {
    /// Area names by area id.
    public let areaNames: [String: String]
    /// Audience sub-category names by id.
    public let audienceSubCategoryNames: [String: String]
    /// Block names by block id; always empty in the corpus.
    public let blockNames: [String: Unobserved]
    /// Events by event id.
    public let events: [String: Event]
    /// Performances of the events.
    public let performances: [Performance]
    /// Seat category names by id.
    public let seatCategoryNames: [String: String]
    /// Sub-topic names by id.
    public let subTopicNames: [String: String]
    /// Subject names by id; always empty in the corpus.
    public let subjectNames: [String: Unobserved]
    /// Topic names by id.
    public let topicNames: [String: String]
    /// The sub-topic ids of each topic, by topic id.
    public let topicSubTopics: [String: [Int]]
    /// Venue names by venue code.
    public let venueNames: [String: String]
  }

  /// An event, such as a concert series.
  public struct Event: Codable, Equatable, Sendable {
    /// Always `null` in the corpus.
    public let description: Unobserved?
    /// The event's id.
    public let id: Int
    /// The path of the event's logo.
    public let logo: String?
    /// The event's name.
    public let name: String
    /// The ids of the event's sub-topics.
    public let subTopicIds: [Int]
    /// Always `null` in the corpus.
    public let subjectCode: Unobserved?
    /// Always `null` in the corpus.
    public let subtitle: Unobserved?
    /// The ids of the event's topics.
    public let topicIds: [Int]
  }

  /// One performance of an event.
  public struct Performance: Codable, Equatable, Sendable {
    /// The id of the event performed.
    public let eventId: Int
    /// The performance's id.
    public let id: Int
    /// The path of the performance's logo.
    public let logo: String?
    /// Always `null` in the corpus.
    public let name: Unobserved?
    /// The prices, one per seat category and audience.
    public let prices: [Price]
    /// The seat categories on sale.
    public let seatCategories: [SeatCategory]
    /// Always `null` in the corpus.
    public let seatMapImage: Unobserved?
    /// When the performance starts, in milliseconds since 1970.
    public let start: Int64
    /// The venue's code, a key of ``Catalog/venueNames``.
    public let venueCode: String
  }

  /// The price of one seat category for one audience.
  public struct Price: Codable, Equatable, Sendable {
    /// The price.
    public let amount: Int
    /// The audience sub-category's id.
    public let audienceSubCategoryId: Int
    /// The seat category's id.
    public let seatCategoryId: Int
  }

  /// A seat category and the areas it covers.
  public struct SeatCategory: Codable, Equatable, Sendable {
    /// The areas.
    public let areas: [Area]
    /// The seat category's id.
    public let seatCategoryId: Int
  }

  /// An area of a venue.
  public struct Area: Codable, Equatable, Sendable {
    /// The area's id.
    public let areaId: Int
    /// The area's blocks; always empty in the corpus.
    public let blockIds: [Unobserved]
  }
}
