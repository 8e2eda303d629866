import Foundation
import JSONKit
import Testing

/// A key whose values are one byte of plain data (a synthesized `CodingKeys`
/// enum) is found by that byte once its name was looked up, without asking
/// for its `stringValue` again. Names given by raw values, int-backed keys,
/// a key type of one case, a struct key, key types that share case
/// numbers, names that appear only in a later document, and key strategies
/// still give Foundation's values and errors.
extension FoundationParityTests {
  private struct Pair: Codable, Equatable {
    enum CodingKeys: String, CodingKey {
      case first = "kv-lookup first"
      case second = "kv-lookup second, seen late"
    }
    let first: Int?
    let second: String?
  }

  /// `Pair`'s case numbers with each other's names.
  private struct Swapped: Codable, Equatable {
    enum CodingKeys: String, CodingKey {
      case second = "kv-lookup first"
      case first = "kv-lookup second, seen late"
    }
    let second: Int?
    let first: String?
  }

  private struct Numbered: Codable, Equatable {
    enum CodingKeys: Int, CodingKey {
      case a = 7
      case b = 3
    }
    let a: Int
    let b: Int?
  }

  private struct Single: Codable, Equatable {
    let only: Int
  }

  /// A key of one byte that is a struct: its name follows its value.
  private struct FlagKey: CodingKey {
    let flag: Bool
    init(_ flag: Bool) { self.flag = flag }
    init?(stringValue: String) {
      guard stringValue == "yes" || stringValue == "no" else { return nil }
      flag = stringValue == "yes"
    }
    init?(intValue: Int) { nil }
    var stringValue: String { flag ? "yes" : "no" }
    var intValue: Int? { nil }
  }

  private struct Flags: Decodable, Equatable {
    let yes: Int
    let no: Int?
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: FlagKey.self)
      yes = try container.decode(Int.self, forKey: FlagKey(true))
      no = try container.decodeIfPresent(Int.self, forKey: FlagKey(false))
    }
  }

  private struct Snake: Codable, Equatable {
    let userName: String
    let kvLookupID: Int?
  }

  @Test func keysFoundByTheirValueGiveFoundationsValuesDocumentAfterDocument() {
    let first = "\"kv-lookup first\""
    let late = "\"kv-lookup second, seen late\""
    // The late name is in no document until the fourth: a lookup before
    // then finds no key of that name, and one after must find it.
    let documents = [
      "{\(first):1}", "{\(first):2,\"other\":0}", "{}", "{\(late):\"x\",\(first):3}",
      "{\(first):4,\(late):\"y\"}", "{\(late):null}", "{\(first):\"wrong\"}",
      "{\(late):5}", "[]",
    ]
    for _ in 0..<2 {
      for json in documents {
        expectSameDecoding(Pair.self, json)
        expectSameDecoding(Swapped.self, json)
        expectSameDecoding([Pair].self, "[\(json),\(json)]")
      }
    }
  }

  @Test func keysOfEveryOneByteKindGiveFoundationsValues() {
    for _ in 0..<2 {
      for json in ["{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "{\"a\":1}", "{\"b\":2}"] {
        expectSameDecoding(Numbered.self, json)
      }
      for json in ["{\"only\":1}", "{\"other\":1}", "{\"only\":null}"] {
        expectSameDecoding(Single.self, json)
      }
      for json in ["{\"yes\":1,\"no\":2}", "{\"no\":2,\"yes\":1}", "{\"yes\":1}", "{\"no\":2}"] {
        expectSameDecoding(Flags.self, json)
      }
    }
  }

  @Test func keysFoundByTheirValueFollowTheKeyStrategy() {
    for _ in 0..<2 {
      for json in [
        "{\"user_name\":\"a\",\"kv_lookup_id\":1}", "{\"kv_lookup_id\":2,\"user_name\":\"b\"}",
        "{\"userName\":\"c\"}", "{\"user_name\":\"d\",\"kvLookupID\":3}",
      ] {
        expectSameDecoding(Snake.self, json, keys: .convertFromSnakeCase)
        expectSameDecoding(Snake.self, json)
      }
    }
  }
}

/// Key types made at run time, one per number: `Zero<T>` and `One<T>`
/// nested as the number's binary digits, so that thousands of distinct
/// types take a recursion only as deep as the digits.
private protocol NumberedType {
  static var number: Int { get }
}

