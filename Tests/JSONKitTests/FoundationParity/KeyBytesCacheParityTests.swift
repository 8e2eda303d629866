import Foundation
import JSONKit
import Testing

// Keys are written from a process-wide cache of their bytes (see
// `EncodedKeyCache`): these tests run keys that the cache keeps and keys it
// must not, under every output option and key strategy, through both
// encoders, and compare the bytes.

/// A model whose keys need escaping under some options and not others.
private struct AwkwardKeys: Encodable {
  enum CodingKeys: String, CodingKey {
    case plain
    case slash = "a/b"
    case quote = "say \"hi\""
    case backslash = "back\\slash"
    case control = "tab\there"
    case accented = "café"
    case emoji = "😀"
    case long = "a key long enough to be kept on the heap rather than inline"
    case tooLong =
      "a key longer than the cache keeps, which is written as it comes, byte by byte, every time"
  }
  var plain = 1
  var slash = 2
  var quote = 3
  var backslash = 4
  var control = 5
  var accented = 6
  var emoji = 7
  var long = 8
  var tooLong = 9
}

/// Two key types whose first cases spell different names, and two whose
/// cases spell the same name.
private struct FirstCases: Encodable {
  struct Left: Encodable {
    enum CodingKeys: String, CodingKey { case alpha, shared }
    var alpha = 1
    var shared = 2
  }
  struct Right: Encodable {
    enum CodingKeys: String, CodingKey {
      case beta
      case shared
    }
    var beta = 3
    var shared = 4
  }
  var left = Left()
  var right = Right()
}

/// An object whose keys are a plain-data struct's, named from their index
/// by `spelling` on every call, in the order `indices` gives.
private struct IndexedKeys: Encodable {
  enum Spelling {
    /// Long names, a new string on every call: never kept, always right.
    case madeAtRunTime
    /// Camel-cased: long names (new strings each time, never kept) for even
    /// indices, short ones (the same bits each time, kept) for odd ones.
    case builtCamelCase
    /// Short camel-cased names, the same bits each time.
    case camelCase
  }

  struct Key: CodingKey {
    let index: Int
    let spelling: Spelling
    var stringValue: String {
      switch spelling {
      case .madeAtRunTime: "a key made at run time, number \(index)"
      case .builtCamelCase:
        index.isMultiple(of: 2) ? "aKeyBuiltAtRunTime\(index)WithCapitals" : "k\(index)Value"
      case .camelCase: "m\(index)Key"
      }
    }
    var intValue: Int? { nil }
    init(index: Int, spelling: Spelling) {
      self.index = index
      self.spelling = spelling
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
  }

  let spelling: Spelling
  let indices: [Int]

  init(_ spelling: Spelling, _ indices: [Int]) {
    self.spelling = spelling
    self.indices = indices
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for index in indices {
      try container.encode(index, forKey: Key(index: index, spelling: spelling))
    }
  }
}

/// A camel-cased model for the key strategies.
private struct CamelCased: Encodable {
  var userName = "a"
  var profileImageURL = "b"
  var isVerified = true
  var nested = Nested()
  struct Nested: Encodable {
    var innerValue = 1
    var userName = "c"
  }
}

/// Keys under `.convertToSnakeCase`: names the key cache keeps converted
/// (short printable ASCII), names it must not keep (escaped, non-ASCII, too
/// long once converted, too long before), and keys that convert to one name.
private struct SnakeCaseKeys: Encodable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case userName
    case sameConvertedName = "user_name"
    case myURLValue
    case plain = "id"
    case slash = "a/bValue"
    case quote = "say\"HiThere"
    case accented = "caféOwner"
    case precomposed = "caféName"
    case decomposed = "cafe\u{301}Name"
    // KELVIN SIGN, an uppercase letter whose lowercase is ASCII `k`.
    case kelvin = "size\u{212A}"
    case kelvinASCII = "sizeK"
    case longestKept = "keyWhoseSnakeCaseSpellingIsAsLongAsTheCacheKeepsAbcd"
    case longerOnceConverted = "keyWhoseSnakeCaseSpellingIsOneByteLongerThanItKeepsAb"
    case tooLong = "aKeyLongerThanTheCacheKeepsEvenBeforeItIsConvertedToSnakeCaseAtAll"
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    for (index, key) in CodingKeys.allCases.enumerated() {
      try container.encode(index, forKey: key)
    }
    // Keys encoded again, whose last values win.
    try container.encode("again", forKey: .sameConvertedName)
    try container.encode("again", forKey: .kelvin)
  }
}

