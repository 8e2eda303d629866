#if os(macOS) || os(Linux)
  import Foundation
  import Testing

  @testable import jsonkit

  /// The tool's JSON Lines reader costs time in proportion to a line's
  /// length, however long the line: its buffer doubles when it must grow,
  /// so the bytes it copies add up to a small multiple of the input. Counted
  /// in bytes moved, not timed.
  @Suite("jsonkit's line reader copies each byte a bounded number of times")
  struct LineReaderGrowthTests {
    @Test("A line of many reads is copied less than twice over")
    func aLongLineIsCopiedLessThanTwiceOver() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let length = 48 << 20
      var text = Data(count: length + 2)
      text.withUnsafeMutableBytes { bytes in
        bytes.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "))
        bytes[0] = UInt8(ascii: "[")
        bytes[length - 1] = UInt8(ascii: "]")
        bytes[length] = 0x0A
        bytes[length + 1] = UInt8(ascii: "1")
      }
      let file = try directory.write(text, to: "long.jsonl")
      var reader = LineReader(input: InputFile(operand: file.path))
      var lengths: [Int] = []
      try reader.forEachLine { line, number throws(ToolError) in
        lengths.append(try line.get().count)
        return true
      }
      #expect(lengths == [length, 1])
      #expect(reader.movedBytes < 2 * length, "moved \(reader.movedBytes >> 20) MiB")
    }

    @Test("The buffer doubles as often as it must, and saturates rather than overflow")
    func theCapacityDoubles() {
      #expect(LineBuffer.grownCapacity(from: 1 << 20, toHold: (1 << 20) + 1) == 2 << 20)
      #expect(LineBuffer.grownCapacity(from: 1 << 20, toHold: 5 << 20) == 8 << 20)
      #expect(LineBuffer.grownCapacity(from: 8 << 20, toHold: 5 << 20) == 8 << 20)
      #expect(LineBuffer.grownCapacity(from: Int.max / 2 + 1, toHold: Int.max) == Int.max)
    }
  }
#endif
