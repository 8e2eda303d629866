import Foundation
import Testing

@testable import JSONKit

@Suite("Number writing")
struct NumberWritingTests {
  static func written(_ body: (inout ByteWriter) -> Void) -> String {
    var writer = ByteWriter(capacity: 1)
    body(&writer)
    return writer.finishString()
  }

  static func foundation<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
  }

  static var integerSamples: [UInt64] {
    var samples: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, .max, .max - 1, UInt64(Int64.max)]
    var power: UInt64 = 1
    for _ in 0..<19 {
      power *= 10
      samples += [power - 1, power, power + 1]
    }
    for shift in 0..<64 {
      samples += [1 << shift, (1 << shift) - 1]
    }
    return samples
  }

  @Test func unsignedIntegersAreDecimal() {
    for value in Self.integerSamples {
      #expect(Self.written { $0.write(value) } == String(value))
      #expect(ByteWriter.decimalDigitCount(value) == String(value).count)
    }
  }

  @Test func signedIntegersAreDecimal() {
    var samples: [Int64] = [.min, .min + 1, .max, 0, -1]
    for value in Self.integerSamples where value <= UInt64(Int64.max) {
      samples += [Int64(value), -Int64(value)]
    }
    for value in samples {
      #expect(Self.written { $0.write(value) } == String(value))
    }
  }

  @Test func narrowIntegersAreDecimal() {
    #expect(Self.written { $0.write(integer: Int8.min) } == "-128")
    #expect(Self.written { $0.write(integer: UInt8.max) } == "255")
    #expect(Self.written { $0.write(integer: Int16.min) } == "-32768")
    #expect(Self.written { $0.write(integer: UInt32.max) } == "4294967295")
    #expect(Self.written { $0.write(integer: Int.min) } == String(Int.min))
    #expect(Self.written { $0.write(integer: UInt.max) } == String(UInt.max))
  }

  @Test func wideIntegersAreDecimal() throws {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else {
      return
    }
    var unsigned: [UInt128] = [0, 1, .max, .max - 1, UInt128(UInt64.max), UInt128(UInt64.max) + 1]
    var power: UInt128 = 1
    for _ in 0..<38 {
      power *= 10
      unsigned += [power - 1, power, power + 1]
    }
    for value in unsigned {
      #expect(Self.written { $0.write(value) } == String(value))
    }
    var signed: [Int128] = [.min, .min + 1, .max]
    for value in unsigned where value <= UInt128(Int128.max) {
      signed += [Int128(value), -Int128(value)]
    }
    for value in signed {
      #expect(Self.written { $0.write(value) } == String(value))
    }
    #expect(Self.written { $0.write(Int128.min) } == (try Self.foundation(Int128.min)))
    #expect(Self.written { $0.write(UInt128.max) } == (try Self.foundation(UInt128.max)))
  }

  @Test func doublesAsWritten() throws {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "-0"), (1, "1"), (-1, "-1"), (1.5, "1.5"), (100, "100"), (0.1, "0.1"),
      (1.0 / 3, "0.3333333333333333"), (1e-7, "1e-07"), (1e-5, "1e-05"), (0.0001, "0.0001"),
      (1e15, "1000000000000000"), (1e16, "1e+16"), (2e16, "2e+16"), (1e21, "1e+21"),
      (0x1.AC53A7E04BCDAp66, "1.2345678901234568e+20"), (0x1p53, "9007199254740992"),
      (0x1p53 + 2, "9.007199254740994e+15"), (.leastNonzeroMagnitude, "5e-324"),
      (2.2250738585072014e-308, "2.2250738585072014e-308"),
      (-2.2250738585072014e-308, "-2.2250738585072014e-308"),
      (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
      (-.greatestFiniteMagnitude, "-1.7976931348623157e+308"),
    ]
    for (value, text) in cases {
      #expect(Self.written { $0.writeFinite(value) } == text)
      #expect(try Self.foundation(value) == text)
    }
  }

  @Test func floatsAsWritten() throws {
    let cases: [(Float, String)] = [
      (0, "0"), (-0.0, "-0"), (0.1, "0.1"), (1.5, "1.5"), (16_777_216, "16777216"),
      (1e-7, "1e-07"), (1e16, "1e+16"), (.leastNonzeroMagnitude, "1e-45"),
      (.greatestFiniteMagnitude, "3.4028235e+38"),
    ]
    for (value, text) in cases {
      #expect(Self.written { $0.writeFinite(value) } == text)
      #expect(try Self.foundation(value) == text)
    }
  }

  @Test func doublesFromTheWholeBitRangeMatchJSONEncoder() throws {
    var generator = JSONValueGenerator(seed: 0xD0B1E)
    for _ in 0..<5000 {
      let value = generator.finiteDouble()
      #expect(Self.written { $0.writeFinite(value) } == (try Self.foundation(value)))
    }
  }

  @Test func floatsFromTheWholeBitRangeMatchJSONEncoder() throws {
    var random = SplitMix64(seed: 0xF10A7)
    var checked = 0
    while checked < 5000 {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      guard value.isFinite else { continue }
      #expect(Self.written { $0.writeFinite(value) } == (try Self.foundation(value)))
      checked += 1
    }
  }
}
