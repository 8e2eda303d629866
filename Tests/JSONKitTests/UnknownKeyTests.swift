import Foundation
import JSONKit
import Testing

/// `unknownKeyStrategy = .reject`: a member that the model never asked about
/// is an error at its object's path that names the key and points at it.
@Suite("Unknown keys refused on request")
struct UnknownKeyTests {
  static func rejecting(_ keys: JKDecoder.KeyDecodingStrategy = .useDefaultKeys) -> JKDecoder {
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    decoder.keyDecodingStrategy = keys
    return decoder
  }

  /// Expects `json` as `T` to fail for the unknown member `key` of the
  /// object at `path`, pointing at the key's `occurrence`-th appearance.
  static func expectUnknown<T: Decodable>(
    _ type: T.Type, _ json: String, key: String, path: [String], occurrence: Int = 1,
    decoder: JKDecoder = rejecting(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try decoder.decode(type, from: Data(json.utf8))
      Issue.record("decoded \(json)", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription.hasPrefix("Unknown key \"\(key)\""), "\(context.debugDescription)",
        sourceLocation: sourceLocation)
      #expect(
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == path,
        sourceLocation: sourceLocation)
      let place = DecodingErrorLocationTests.place(
        of: "\"\(key)\"", in: json, occurrence: occurrence)
      let location = DecodingError.dataCorrupted(context).jsonLocation
      #expect(location?.offset == place.offset, "\(json)", sourceLocation: sourceLocation)
      #expect(location?.line == place.line, sourceLocation: sourceLocation)
      #expect(location?.column == place.column, sourceLocation: sourceLocation)
      #expect(
        context.debugDescription.contains("The key is around"), sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(error)", sourceLocation: sourceLocation)
    }
  }

  struct User: Decodable, Equatable {
    var id: Int
    var name: String
    var nickname: String?
  }

  @Test func ignoredByDefaultAsFoundationDoes() throws {
    let json = Data(#"{"id": 1, "name": "Ada", "extra": true}"#.utf8)
    #expect(try JKDecoder().decode(User.self, from: json) == User(id: 1, name: "Ada"))
    #expect(JKDecoder().unknownKeyStrategy == .ignore)
  }

  @Test func aMemberNeverAskedAboutIsRejected() throws {
    Self.expectUnknown(
      User.self, #"{"id": 1, "nmae": "Ada", "name": "Ada"}"#, key: "nmae", path: [])
    Self.expectUnknown(
      [User].self, "[{\"id\": 1, \"name\": \"a\"},\n {\"id\": 2, \"name\": \"b\", \"admin\": 1}]",
      key: "admin", path: ["1"])
    // Every key asked about, present or not, is known.
    let decoder = Self.rejecting()
    #expect(
      try decoder.decode(User.self, from: Data(#"{"id": 1, "name": "a", "nickname": null}"#.utf8))
        == User(id: 1, name: "a"))
  }

  struct Probe: Decodable {
    enum CodingKeys: String, CodingKey { case a, b, c, d, e, f }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      _ = container.contains(.a)
      _ = try container.decodeNil(forKey: .b)
      _ = try container.decodeIfPresent(Int.self, forKey: .c)
      _ = try container.nestedUnkeyedContainer(forKey: .d)
      _ = try container.superDecoder(forKey: .e)
      _ = try container.decode([String: Int].self, forKey: .f)
    }
  }

  @Test func everyWayOfAskingCounts() throws {
    let json = #"{"a": 1, "b": null, "c": 3, "d": [], "e": {}, "f": {"any": 1, "keys": 2}}"#
    _ = try Self.rejecting().decode(Probe.self, from: Data(json.utf8))
    Self.expectUnknown(
      Probe.self, #"{"a": 1, "b": null, "c": 3, "d": [], "e": {}, "f": {}, "g": 0}"#, key: "g",
      path: [])
  }

  struct AllKeys: Decodable {
    var count: Int
    init(from decoder: any Decoder) throws {
      count = try decoder.container(keyedBy: AnyKey.self).allKeys.count
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test func readingAllKeysKnowsEveryMember() throws {
    #expect(
      try Self.rejecting().decode(AllKeys.self, from: Data(#"{"x": 1, "y": 2}"#.utf8)).count == 2)
  }

  @Test func dictionariesAndJSONValueTakeAnyKey() throws {
    let json = Data(#"{"a": {"x": 1}, "b": {"y": [1, {"z": 2}]}}"#.utf8)
    for keys in [JKDecoder.KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
      let decoder = Self.rejecting(keys)
      #expect(try decoder.decode([String: [String: JSONValue]].self, from: json).count == 2)
      #expect(try decoder.decode(JSONValue.self, from: json)["a"] != nil)
    }
  }

  struct Account: Decodable {
    var userName: String
    var createdAt: Int
  }

  @Test func keyStrategiesApply() throws {
    let json = #"{"user_name": "ada", "created_at": 1}"#
    let snake = Self.rejecting(.convertFromSnakeCase)
    #expect(try snake.decode(Account.self, from: Data(json.utf8)).userName == "ada")
    Self.expectUnknown(
      Account.self, #"{"user_name": "ada", "created_at": 1, "last_seen": 2}"#, key: "last_seen",
      path: [], decoder: snake)
    let upper = Self.rejecting(
      .custom { path in
        let last = path.last!.stringValue
        return AnyKey(stringValue: last.prefix(1).lowercased() + last.dropFirst())
      })
    #expect(
      try upper.decode(Account.self, from: Data(#"{"UserName": "a", "CreatedAt": 1}"#.utf8))
        .createdAt == 1)
    Self.expectUnknown(
      Account.self, #"{"UserName": "a", "CreatedAt": 1, "Other": 2}"#, key: "Other", path: [],
      decoder: upper)
  }

  class Animal: Decodable {
    var name: String
    private enum CodingKeys: String, CodingKey { case name }
    required init(from decoder: any Decoder) throws {
      name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
  }

  final class Dog: Animal {
    var breed: String
    private enum CodingKeys: String, CodingKey { case breed }
    required init(from decoder: any Decoder) throws {
      breed = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .breed)
      try super.init(from: decoder)
    }
  }

  final class Cat: Animal {
    var lives: Int
    private enum CodingKeys: String, CodingKey { case lives }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      lives = try container.decode(Int.self, forKey: .lives)
      try super.init(from: container.superDecoder())
    }
  }

  @Test func keysReadBySuperclassesCount() throws {
    let decoder = Self.rejecting()
    let dog = try decoder.decode(Dog.self, from: Data(#"{"name": "Rex", "breed": "lab"}"#.utf8))
    #expect(dog.name == "Rex" && dog.breed == "lab")
    Self.expectUnknown(
      Dog.self, #"{"name": "Rex", "breed": "lab", "age": 3}"#, key: "age", path: [])
    let cat = try decoder.decode(
      Cat.self, from: Data(#"{"lives": 9, "super": {"name": "Tom"}}"#.utf8))
    #expect(cat.name == "Tom" && cat.lives == 9)
    // The superclass's object, behind `superDecoder()`, is checked too.
    Self.expectUnknown(
      Cat.self, #"{"lives": 9, "super": {"name": "Tom", "color": "grey"}}"#, key: "color",
      path: ["super"])
  }

  struct Place: Decodable {
    var city: String
    var lat: Double
    enum CodingKeys: String, CodingKey { case city, geo }
    enum GeoKeys: String, CodingKey { case lat }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      city = try container.decode(String.self, forKey: .city)
      lat = try container.nestedContainer(keyedBy: GeoKeys.self, forKey: .geo)
        .decode(Double.self, forKey: .lat)
    }
  }

  @Test func nestedContainersAreChecked() throws {
    let decoder = Self.rejecting()
    #expect(
      try decoder.decode(Place.self, from: Data(#"{"city": "Oslo", "geo": {"lat": 59.9}}"#.utf8))
        .lat == 59.9)
    Self.expectUnknown(
      Place.self, #"{"city": "Oslo", "geo": {"lat": 59.9, "lng": 10.7}}"#, key: "lng",
      path: ["geo"])
  }

  /// Decodes each element, dropping those that fail.
  struct Lossy<Element: Decodable>: Decodable {
    var elements: [Element]
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      elements = []
      while !container.isAtEnd {
        if let element = try? container.decode(Element.self) {
          elements.append(element)
        } else {
          _ = try container.decode(JSONValue.self)
        }
      }
    }
  }

  @Test func valuesDroppedByTryAreNotChecked() throws {
    // The second element fails on its `id` before asking about `name`, and
    // is dropped: its members are not reported.
    let json = #"[{"id": 1, "name": "a"}, {"id": "x", "name": "b"}, {"id": 3, "name": "c"}]"#
    let users = try Self.rejecting().decode(Lossy<User>.self, from: Data(json.utf8))
    #expect(users.elements.map(\.id) == [1, 3])
    // An element with an unknown key fails as any other would: the lossy
    // model drops it, a plain array fails.
    let strict = #"[{"id": 1, "name": "a"}, {"id": "x"}, {"id": 3, "name": "c", "q": 0}]"#
    let kept = try Self.rejecting().decode(Lossy<User>.self, from: Data(strict.utf8))
    #expect(kept.elements.map(\.id) == [1])
    Self.expectUnknown(
      [User].self, #"[{"id": 1, "name": "a"}, {"id": 3, "name": "c", "q": 0}]"#, key: "q",
      path: ["1"])
  }

  /// A wrapper that decodes its value through a single-value container
  /// and then reads one more key of the same object.
  struct Tagged: Decodable {
    var user: User
    var tag: String
    enum CodingKeys: String, CodingKey { case tag }
    init(from decoder: any Decoder) throws {
      user = try decoder.singleValueContainer().decode(User.self)
      tag = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tag)
    }
  }

  @Test func anObjectIsCheckedWhenItsOutermostDecodeReturns() throws {
    let json = #"{"id": 1, "name": "a", "tag": "t"}"#
    let tagged = try Self.rejecting().decode(Tagged.self, from: Data(json.utf8))
    #expect(tagged.tag == "t")
    Self.expectUnknown(
      [Tagged].self, #"[{"id": 1, "name": "a", "tag": "t", "x": 1}]"#, key: "x", path: ["0"])
  }

  /// A model of no members, whose synthesized `init(from:)` opens no
  /// container.
  struct Empty: Decodable, Equatable {}

  /// A value whose `init(from:)` ignores its decoder.
  struct Ignoring: Decodable {
    init(from decoder: any Decoder) throws {}
  }

  struct Holder: Decodable {
    var id: Int
    var extra: Ignoring
  }

  @Test func anObjectThatNoContainerReadsHasOnlyUnknownMembers() throws {
    let decoder = Self.rejecting()
    #expect(try decoder.decode(Empty.self, from: Data("{}".utf8)) == Empty())
    #expect(try JKDecoder().decode(Empty.self, from: Data(#"{"a": 1}"#.utf8)) == Empty())
    Self.expectUnknown(Empty.self, #"{"a": 1}"#, key: "a", path: [])
    Self.expectUnknown(Empty?.self, #"{"a": 1}"#, key: "a", path: [])
    Self.expectUnknown([Empty].self, #"[{}, {"b": 2, "c": 3}]"#, key: "b", path: ["1"])
    Self.expectUnknown(
      Holder.self, #"{"id": 1, "extra": {"d": {"e": 4}}}"#, key: "d", path: ["extra"])
    // Only objects have members: an ignored array or scalar is not checked.
    for extra in ["[1, {\"f\": 5}]", "7", "null"] {
      let json = Data(#"{"id": 1, "extra": \#(extra)}"#.utf8)
      #expect(try decoder.decode(Holder.self, from: json).id == 1)
    }
    // What another decode of the same object asked about is known.
    let both = try decoder.decode(
      BothWays.self, from: Data(#"{"id": 1, "name": "a"}"#.utf8))
    #expect(both.user.id == 1)
  }

  /// Decodes one object twice: as a `User` and as an `Empty`.
  struct BothWays: Decodable {
    var user: User
    var empty: Empty
    init(from decoder: any Decoder) throws {
      user = try User(from: decoder)
      empty = try decoder.singleValueContainer().decode(Empty.self)
    }
  }

  /// Decodes the object through a single-value container as `Value`.
  struct Through<Value: Decodable>: Decodable {
    var value: Value
    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(Value.self)
    }
  }

  @Test func aSingleValueContainerPassesTheObjectOn() throws {
    let json = Data(#"{"id": 1, "name": "a"}"#.utf8)
    for keys in [JKDecoder.KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
      let decoder = Self.rejecting(keys)
      #expect(try decoder.decode(Through<[String: JSONValue]>.self, from: json).value.count == 2)
      #expect(try decoder.decode(Through<JSONValue>.self, from: json).value["name"] == "a")
      #expect(try decoder.decode(Through<User>.self, from: json).value.id == 1)
      let array = Data("[\(String(decoding: json, as: UTF8.self))]".utf8)
      #expect(try decoder.decode([Through<JSONValue>].self, from: array).count == 1)
    }
    Self.expectUnknown(
      Through<User>.self, #"{"id": 1, "name": "a", "q": 0}"#, key: "q", path: [])
    Self.expectUnknown(Through<Empty>.self, #"{"r": 0}"#, key: "r", path: [])
  }

  /// A superclass that reads nothing of its object.
  class Base: Decodable {
    init() {}
    required init(from decoder: any Decoder) throws {}
  }

  final class Derived: Base {
    var n: Int
    enum CodingKeys: String, CodingKey { case n }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      n = try container.decode(Int.self, forKey: .n)
      try super.init(from: container.superDecoder())
    }
  }

  @Test func anObjectBehindASuperDecoderThatNothingReads() throws {
    let decoder = Self.rejecting()
    let derived = try decoder.decode(Derived.self, from: Data(#"{"n": 1, "super": {}}"#.utf8))
    #expect(derived.n == 1)
    Self.expectUnknown(Derived.self, #"{"n": 1, "super": {"m": 2}}"#, key: "m", path: ["super"])
  }

  enum Shape: Decodable, Equatable {
    case circle(radius: Double)
    case square(side: Double)
  }

  @Test func enumsWithAssociatedValues() throws {
    let decoder = Self.rejecting()
    #expect(
      try decoder.decode(Shape.self, from: Data(#"{"circle": {"radius": 2}}"#.utf8))
        == .circle(radius: 2))
    Self.expectUnknown(
      Shape.self, #"{"circle": {"radius": 2, "color": 1}}"#, key: "color", path: ["circle"])
  }

  @Test func duplicateKeysAreKnownByName() throws {
    let user = try Self.rejecting().decode(
      User.self, from: Data(#"{"id": 1, "id": 2, "name": "a"}"#.utf8))
    #expect(user.id == 2)
    // Keys that the strategy converts to one name share it too.
    let account = try Self.rejecting(.convertFromSnakeCase).decode(
      Account.self, from: Data(#"{"user_name": "a", "userName": "b", "created_at": 1}"#.utf8))
    #expect(account.userName == "b")
  }

  /// A model that needs a configuration: a factor for its one member.
  struct Scaled: DecodableWithConfiguration {
    var value: Int
    enum CodingKeys: String, CodingKey { case value }
    init(from decoder: any Decoder, configuration: Int) throws {
      value =
        try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .value)
        * configuration
    }
  }

  /// A model that needs a configuration and reads nothing.
  struct Unread: DecodableWithConfiguration {
    init(from decoder: any Decoder, configuration: Int) throws {}
  }

  @Test func decodesWithAConfigurationAreChecked() throws {
    let decoder = Self.rejecting()
    let json = #"{"value": 2, "extra": 0}"#
    #expect(
      try decoder.decode(Scaled.self, from: Data(#"{"value": 2}"#.utf8), configuration: 3).value
        == 6)
    for attempt in [
      { _ = try decoder.decode(Scaled.self, from: Data(json.utf8), configuration: 3) },
      { _ = try decoder.decode(Unread.self, from: Data(#"{"extra": 0}"#.utf8), configuration: 3) },
    ] {
      do {
        try attempt()
        Issue.record("decoded")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.debugDescription.hasPrefix("Unknown key \"extra\""))
        #expect(context.codingPath.isEmpty)
      }
    }
    #expect(
      try JKDecoder().decode(Scaled.self, from: Data(json.utf8), configuration: 3).value == 6)
  }

  @Test func decodesAtAPointerCheckOnlyTheValueNamed() throws {
    let decoder = Self.rejecting()
    let json = #"{"data": {"user": {"id": 1, "name": "a", "x": 0}}, "meta": {}}"#
    do {
      _ = try decoder.decode(User.self, from: json, at: "/data/user")
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.hasPrefix("Unknown key \"x\""))
      #expect(context.codingPath.map(\.stringValue) == ["data", "user"])
      let place = DecodingErrorLocationTests.place(of: "\"x\"", in: json)
      #expect(DecodingError.dataCorrupted(context).jsonLocation?.offset == place.offset)
    }
    #expect(try decoder.decode(Int.self, from: json, at: "/data/user/id") == 1)
    do {
      _ = try decoder.decode(Empty.self, from: json, at: "/data")
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.hasPrefix("Unknown key \"user\""))
      #expect(context.codingPath.map(\.stringValue) == ["data"])
    }
  }

  @Test func streamsAndConfigurationsAreChecked() async throws {
    let lines = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\", \"z\": 0}\n"
    do {
      _ = try Self.rejecting().decodeLines(User.self, from: Data(lines.utf8))
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.hasPrefix("Unknown key \"z\""))
      let location = try #require(context.underlyingError as? JKInputLocation)
      #expect(location.line == 2)
      #expect(location.offset == DecodingErrorLocationTests.place(of: "\"z\"", in: lines).offset)
    }
  }
}
