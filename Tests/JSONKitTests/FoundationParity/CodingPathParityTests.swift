import Foundation
import JSONKit
import Testing

/// A model whose coding keys have int values, reading a nested keyed
/// container, a nested unkeyed container, a super decoder for a key and a
/// nested value, each of which may fail below that key.
struct IntKeyedProbe: Decodable, Equatable {
  enum CodingKeys: Int, CodingKey {
    case keyed = 1
    case unkeyed = 2
    case superKey = 3
    case nested = 4
    case inner = 5
  }

  struct Inner: Decodable, Equatable {
    enum CodingKeys: Int, CodingKey { case inner = 5 }
    let inner: Int
  }

  var values: [Int] = []

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.keyed) {
      let nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .keyed)
      values.append(try nested.decode(Int.self, forKey: .inner))
      #expect(nested.codingPath.last is CodingKeys)
    }
    if container.contains(.unkeyed) {
      var nested = try container.nestedUnkeyedContainer(forKey: .unkeyed)
      values.append(try nested.decode(Int.self))
      values.append(try nested.decode(Inner.self).inner)
    }
    if container.contains(.superKey) {
      let superDecoder = try container.superDecoder(forKey: .superKey)
      #expect(superDecoder.codingPath.last is CodingKeys)
      values.append(try Inner(from: superDecoder).inner)
    }
    if container.contains(.nested) {
      values.append(try container.decode(Inner.self, forKey: .nested).inner)
    }
  }
}

/// A key type that a dictionary takes as its keys.
enum ParityColor: String, Codable, Hashable, CodingKeyRepresentable {
  case red, green
}

/// A key type that is not `CodingKeyRepresentable`: a dictionary keyed by
/// it is an array of keys and values.
enum ParityPlainColor: String, Codable, Hashable {
  case red, green
}

enum ParitySlot: Int, Codable, Hashable, CodingKeyRepresentable {
  case first = 1
  case second = 2
}

struct ParityLeaf: Codable, Equatable {
  let x: Int
}

extension FoundationParityTests {
  /// Keys with int values keep them in every path, as the caller's own
  /// key objects.
  @Test(arguments: [
    #"{"keyed":{"inner":5}}"#,
    #"{"keyed":{"inner":"x"}}"#,
    #"{"keyed":{}}"#,
    #"{"keyed":[]}"#,
    #"{"unkeyed":[1,{"inner":2}]}"#,
    #"{"unkeyed":["x"]}"#,
    #"{"unkeyed":[1,{"inner":"x"}]}"#,
    #"{"unkeyed":[1]}"#,
    #"{"unkeyed":{}}"#,
    #"{"superKey":{"inner":3}}"#,
    #"{"superKey":{"inner":"x"}}"#,
    #"{"superKey":{}}"#,
    #"{"superKey":7}"#,
    #"{"nested":{"inner":4}}"#,
    #"{"nested":{"inner":null}}"#,
    #"{"nested":[]}"#,
  ])
  func intValuedCodingKeysKeepTheirIntValuesInPaths(_ json: String) {
    expectSameDecoding(IntKeyedProbe.self, json)
  }

