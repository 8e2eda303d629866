import Foundation
import JSONKit
import Testing

/// `copy()`: a coder with all of another's settings, changed independently.
@Suite("Copying a coder")
struct CoderCopyTests {
  @Test("A decoder's copy reads as the original does, and changing it leaves the original alone")
  func decoderCopy() throws {
    let original = JKDecoder()
    original.keyDecodingStrategy = .convertFromSnakeCase
    original.dateDecodingStrategy = .secondsSince1970
    original.parseOptions = .trailingCommas
    original.maxDepth = 3
    let copy = original.copy()
    let json = Data(#"{"made_at": 0, "tags": [1,],}"#.utf8)
    struct Item: Decodable, Equatable {
      var madeAt: Date
      var tags: [Int]
    }
    #expect(try copy.decode(Item.self, from: json) == original.decode(Item.self, from: json))
    #expect(copy.maxDepth == 3)
    copy.parseOptions = []
    #expect(throws: DecodingError.self) { try copy.decode(Item.self, from: json) }
    #expect(try original.decode(Item.self, from: json).tags == [1])
  }

  @Test("An encoder's copy writes as the original does, and changing it leaves the original alone")
  func encoderCopy() throws {
    let original = JKEncoder()
    original.outputFormatting = [.sortedKeys]
    original.keyEncodingStrategy = .convertToSnakeCase
    let copy = original.copy()
    let value = ["zetaValue": 1, "alphaValue": 2]
    #expect(try copy.encode(value) == original.encode(value))
    copy.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(try copy.encode(value) != original.encode(value))
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys]
    foundation.keyEncodingStrategy = .convertToSnakeCase
    #expect(try original.encode(value) == foundation.encode(value))
  }
}
