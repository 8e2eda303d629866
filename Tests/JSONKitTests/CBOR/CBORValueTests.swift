import JSONKit
import Testing

/// The untyped CBOR item: its accessors, equality, floats in the shortest
/// precision that holds them, and writing then reading giving it back.
@Suite("CBOR: the untyped value")
struct CBORValueTests {
  @Test("Every half-precision float reads and writes back as the same two bytes")
  func everyHalfFloatRoundTrips() throws {
    for bits in UInt16.min...UInt16.max {
      let bytes: [UInt8] = [0xF9, UInt8(bits >> 8), UInt8(bits & 0xFF)]
      let value = try CBORValue(cbor: bytes)
      #expect(value.cborBytes() == bytes, "0x\(String(bits, radix: 16))")
    }
  }

  @Test(
    "A float is written in the shortest precision that holds it exactly",
    arguments: [
      (1.0, 3), (-2.0, 3), (65504.0, 3), (65505.0, 5), (0x1p-24, 3), (0x1p-25, 5),
      (0x1p-149, 5), (0x1p-150, 9), (Double(Float.greatestFiniteMagnitude), 5), (0.1, 9),
      (Double(Float(0.1)), 5), (1e300, 9),
    ])
  func shortestFloat(_ value: Double, _ size: Int) throws {
    let bytes = CBORValue.float(value).cborBytes()
    #expect(bytes.count == size)
    #expect(try CBORValue(cbor: bytes) == .float(value))
  }

  @Test("A NaN keeps its payload and sign through writing and reading")
  func nanPayloads() throws {
    for pattern: UInt64 in [
      0x7FF8_0000_0000_0000, 0xFFF8_0000_0000_0000, 0x7FF0_0000_2000_0000, 0x7FF4_0000_0000_0001,
    ] {
      let value = CBORValue.float(Double(bitPattern: pattern))
      let read = try CBORValue(cbor: value.cborBytes())
      guard case .float(let float) = read else {
        Issue.record("\(read)")
        continue
      }
      #expect(float.bitPattern == pattern)
    }
  }

  @Test("Integers cover both major types whole, and Int64 where it can")
  func integers() {
    #expect(CBORValue(Int64.min) == .negative(UInt64(Int64.max)))
    #expect(CBORValue(Int64.min).int64Value == .min)
    #expect(CBORValue.negative(UInt64(Int64.max) + 1).int64Value == nil)
    #expect(CBORValue.negative(.max).doubleValue == -0x1p64)
    #expect(CBORValue.unsigned(.max).int64Value == nil)
    #expect(CBORValue.unsigned(.max).uint64Value == .max)
    #expect(CBORValue(-1).cborBytes() == [0x20])
    #expect(CBORValue.negative(1 << 53).doubleValue == nil)
    #expect(CBORValue.negative((1 << 53) - 1).doubleValue == -0x1p53)
  }

  @Test("Floats are equal by their bits, and never equal to integers")
  func floatEquality() {
    #expect(CBORValue.float(.nan) == .float(.nan))
    #expect(CBORValue.float(0.0) != .float(-0.0))
    #expect(CBORValue.float(1.0) != 1)
    #expect(Set<CBORValue>([.float(.nan), .float(.nan), 1, .float(1)]).count == 3)
  }

  @Test("Subscripts read maps by key and arrays by index")
  func subscripts() {
    let value: CBORValue = ["name": "Ada", 1: [true, nil], "bytes": .bytes([1])]
    #expect(value["name"]?.stringValue == "Ada")
    // An integer literal is an index; an integer key is written as an item.
    #expect(value[1] == nil)
    #expect(value[.unsigned(1)]?[0]?.boolValue == true)
    #expect(value[.unsigned(1)]?[1]?.isNull == true)
    #expect(value[.unsigned(1)]?[2] == nil)
    #expect(value["bytes"]?.bytesValue == [1])
    #expect(value["missing"] == nil)
  }

  @Test("A map keeps its pairs in order through writing and reading")
  func mapOrder() throws {
    let value: CBORValue = ["z": 1, "a": 2, 10: 3, .bytes([0]): 4, .tagged(1, 0): 5]
    #expect(try CBORValue(cbor: value.cborBytes()) == value)
    #expect(value.description == "{\"z\": 1, \"a\": 2, 10: 3, h'00': 4, 1(0): 5}")
  }

  @Test("Simple values below 24 take one byte, the others two")
  func simpleValues() throws {
    #expect(CBORValue.simple(19).cborBytes() == [0xF3])
    #expect(CBORValue.simple(32).cborBytes() == [0xF8, 0x20])
    #expect(try CBORValue(cbor: [0xF3]) == .simple(19))
  }

  @Test("Text is escaped in the diagnostic notation as JSON escapes it")
  func diagnosticText() {
    #expect(CBORValue.text("a\"b\\c\n\u{1}").description == #""a\"b\\c\n\u0001""#)
  }

  @Test("Text may hold U+0000 and noncharacters, which CBOR allows")
  func textTakesAnyScalar() throws {
    let value = CBORValue.text("\u{0}\u{FFFF}")
    #expect(try CBORValue(cbor: value.cborBytes()) == value)
  }
}
