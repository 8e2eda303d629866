import Foundation
import JSONKit
import Testing

/// Decoding from any collection of bytes, and encoding into bytes the caller
/// copies where it needs them: the entry points a server framework's buffers
/// use.
@Suite("Borrowed bytes")
struct BorrowedBytesTests {
  struct Reply: Codable, Equatable {
    var id: Int
    var text: String
    var tags: [String]
  }

  let json = Array(#"{"id":7,"text":"caf\u00e9 \ud83d\ude00","tags":["a","b"]}"#.utf8)
  let expected = Reply(id: 7, text: "café 😀", tags: ["a", "b"])

  @Test("A slice of a larger buffer decodes in place, as the whole array would")
  func sliceDecodes() throws {
    let framed = Array("xx".utf8) + json + Array("yy".utf8)
    let slice = framed[2..<(framed.count - 2)]
    #expect(try JKDecoder().decode(Reply.self, from: slice) == expected)
  }

  @Test("A contiguous array and a buffer pointer decode alike")
  func contiguousKinds() throws {
    let contiguous = ContiguousArray(json)
    #expect(try JKDecoder().decode(Reply.self, from: contiguous) == expected)
    let fromPointer = try json.withUnsafeBufferPointer { pointer in
      try JKDecoder().decode(Reply.self, from: pointer)
    }
    #expect(fromPointer == expected)
  }

  @Test("A sequence without contiguous storage is gathered and decoded")
  func nonContiguousSequence() throws {
    let lazy = json.lazy.map { $0 }
    #expect(try JKDecoder().decode(Reply.self, from: lazy) == expected)
  }

  @Test("UTF-16 bytes in a slice are detected as in Data")
  func utf16Slice() throws {
    let text = String(decoding: json, as: UTF8.self)
    let utf16 = Array(text.data(using: .utf16LittleEndian)!)
    #expect(try JKDecoder().decode(Reply.self, from: utf16[...]) == expected)
  }

  @Test("An error from a slice points where Data's would")
  func errorsMatchData() throws {
    let bad = Array(#"{"id":7,"text":"a","tags":[1]}"#.utf8)
    let fromSlice = #expect(throws: DecodingError.self) {
      try JKDecoder().decode(Reply.self, from: bad[...])
    }
    let fromData = #expect(throws: DecodingError.self) {
      try JKDecoder().decode(Reply.self, from: Data(bad))
    }
    #expect(String(describing: fromSlice) == String(describing: fromData))
  }

  @Test("The lent bytes are the bytes encode(_:) returns")
  func lentBytesMatchEncode() throws {
    for formatting: JKOutputFormatting in [[], [.sortedKeys], [.prettyPrinted, .sortedKeys]] {
      let encoder = JKEncoder()
      encoder.outputFormatting = formatting
      let lent = try encoder.withEncodedBytes(of: expected) { Array($0) }
      #expect(lent == Array(try encoder.encode(expected)))
      let foundation = JSONEncoder()
      if formatting.contains(.sortedKeys) {
        foundation.outputFormatting =
          formatting.contains(.prettyPrinted) ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        #expect(lent == Array(try foundation.encode(expected)))
      }
    }
  }

  @Test("A failed encode never calls the body")
  func failedEncodeSkipsBody() {
    var called = false
    #expect(throws: EncodingError.self) {
      try JKEncoder().withEncodedBytes(of: [Double.nan]) { _ in called = true }
    }
    #expect(!called)
  }
}
