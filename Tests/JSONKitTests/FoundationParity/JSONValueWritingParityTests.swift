import Foundation
import JSONKit
import JSONKitCorpus
import Testing

extension FoundationParityTests {
  /// A parsed corpus written by `JSONValue` is byte for byte what Foundation's
  /// `JSONEncoder` writes for the same value, for each option set the two
  /// share with sorted keys (the order Foundation's unsorted output leaves to
  /// chance on Linux).
  @Test(arguments: [Corpus.twitter, .citmCatalog, .canada])
  func aParsedCorpusIsWrittenAsJSONEncoderWritesIt(_ corpus: Corpus) throws {
    let data = try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
    let value = try JSONValue(parsing: data)
    let formats: [(JSONEncoder.OutputFormatting, JKOutputFormatting)] = [
      (.sortedKeys, .sortedKeys),
      ([.sortedKeys, .prettyPrinted], [.sortedKeys, .prettyPrinted]),
      ([.sortedKeys, .withoutEscapingSlashes], [.sortedKeys, .withoutEscapingSlashes]),
    ]
    for (foundation, jsonKit) in formats {
      let encoder = JSONEncoder()
      encoder.outputFormatting = foundation
      #expect(try value.jsonData(options: jsonKit) == encoder.encode(value), "\(jsonKit)")
    }
  }

  /// The values `JSONValue` parses from a corpus are those `JSONSerialization`
  /// parses, member for member, wherever the latter gives a Swift number
  /// (Foundation gives NSDecimalNumber for the 17-digit doubles of some
  /// corpora, which no `JSONValue` holds; those are compared as Doubles).
  @Test(arguments: [Corpus.twitter, .citmCatalog, .canada])
  func aParsedCorpusHoldsWhatJSONSerializationParses(_ corpus: Corpus) throws {
    let data = try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
    let value = try JSONValue(parsing: data)
    let foundation = try JSONSerialization.jsonObject(with: data)
    var pending: [(JSONValue, Any)] = [(value, foundation)]
    var mismatches = 0
    while let (ours, theirs) = pending.popLast() {
      switch ours {
      case .array(let elements):
        let other = theirs as? [Any] ?? []
        guard elements.count == other.count else {
          mismatches += 1
          continue
        }
        pending += zip(elements, other).map { ($0, $1) }
      case .object(let object):
        let other = theirs as? [String: Any] ?? [:]
        guard object.count == other.count else {
          mismatches += 1
          continue
        }
        for (key, member) in object {
          guard let otherMember = other[key] else {
            mismatches += 1
            continue
          }
          pending.append((member, otherMember))
        }
      case .double(let double):
        // A decimal's own conversion is not correctly rounded: read its text.
        let parsed =
          theirs is NSDecimalNumber
          ? Double((theirs as? NSNumber)?.description ?? "") : (theirs as? NSNumber)?.doubleValue
        if parsed != double { mismatches += 1 }
      case .int, .uint:
        let number = theirs as? NSNumber
        if number.map({ $0.stringValue }) != ours.description { mismatches += 1 }
      case .string(let string):
        if theirs as? String != string { mismatches += 1 }
      case .bool(let bool):
        if theirs as? Bool != bool { mismatches += 1 }
      case .null:
        if !(theirs is NSNull) { mismatches += 1 }
      }
    }
    #expect(mismatches == 0)
  }
}
