import Foundation
import JSONKit
import Testing

// Arrays of numbers are written without Codable's containers (see
// `EncodingSession.encodeNumberArray`): these tests compare that text with
// Foundation's under the layouts and strategies that shape it.

/// Arrays of numbers of every shape written directly, beside one that is not.
private struct NumberArrays: Encodable {
  var doubles: [Double] = [0, -0.0, 1.5, 1e300, 5e-324, -2.25]
  var pairs: [[Double]] = [[1, 2], [], [3.5]]
  var rings: [[[Double]]] = [[[1, 2], [3, 4]], [], [[]]]
  var integers: [Int] = [0, -1, Int.max, Int.min]
  var empty: [Double] = []
  var floats: [Float] = [1.5, 0.1]
}

/// An array holding `value` where a double is expected.
private struct NonConforming: Encodable {
  var value: Double
  var coordinates: [[Double]] { [[1, value]] }
  enum CodingKeys: CodingKey { case coordinates }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(coordinates, forKey: .coordinates)
  }
}

private func bothEncode<T: Encodable>(
  _ value: T, _ formatting: JSONEncoder.OutputFormatting,
  floats: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
) -> (foundation: String, jsonKit: String) {
  func text(_ body: () throws -> Data) -> String {
    do { return String(decoding: try body(), as: UTF8.self) } catch let error as EncodingError {
      guard case .invalidValue(_, let context) = error else { return "\(error)" }
      return "invalidValue at \(context.codingPath.map(\.stringValue))"
    } catch { return "\(error)" }
  }
  let foundation = JSONEncoder()
  foundation.outputFormatting = formatting
  foundation.nonConformingFloatEncodingStrategy = floats
  let jsonKit = JKEncoder()
  jsonKit.outputFormatting = JKOutputFormatting(rawValue: formatting.rawValue)
  jsonKit.nonConformingFloatEncodingStrategy = floats
  return (text { try foundation.encode(value) }, text { try jsonKit.encode(value) })
}

extension FoundationParityTests {
  @Test func arraysOfNumbersAreWrittenAsFoundationWritesThem() {
    for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
      let (foundation, jsonKit) = bothEncode(NumberArrays(), formatting)
      #expect(jsonKit == foundation)
      let (topFoundation, topJSONKit) = bothEncode([[[0.5, 1]], [[2]]], formatting)
      #expect(topJSONKit == topFoundation)
    }
  }

  @Test func nonFiniteDoublesInArraysFollowTheStrategyAsInFoundation() {
    let strategy = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    for value in [Double.infinity, -.infinity, .nan] {
      let thrown = bothEncode(NonConforming(value: value), [.sortedKeys])
      #expect(thrown.jsonKit == thrown.foundation)
      #expect(thrown.jsonKit.hasPrefix("invalidValue"))
      let converted = bothEncode(NonConforming(value: value), [.sortedKeys], floats: strategy)
      #expect(converted.jsonKit == converted.foundation)
    }
  }

  @Test func arraysOfNumbersCountTowardTheNestingLimit() throws {
    let encoder = JKEncoder()
    encoder.maxDepth = 3
    #expect(throws: EncodingError.self) { try encoder.encode([[[[1.0]]]]) }
    #expect(String(decoding: try encoder.encode([[[1.0]]]), as: UTF8.self) == "[[[1]]]")
  }
}
