import Foundation
import JSONKit
import Testing

/// A value whose `encode(to:)` is a seeded random program: it opens nested
/// containers and writes into any container it has opened, in any order,
/// keeping to what Foundation's encoder accepts without trapping (a key
/// holds objects, arrays or scalars, never two of them).
private struct RandomOrderProgram: Encodable {
  var seed: UInt64
  var steps: Int
  /// Whether keys and values are drawn from text that is hard to read
  /// back (escapes, commas and brackets inside strings, non-ASCII), with
  /// decimals, doubles and dictionaries written whole among them.
  var richValues = false

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var random = SplitMix64(seed: seed)
    var objects = [encoder.container(keyedBy: Key.self)]
    var arrays: [any UnkeyedEncodingContainer] = []
    let oddText = [
      "a,b", "q\"uote", "back\\slash", "brace}]", "[x", "tab\t", "é漢字😀", "/slash", "",
      "colon: ", "new\nline",
    ]
    func key(_ prefix: String) -> Key {
      let suffix =
        richValues
        ? oddText[[1, 3, 6][Int.random(in: 0..<3, using: &random)]]
        : String(Int.random(in: 0..<3, using: &random))
      return Key(stringValue: prefix + suffix)
    }
    func text() -> String { oddText[Int.random(in: 0..<oddText.count, using: &random)] }
    for step in 0..<steps {
      let choice = Int.random(in: 0..<12, using: &random)
      if choice == 10 {
        // A value that fails, its error caught, leaves no trace. (One that
        // fails partway is left out: JSONEncoder hands what it wrote to the
        // next value encoded through a pooled encoder, which JKEncoder does
        // not copy; see `EncoderSemanticsTests`.)
        let index = Int.random(in: 0..<objects.count, using: &random)
        try? objects[index].encode(Double.nan, forKey: key("valKey"))
      } else if choice == 11, !arrays.isEmpty {
        let index = Int.random(in: 0..<arrays.count, using: &random)
        try? arrays[index].encode(Float.infinity)
      } else if choice < 5 || arrays.isEmpty {
        let index = Int.random(in: 0..<objects.count, using: &random)
        switch choice {
        case 0:
          objects.append(objects[index].nestedContainer(keyedBy: Key.self, forKey: key("objKey")))
        case 1: arrays.append(objects[index].nestedUnkeyedContainer(forKey: key("arrKey")))
        case 2: try objects[index].encode(["v": step], forKey: key("objKey"))
        case 3: try objects[index].encode([step], forKey: key("arrKey"))
        case 4 where richValues:
          switch step % 4 {
          case 0: try objects[index].encode(text(), forKey: key("valKey"))
          case 1:
            // `Decimal.nan` is written as `NaN`, as Foundation writes it.
            let decimal = step % 5 == 1 ? Decimal.nan : Decimal(string: "-12.5e\(step % 7)")!
            try objects[index].encode(decimal, forKey: key("valKey"))
          case 2: try objects[index].encode(Double(step) / 7, forKey: key("valKey"))
          default: try objects[index].encode([text(): [text(), text()]], forKey: key("objKey"))
          }
        case 4: try objects[index].encode(step, forKey: key("valKey"))
        default: try objects[index].encode(["w": step], forKey: key("objKey"))
        }
      } else {
        let index = Int.random(in: 0..<arrays.count, using: &random)
        switch choice {
        case 5: objects.append(arrays[index].nestedContainer(keyedBy: Key.self))
        case 6: arrays.append(arrays[index].nestedUnkeyedContainer())
        case 7: try arrays[index].encode(arrays[index].count)
        default: try arrays[index].encode(richValues ? text() : "e\(step)")
        }
      }
    }
  }
}

extension FoundationParityTests {
  @Test func containersWrittenInRandomOrderGiveFoundationsOutput() throws {
    for seed in UInt64(1)...1000 {
      let program = RandomOrderProgram(seed: seed, steps: 5 + Int(seed % 60))
      for formatting: JKOutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
        let foundation = JSONEncoder()
        foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
        let jsonKit = JKEncoder()
        jsonKit.outputFormatting = formatting
        if seed.isMultiple(of: 2) {
          foundation.keyEncodingStrategy = .convertToSnakeCase
          jsonKit.keyEncodingStrategy = .convertToSnakeCase
        }
        let expected = String(decoding: try foundation.encode(program), as: UTF8.self)
        let actual = String(decoding: try jsonKit.encode(program), as: UTF8.self)
        #expect(actual == expected, "seed \(seed), formatting \(formatting.rawValue)")
        if actual != expected { return }
      }
    }
  }

  @Test func containersWrittenInRandomOrderWithHardTextGiveFoundationsOutput() throws {
    for seed in UInt64(1)...400 {
      let program = RandomOrderProgram(seed: seed, steps: 5 + Int(seed % 60), richValues: true)
      for formatting: JKOutputFormatting in [[.sortedKeys], [.prettyPrinted, .sortedKeys]] {
        let foundation = JSONEncoder()
        foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
        let jsonKit = JKEncoder()
        jsonKit.outputFormatting = formatting
        let expected = String(decoding: try foundation.encode(program), as: UTF8.self)
        let actual = String(decoding: try jsonKit.encode(program), as: UTF8.self)
        #expect(actual == expected, "seed \(seed), formatting \(formatting.rawValue)")
        if actual != expected { return }
      }
    }
  }
}