  /// Many nested containers, each asked for by an int-valued key: the
  /// keys of those still in use keep their int values however many came
  /// after them.
  @Test func keysOfManyNestedContainersKeepTheirIntValues() {
    struct Probe: Decodable, Equatable {
      enum CodingKeys: Int, CodingKey {
        case list = 1
        case inner = 2
        case value = 3
      }
      var count = 0
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        while !list.isAtEnd {
          let element = try list.nestedContainer(keyedBy: CodingKeys.self)
          let inner = try element.nestedContainer(keyedBy: CodingKeys.self, forKey: .inner)
          count += try inner.decode(Int.self, forKey: .value)
        }
      }
    }
    let good = Array(repeating: #"{"inner":{"value":1}}"#, count: 150)
    expectSameDecoding(Probe.self, #"{"list":[\#(good.joined(separator: ","))]}"#)
    let bad = good + [#"{"inner":{"value":"x"}}"#]
    let outcome = expectSameDecoding(Probe.self, #"{"list":[\#(bad.joined(separator: ","))]}"#)
    #expect(
      outcome
        == .error(
          kind: "typeMismatch",
          path: ParityPath([
            Probe.CodingKeys.list, ParityIndexKey(index: 150), Probe.CodingKeys.inner,
            Probe.CodingKeys.value,
          ])))
  }

  /// The key a path holds is the caller's, of the caller's type.
  @Test func pathsHoldTheCallersKeyObjects() throws {
    struct Probe: Decodable {
      enum CodingKeys: Int, CodingKey { case a = 7 }
      struct Inner: Decodable {
        var path: [any CodingKey]
        init(from decoder: any Decoder) throws { path = decoder.codingPath }
      }
      let a: Inner
    }
    let path = try JKDecoder().decode(Probe.self, from: #"{"a":{}}"#).a.path
    let key = try #require(path.first as? Probe.CodingKeys)
    #expect(key == .a)
    let theirs = try JSONDecoder().decode(Probe.self, from: Data(#"{"a":{}}"#.utf8)).a.path
    #expect(ParityPath(path) == ParityPath(theirs))
  }

  @Test(arguments: [
    #"{"1":{"x":1},"-2":{"x":2}}"#, #"{"1":{"x":"a"}}"#, #"{"1":{}}"#, #"{"a":{"x":1}}"#,
    #"{"1":null}"#,
  ])
  func intKeyedDictionariesGivePathKeysWithIntValues(_ json: String) {
    expectSameDecoding([Int: ParityLeaf].self, json)
    expectSameDecoding(
      [Int: [ParityLeaf]].self,
      json.replacingOccurrences(of: "{\"x", with: "[{\"x").replacingOccurrences(
        of: "}}", with: "}]}"))
    expectSameDecoding([Int: ParityLeaf].self, json, keys: .convertFromSnakeCase)
  }

  /// Foundation reads `[String: T]` through the standard library's
  /// dictionary keys (a key that spells an integer has its `intValue`),
  /// except under a key strategy, where its own keys have none.
  @Test(arguments: [
    #"{"1":{"x":1},"b":{"x":2}}"#, #"{"1":{"x":"a"}}"#, #"{"b_c":{"x":"a"}}"#, #"{"1":[]}"#,
    #"{"b":{}}"#,
  ])
  func stringKeyedDictionariesGiveFoundationsPathKeys(_ json: String) {
    expectSameDecoding([String: ParityLeaf].self, json)
    expectSameDecoding([String: ParityLeaf].self, json, keys: .convertFromSnakeCase)
    expectSameDecoding([String: [String: ParityLeaf]].self, #"{"o":\#(json)}"#)
    expectSameDecoding(
      [String: [String: ParityLeaf]].self, #"{"o":\#(json)}"#, keys: .convertFromSnakeCase)
  }

  @Test(arguments: [
    #"{"red":{"x":1},"green":{"x":2}}"#, #"{"red":{"x":"a"}}"#, #"{"blue":{"x":1}}"#,
    #"{"red":[]}"#, #"["red",{"x":1}]"#, #"["red",{"x":"a"}]"#, #"["blue",{"x":1}]"#, #"["red"]"#,
  ])
  func enumKeyedDictionariesGiveFoundationsPathKeys(_ json: String) {
    expectSameDecoding([ParityColor: ParityLeaf].self, json)
    expectSameDecoding([ParityColor: ParityLeaf].self, json, keys: .convertFromSnakeCase)
    let slots = json.replacingOccurrences(of: "red", with: "1").replacingOccurrences(
      of: "green", with: "2")
    expectSameDecoding([ParitySlot: ParityLeaf].self, slots)
    expectSameDecoding([ParityPlainColor: ParityLeaf].self, json)
  }

  @Test func setsAndNestedOptionalsDecodeAsInFoundation() {
    expectSameDecoding(Set<Int>.self, "[1,2,3]")
    expectSameDecoding(Set<Int>.self, #"[1,"a"]"#)
    expectSameDecoding([String: Int??].self, #"{"a":null,"b":1}"#)
    expectSameDecoding([Int?].self, "[null,1]")
    expectSameDecoding(
      [String: ParityKeyedDerived?].self, #"{"a":null,"b":{"b":1,"super":{"a":2}}}"#)
    expectSameDecoding([String: ParityKeyedDerived?].self, #"{"b":{"b":1,"super":{}}}"#)
  }
}

// MARK: - Class hierarchies

/// A superclass decoded from its own keyed container.
class ParityBase: Decodable, Equatable, CustomStringConvertible {
  let a: Int
  enum CodingKeys: String, CodingKey { case a }

  required init(from decoder: any Decoder) throws {
    a = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .a)
  }

  static func == (lhs: ParityBase, rhs: ParityBase) -> Bool { lhs.description == rhs.description }
  var description: String { "\(type(of: self))(a: \(a))" }
}

/// A superclass decoded from a single value.
class ParitySingleBase: Decodable, Equatable, CustomStringConvertible {
  let name: String

  required init(from decoder: any Decoder) throws {
    name = try decoder.singleValueContainer().decode(String.self)
  }

  static func == (lhs: ParitySingleBase, rhs: ParitySingleBase) -> Bool {
    lhs.description == rhs.description
  }
  var description: String { "\(type(of: self))(\(name))" }
}

/// The subclass's own fields in a keyed container, its superclass's under
/// `super` (`superDecoder()`) or `parent` (`superDecoder(forKey:)`).
final class ParityKeyedDerived: ParityBase {
  let b: Int
  enum DerivedKeys: String, CodingKey { case b, parent }

  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: DerivedKeys.self)
    b = try container.decode(Int.self, forKey: .b)
    let superDecoder =
      container.contains(.parent)
      ? try container.superDecoder(forKey: .parent) : try container.superDecoder()
    try super.init(from: superDecoder)
  }

  override var description: String { "\(type(of: self))(a: \(a), b: \(b))" }
}

/// The subclass's field first in an array, its superclass after it.
final class ParityUnkeyedDerived: ParityBase {
  let b: Int
  let after: Bool

  required init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    b = try container.decode(Int.self)
    let superDecoder = try container.superDecoder()
    after = container.isAtEnd
    try super.init(from: superDecoder)
  }

  override var description: String { "\(type(of: self))(a: \(a), b: \(b), end: \(after))" }
}

/// A single-value superclass under `super` of a keyed container, and as
/// the second element of an unkeyed one.
final class ParitySingleDerived: ParitySingleBase {
  let b: Int
  enum DerivedKeys: String, CodingKey { case b }

  required init(from decoder: any Decoder) throws {
    if var container = try? decoder.unkeyedContainer() {
      b = try container.decode(Int.self)
      try super.init(from: container.superDecoder())
    } else {
      let container = try decoder.container(keyedBy: DerivedKeys.self)
      b = try container.decode(Int.self, forKey: .b)
      try super.init(from: container.superDecoder())
    }
  }

  override var description: String { "\(type(of: self))(\(name), b: \(b))" }
}

extension FoundationParityTests {
  @Test(arguments: [
    #"{"b":1,"super":{"a":2}}"#, #"{"b":1,"super":{"a":"x"}}"#, #"{"b":1}"#,
    #"{"b":1,"super":null}"#, #"{"b":1,"super":[]}"#, #"{"b":1,"parent":{"a":2}}"#,
    #"{"b":1,"parent":{}}"#, #"{"b":1,"parent":{"a":null}}"#,
  ])
  func subclassesDecodeTheirSuperclassThroughAKeyedSuperDecoder(_ json: String) {
    expectSameDecoding(ParityKeyedDerived.self, json)
    expectSameDecoding([ParityKeyedDerived].self, "[\(json)]")
    expectSameDecoding(ParityKeyedDerived.self, json, keys: .convertFromSnakeCase)
  }

  @Test(arguments: [
    #"[1,{"a":2}]"#, #"[1,{"a":2},3]"#, #"[1,{"a":"x"}]"#, "[1]", "[1,null]", "[1,[]]",
  ])
  func subclassesDecodeTheirSuperclassThroughAnUnkeyedSuperDecoder(_ json: String) {
    expectSameDecoding(ParityUnkeyedDerived.self, json)
    expectSameDecoding([String: ParityUnkeyedDerived].self, #"{"k":\#(json)}"#)
  }

  @Test(arguments: [
    #"{"b":1,"super":"x"}"#, #"{"b":1,"super":5}"#, #"{"b":1}"#, #"[1,"x"]"#, "[1,5]", "[1]",
    "[1,null]",
  ])
  func subclassesDecodeASingleValueSuperclassThroughASuperDecoder(_ json: String) {
    expectSameDecoding(ParitySingleDerived.self, json)
    expectSameDecoding([String: ParitySingleDerived].self, #"{"k":\#(json)}"#)
  }
}

/// An array index as Foundation's paths spell it.
struct ParityIndexKey: CodingKey {
  let stringValue: String
  let intValue: Int?
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}
