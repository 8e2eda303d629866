import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// `JSONValue` trees built from the tape and written back: every shape of
/// container the builder makes in its own way (children all scalars, nested
/// containers, empty containers, duplicate keys), very large and very deep
/// values, and whole corpora round-tripped.
@Suite("Building and writing JSONValue trees")
struct JSONValueBuildingTests {
  @Test func containersOfScalarsAndOfContainersGiveTheSameValues() throws {
    let text = #"""
      {"flat":[1,-2,3.5,"s",true,false,null,18446744073709551615],
       "empties":[[],{},[],{}],
       "nested":[[1,[2,[3]]],{"a":{"b":[4,{"c":null}]}}],
       "scalars":{"x":1,"y":"two","z":[],"w":{}}}
      """#
    let expected: JSONValue = [
      "flat": [1, -2, 3.5, "s", true, false, nil, .uint(UInt64.max)],
      "empties": [[], [:], [], [:]],
      "nested": [[1, [2, [3]]], ["a": ["b": [4, ["c": nil]]]]],
      "scalars": ["x": 1, "y": "two", "z": [], "w": [:]],
    ]
    let value = try JSONValue(parsing: text)
    #expect(value == expected)
    #expect(value.objectValue?.keys == ["flat", "empties", "nested", "scalars"])
    #expect(value["scalars"]?.objectValue?.keys == ["x", "y", "z", "w"])
  }

  @Test func duplicateKeysKeepTheFirstPlaceAndTheLastValueInEveryShape() throws {
    // All values scalars, and values that are containers.
    let scalars = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
    #expect(scalars.objectValue?.keys == ["a", "b"])
    #expect(scalars["a"] == 3)
    let nested = try JSONValue(parsing: #"{"a":[1],"b":{"c":2},"a":{"d":[3]},"b":4}"#)
    #expect(nested.objectValue?.keys == ["a", "b"])
    #expect(nested["a"] == ["d": [3]])
    #expect(nested["b"] == 4)
    #expect(try nested.jsonString() == #"{"a":{"d":[3]},"b":4}"#)
    // Canonically equivalent spellings are one key, as in a Dictionary.
    let equivalent = try JSONValue(parsing: #"{"\u00e9":1,"e\u0301":[2]}"#)
    #expect(equivalent.objectValue?.count == 1)
    #expect(equivalent["é"] == [2])
  }

  @Test func hugeArraysAndObjectsKeepEveryMemberInOrder() throws {
    let count = 200_000
    let numbers = (0..<count).map { "[\($0),\"s\($0)\"]" }.joined(separator: ",")
    let value = try JSONValue(parsing: "[\(numbers)]")
    let elements = try #require(value.arrayValue)
    #expect(elements.count == count)
    #expect(elements[0] == [0, "s0"])
    #expect(elements[count - 1] == [.int(Int64(count - 1)), .string("s\(count - 1)")])
    #expect(try value.jsonString() == "[\(numbers)]")

    let members = (0..<count).map { "\"k\($0)\":{\"v\":\($0)}" }.joined(separator: ",")
    let object = try #require(try JSONValue(parsing: "{\(members)}").objectValue)
    #expect(object.count == count)
    #expect(object.keys.first == "k0")
    #expect(object.keys.last == "k\(count - 1)")
    #expect(object["k12345"] == ["v": 12345])
    #expect(try JSONValue.object(object).jsonString() == "{\(members)}")
  }

  @Test func theDeepestNestingAllowedIsBuiltAndWrittenBack() throws {
    let depth = JSONValue.maxDepthLimit
    // The innermost three levels: an array, an object and an empty array.
    let arrays =
      String(repeating: "[", count: depth - 3) + "[1,{\"a\":[]}]"
      + String(repeating: "]", count: depth - 3)
    let value = try JSONValue(parsing: arrays, maxDepth: depth)
    #expect(try value.jsonString() == arrays)
    let objects =
      String(repeating: #"{"a":"#, count: depth - 1) + #"{"b":"x"}"#
      + String(repeating: "}", count: depth - 1)
    #expect(try JSONValue(parsing: objects, maxDepth: depth).jsonString() == objects)
  }

  @Test func anIntegerBeyond64BitsInATypedDecodeIsAnErrorAtItsPath() throws {
    // Tapes scanned for Codable keep such literals; a JSONValue cannot hold
    // them, wherever they stand in the value.
    for (json, path) in [
      (#"{"v":[1,123456789012345678901234]}"#, ["v", "Index 1"]),
      (#"{"v":{"a":1,"b":123456789012345678901234}}"#, ["v", "b"]),
      (#"{"v":[[1],{"a":[-123456789012345678901234]}]}"#, ["v", "Index 1", "a", "Index 0"]),
    ] {
      #expect(throws: DecodingError.self, "\(json)") {
        _ = try JKDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
      }
      do {
        _ = try JKDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
      } catch let DecodingError.dataCorrupted(context) {
        #expect(context.codingPath.map(\.stringValue) == path.map { $0 }, "\(json)")
      } catch {
        Issue.record("\(json): \(error)")
      }
    }
  }

  @Test(arguments: [Corpus.twitter, .citmCatalog, .canada])
  func aCorpusWrittenBackIsReadAsTheSameValue(_ corpus: Corpus) throws {
    let data = try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
    let value = try JSONValue(parsing: data)
    for options: JKOutputFormatting in [[], [.sortedKeys], [.prettyPrinted, .sortedKeys]] {
      let written = try value.jsonBytes(options: options)
      let reread = try JSONValue(parsing: written)
      #expect(reread == value)
      #expect(try reread.jsonBytes(options: options) == written)
    }
    // Keys in their input order and the same scalars: minified input, up to
    // how each number and escape is spelled.
    let minified = try JSONValue(parsing: CorpusVariant.minified(data))
    #expect(try minified.jsonBytes() == value.jsonBytes())
  }
}
