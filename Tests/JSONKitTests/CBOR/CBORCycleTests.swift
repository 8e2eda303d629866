import Foundation
import JSONKit
import Testing

/// Cycles of shared references: written and read back through a class that
/// conforms to `JKCBORCyclicDecodable`, made before its members are read;
/// refused, with an error, for every other type.
@Suite("CBOR: cycles through JKCBORCyclicDecodable")
struct CBORCycleTests {
  final class Person: Codable, JKCBORCyclicDecodable {
    var name = ""
    var friends: [Person] = []

    init() {}

    init(_ name: String) { self.name = name }

    init(from decoder: any Decoder) throws { try decodeMembers(from: decoder) }

    func decodeMembers(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      friends = try container.decode([Person].self, forKey: .friends)
    }
  }

  /// The same shape, without the two steps.
  final class Plain: Decodable {
    var name: String
    var friends: [Plain]
  }

  struct Value: Decodable {
    var name: String
    var friends: [Value]
  }

  static func encoder(_ options: JKCBOREncoder.Options = .sharedReferences) -> JKCBOREncoder {
    let encoder = JKCBOREncoder()
    encoder.options = options
    return encoder
  }

  /// Breaks the cycles among `people`, so that they are freed.
  static func release(_ people: [Person]) {
    for person in people { person.friends = [] }
  }

  @Test("An instance that refers to itself is written as a tag 29 inside its tag 28")
  func selfReferenceBytes() throws {
    let ada = Person("ada")
    ada.friends = [ada]
    defer { Self.release([ada]) }
    // 28({"name": "ada", "friends": [29(0)]})
    let bytes = try Self.encoder().encode(ada)
    #expect(
      CBORBytes.hex(Array(bytes))
        == "d81c" + "a2" + "646e616d65" + "63616461" + "67667269656e6473" + "81d81d00")
    let read = try JKCBORDecoder().decode(Person.self, from: bytes)
    defer { Self.release([read]) }
    #expect(read.name == "ada" && read.friends.count == 1 && read.friends[0] === read)
  }

  @Test("A cycle through several instances comes back as the same graph, with every option")
  func cycleThroughSeveral() throws {
    let ada = Person("ada")
    let bob = Person("bob")
    let cy = Person("cy")
    ada.friends = [bob, cy]
    bob.friends = [ada, cy]
    cy.friends = [cy, bob]
    defer { Self.release([ada, bob, cy]) }
    for options: JKCBOREncoder.Options in [
      .sharedReferences, [.sharedReferences, .stringReferences, .deterministic],
    ] {
      let read = try JKCBORDecoder().decode(Person.self, from: Self.encoder(options).encode(ada))
      let (rb, rc) = (read.friends[0], read.friends[1])
      defer { Self.release([read, rb, rc]) }
      #expect([read.name, rb.name, rc.name] == ["ada", "bob", "cy"])
      #expect(rb.friends[0] === read && rb.friends[1] === rc)
      #expect(rc.friends[0] === rc && rc.friends[1] === rb)
    }
  }

  @Test("A cycle through any other class, or a value type, is an error")
  func otherTypesRefuseCycles() throws {
    let ada = Person("ada")
    ada.friends = [ada]
    defer { Self.release([ada]) }
    let bytes = try Self.encoder().encode(ada)
    let plain = try #require(throws: DecodingError.self) {
      try JKCBORDecoder().decode(Plain.self, from: bytes)
    }
    guard case .dataCorrupted(let context) = plain else {
      Issue.record("not dataCorrupted: \(plain)")
      return
    }
    #expect(context.debugDescription.contains("JKCBORCyclicDecodable"))
    #expect(context.codingPath.map(\.stringValue) == ["friends", "Index 0"])
    for decode in [
      { _ = try JKCBORDecoder().decode(Value.self, from: bytes) },
      { _ = try JKCBORDecoder().decode(JSONValue.self, from: bytes) },
      { _ = try JKCBORDecoder().decode(CBORValue.self, from: bytes) },
    ] as [() throws -> Void] {
      #expect(throws: DecodingError.self) { try decode() }
    }
    #expect(throws: JKCBORError.self) { try CBORValue(cbor: bytes) }
  }

  @Test("A shared value that is its own reference is an error, not a loop")
  func valueThatIsItsOwnReference() throws {
    // 28(29(0)) and 28(28(29(1))): nothing but a reference to itself.
    for hex in ["d81cd81d00", "d81cd81cd81d01", "d81cd81cd81d00"] {
      let error = try #require(throws: DecodingError.self) {
        try JKCBORDecoder().decode(Person.self, from: CBORBytes.fromHex(hex))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("not dataCorrupted: \(error)")
        continue
      }
      #expect((context.underlyingError as? JKCBORError)?.kind == .invalidReference)
      #expect(throws: JKCBORError.self) { try CBORValue(cbor: CBORBytes.fromHex(hex)) }
    }
  }

  @Test("Without sharedReferences, a cycle is still an error when written")
  func encoderWithoutSharing() throws {
    let ada = Person("ada")
    ada.friends = [ada]
    defer { Self.release([ada]) }
    let encoder = Self.encoder([])
    encoder.maxDepth = 20
    #expect(throws: EncodingError.self) { try encoder.encode(ada) }
  }
}