private enum NoDigits: NumberedType {
  static var number: Int { 1 }
}

private enum Zero<T: NumberedType>: NumberedType {
  static var number: Int { T.number * 2 }
}

private enum One<T: NumberedType>: NumberedType {
  static var number: Int { T.number * 2 + 1 }
}

/// A key of one byte whose name is its type's number: the key types
/// share their values and differ in their names.
private struct NumberedKey<T: NumberedType>: CodingKey {
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
  var stringValue: String { "k\(T.number)" }
  var intValue: Int? { nil }
  private let byte: UInt8 = 0
}

private struct NumberedModel<T: NumberedType>: Codable {
  let value: Int
  init(value: Int) { self.value = value }
  init(from decoder: any Decoder) throws {
    value = try decoder.container(keyedBy: NumberedKey<T>.self).decode(
      Int.self, forKey: NumberedKey<T>())
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NumberedKey<T>.self)
    try container.encode(value, forKey: NumberedKey<T>())
  }
}

private func numberedType(_ number: Int) -> any NumberedType.Type {
  var type: any NumberedType.Type = NoDigits.self
  for digit in (0..<13).reversed() {
    type = wrapped(type, one: number >> digit & 1 == 1)
  }
  return type
}

private func wrapped<T: NumberedType>(_ type: T.Type, one: Bool) -> any NumberedType.Type {
  one ? One<T>.self : Zero<T>.self
}

private func decodedNumber<T: NumberedType>(_ type: T.Type, _ decoder: JKDecoder) throws -> Int {
  try decoder.decode(NumberedModel<T>.self, from: Data("{\"k\(T.number)\":\(T.number)}".utf8))
    .value
}

private func encodedNumber<T: NumberedType>(_ type: T.Type, _ encoder: JKEncoder) throws -> String {
  String(decoding: try encoder.encode(NumberedModel<T>(value: T.number)), as: UTF8.self)
}

extension FoundationParityTests {
  @Test func keyTypesNumberedAgainAfterTheLimitWriteTheirOwnNames() throws {
    // As for the decoder: an encoder's key types are forgotten after 4,096.
    let encoder = JKEncoder()
    for number in 0..<4_400 {
      let type = numberedType(number)
      let expected = "{\"k\(type.number)\":\(type.number)}"
      #expect(try encodedNumber(type, encoder) == expected)
      #expect(try encodedNumber(type, encoder) == expected)
    }
  }

  @Test func keysNamedByTheirValueAreWrittenAsFoundationWritesThem() throws {
    let values: [any Encodable] = [
      Pair(first: 1, second: "a"), Swapped(second: 2, first: "b"), Numbered(a: 3, b: 4),
      Single(only: 5), Snake(userName: "c", kvLookupID: 6), [Pair(first: nil, second: "d")],
    ]
    // Strategies in turn on one encoder and on fresh ones: a name kept for
    // one must not be written under the other.
    let reused = JKEncoder()
    for round in 0..<3 {
      for strategy in [JSONEncoder.KeyEncodingStrategy.useDefaultKeys, .convertToSnakeCase] {
        for value in values {
          let foundation = JSONEncoder()
          foundation.outputFormatting = .sortedKeys
          foundation.keyEncodingStrategy = strategy
          let fresh = JKEncoder()
          fresh.outputFormatting = .sortedKeys
          fresh.keyEncodingStrategy = strategy
          reused.outputFormatting = .sortedKeys
          reused.keyEncodingStrategy = strategy
          let expected = try foundation.encode(value)
          #expect(try fresh.encode(value) == expected, "round \(round), \(value)")
          #expect(try reused.encode(value) == expected, "round \(round), \(value)")
        }
      }
    }
  }

  @Test func keyTypesNumberedAgainAfterTheLimitFindTheirOwnNames() throws {
    // More key types than a decoder's table keeps (4,096), each met twice
    // in a row: once the table forgets them, new key types take the
    // numbers of old ones whose values are the same byte.
    let decoder = JKDecoder()
    for number in 0..<4_400 {
      let type = numberedType(number)
      let expected = type.number
      #expect(try decodedNumber(type, decoder) == expected)
      #expect(try decodedNumber(type, decoder) == expected)
    }
  }
}