/// Two keyed containers sharing one object: one whose converted names the
/// cache keeps, and one whose keys hold their strings, which it never
/// keeps; the keys of both convert to the same names.
private struct SnakeCaseKeysOfTwoTypes: Encodable {
  func encode(to encoder: any Encoder) throws {
    var kept = encoder.container(keyedBy: SnakeCaseKeys.CodingKeys.self)
    var unkept = encoder.container(keyedBy: AnyKey.self)
    try kept.encode(1, forKey: .userName)
    try unkept.encode(2, forKey: AnyKey(stringValue: "userName"))
    try unkept.encode(3, forKey: AnyKey(stringValue: "myURLValue"))
    try kept.encode(4, forKey: .myURLValue)
    try unkept.encode(5, forKey: AnyKey(stringValue: "id"))
  }
}

private let allFormattings: [JKOutputFormatting] = [
  [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
  [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
]

/// Both encoders' bytes for `value`, configured alike.
private func encodedByBoth<T: Encodable>(
  _ value: T, _ formatting: JKOutputFormatting,
  strategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
) throws -> (foundation: String, jsonKit: String) {
  let foundation = JSONEncoder()
  foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
  foundation.keyEncodingStrategy = strategy
  let jsonKit = JKEncoder()
  jsonKit.outputFormatting = formatting
  jsonKit.keyEncodingStrategy = strategy
  return (
    String(decoding: try foundation.encode(value), as: UTF8.self),
    String(decoding: try jsonKit.encode(value), as: UTF8.self)
  )
}

extension FoundationParityTests {
  @Test func keysThatNeedEscapingComeOutAsFoundationWritesThemUnderEveryOutputOption() throws {
    // Twice, so that the second round writes whatever the first one cached.
    for _ in 0..<2 {
      for formatting in allFormattings {
        let (foundation, jsonKit) = try encodedByBoth(AwkwardKeys(), formatting)
        #expect(jsonKit == foundation, "formatting \(formatting.rawValue)")
      }
    }
  }

  @Test func keysOfDifferentTypesAreWrittenByTheirOwnNamesWhetherOrNotTheNamesAreEqual() throws {
    for _ in 0..<2 {
      for formatting in allFormattings {
        let (foundation, jsonKit) = try encodedByBoth(FirstCases(), formatting)
        #expect(jsonKit == foundation)
      }
    }
  }

  @Test func keysMadeAnewOnEveryCallAreWrittenAsFoundationWritesThem() throws {
    for _ in 0..<3 {
      let (foundation, jsonKit) = try encodedByBoth(
        IndexedKeys(.madeAtRunTime, [3, 1, 2, 1]), [.sortedKeys])
      #expect(jsonKit == foundation)
    }
  }

  @Test func keyStrategiesStillConvertKeysThatWereWrittenWithoutOneBefore() throws {
    let strategies: [JSONEncoder.KeyEncodingStrategy] = [
      .useDefaultKeys, .convertToSnakeCase,
      .custom { path in AnyKey(stringValue: path.last!.stringValue.uppercased() + "/x") },
      .useDefaultKeys,
    ]
    for strategy in strategies {
      for formatting in allFormattings {
        let (foundation, jsonKit) = try encodedByBoth(CamelCased(), formatting, strategy: strategy)
        #expect(jsonKit == foundation, "formatting \(formatting.rawValue)")
      }
    }
  }

  @Test func snakeCaseKeysComeOutAsFoundationWritesThemWhetherOrNotTheCacheKeepsThem() throws {
    // Twice, so that the second round writes what the first one cached.
    for _ in 0..<2 {
      for formatting in allFormattings {
        for value in [SnakeCaseKeys(), SnakeCaseKeysOfTwoTypes()] as [any Encodable] {
          let (foundation, jsonKit) = try encodedByBoth(
            value, formatting, strategy: .convertToSnakeCase)
          #expect(jsonKit == foundation, "formatting \(formatting.rawValue)")
        }
        let built = try encodedByBoth(
          IndexedKeys(.builtCamelCase, [3, 2, 1, 2, 0, 3]), formatting,
          strategy: .convertToSnakeCase)
        #expect(built.jsonKit == built.foundation, "formatting \(formatting.rawValue)")
        let many = try encodedByBoth(
          IndexedKeys(.camelCase, Array(0..<200)), formatting, strategy: .convertToSnakeCase)
        #expect(many.jsonKit == many.foundation, "formatting \(formatting.rawValue)")
      }
    }
    // The colliding keys keep one member each, as in Foundation.
    let sorted = try encodedByBoth(SnakeCaseKeys(), [.sortedKeys], strategy: .convertToSnakeCase)
    #expect(sorted.jsonKit.contains(#""user_name":"again""#))
    #expect(sorted.jsonKit.contains(#""size_k":"again""#))
    #expect(!sorted.jsonKit.contains(#""size_k":1"#))
  }

  @Test func snakeCaseKeysWrittenWithoutAStrategyBeforeAreStillConverted() throws {
    for strategy: JSONEncoder.KeyEncodingStrategy in [
      .useDefaultKeys, .convertToSnakeCase, .useDefaultKeys, .convertToSnakeCase,
    ] {
      let (foundation, jsonKit) = try encodedByBoth(
        SnakeCaseKeys(), [.sortedKeys], strategy: strategy)
      #expect(jsonKit == foundation)
    }
  }

  @Test func manyEncodersOnManyThreadsConvertKeysToSnakeCaseAsFoundationDoes() async throws {
    let formattings: [JKOutputFormatting] = [[.sortedKeys], [.sortedKeys, .prettyPrinted]]
    var expected: [String] = []
    for formatting in formattings {
      let foundation = JSONEncoder()
      foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
      foundation.keyEncodingStrategy = .convertToSnakeCase
      expected.append(String(decoding: try foundation.encode(SnakeCaseModel()), as: UTF8.self))
    }
    let outputs = expected
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<16 {
        group.addTask {
          for round in 0..<20 {
            // A fresh encoder each time, as an app making one per request.
            let encoder = JKEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let which = (task + round) % formattings.count
            encoder.outputFormatting = formattings[which]
            let output = String(decoding: try encoder.encode(SnakeCaseModel()), as: UTF8.self)
            #expect(output == outputs[which], "task \(task), round \(round)")
          }
        }
      }
      try await group.waitForAll()
    }
  }

  @Test func manyTasksEncodingAtOnceWriteTheKeysFoundationWrites() async throws {
    let expected = try encodedByBoth(ManyKeys(seed: 0), [.sortedKeys]).foundation
    try await withThrowingTaskGroup(of: String.self) { group in
      for task in 0..<16 {
        group.addTask {
          let encoder = JKEncoder()
          encoder.outputFormatting = task.isMultiple(of: 2) ? [.sortedKeys] : []
          var last = ""
          for _ in 0..<20 {
            let sorted = JKEncoder()
            sorted.outputFormatting = [.sortedKeys]
            _ = try encoder.encode(ManyKeys(seed: 0))
            last = String(decoding: try sorted.encode(ManyKeys(seed: 0)), as: UTF8.self)
          }
          return last
        }
      }
      for try await output in group { #expect(output == expected) }
    }
  }
}

/// A key for the custom strategy.
private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Objects of several key types, nested, for encoding from many tasks.
private struct ManyKeys: Encodable {
  let seed: Int
  struct A: Encodable {
    enum CodingKeys: String, CodingKey {
      case id, name, value
      case url = "url/path"
    }
    var id = 1
    var name = "a"
    var value = 1.5
    var url = "https://example.com/a"
  }
  struct B: Encodable {
    enum CodingKeys: String, CodingKey {
      case name, items
      case extra = "é"
    }
    var name = "b"
    var items = [A(), A()]
    var extra = true
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for _ in 0..<10 {
      try container.encode(A())
      try container.encode(B())
    }
  }
}

/// Nested objects under `.convertToSnakeCase`, with keys the cache keeps,
/// keys it does not, and keys that convert to one name, for encoding from
/// many threads.
private struct SnakeCaseModel: Encodable {
  struct Item: Encodable {
    enum CodingKeys: String, CodingKey {
      case itemId, displayName, isURLSafe
      case owner = "caféOwner"
    }
    var itemId = 1
    var displayName = "a/b"
    var isURLSafe = true
    var owner = "é"
  }
  var userName = "x"
  var items = [Item(), Item()]
  var keys = SnakeCaseKeys()
  var twoTypes = SnakeCaseKeysOfTwoTypes()
  var built = IndexedKeys(.builtCamelCase, [3, 2, 1, 2, 0, 3])
  var nested = ["innerKeyIsNotConverted": Item()]
}
