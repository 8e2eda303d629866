import Foundation
import JSONKit
import Testing

/// `decodeArrayElements` and `JSONValue.arrayElements`: exactly one
/// top-level array, its elements one at a time, errors placed in the stream.
@Suite("Array element streams")
struct ArrayElementStreamTests {
  private func values(_ text: String, options: JKParseOptions = [], every size: Int = 2) async
    -> StreamOutcome<JSONValue>
  {
    await StreamOutcome(
      JSONValue.arrayElements(
        from: ChunkedBytes(Array(text.utf8), every: size), options: options))
  }

  @Test("The elements of an array come one at a time, whatever their kind")
  func elements() async throws {
    let text = " \n[1, -2.5e3 ,\"a,]\\\"\" ,[[],{}], {\"k\":[1,{\"]\":\"}\"}]},true,null ]\r\n "
    let outcome = await values(text)
    #expect(outcome.error == nil)
    #expect(try outcome.elements == JSONValue(parsing: text).arrayValue)
    #expect(await values("[]").elements.isEmpty)
    #expect(await values("[]").error == nil)
  }

  @Test("Anything but one array is rejected, at the place a whole document's error names")
  func notOneArray() async {
    let cases: [(String, JKParseError.Kind, Int)] = [
      ("", .emptyInput, 0),
      ("  ", .emptyInput, 2),
      ("{\"a\":1}", .unexpectedCharacter, 0),
      ("1", .unexpectedCharacter, 0),
      ("[1,2] 3", .textAfterValue, 6),
      ("[1,2][", .textAfterValue, 5),
      ("[1,2", .unexpectedEndOfInput, 4),
      ("[1,", .unexpectedEndOfInput, 3),
      ("[1,]", .unexpectedCharacter, 3),
      ("[1 2]", .unexpectedCharacter, 3),
      ("[1}", .unexpectedCharacter, 2),
      ("[{\"a\":1]]", .unexpectedCharacter, 7),
      ("[\"abc", .unterminated, 1),
      ("[tru]", .invalidLiteral, 1),
    ]
    for (text, kind, offset) in cases {
      let outcome = await values(text, every: 1)
      #expect(outcome.parseError?.kind == kind, "\(text)")
      #expect(outcome.parseError?.offset == offset, "\(text)")
      if text.hasPrefix("[") {
        let whole = #expect(throws: JKParseError.self) { try JSONValue(parsing: text) }
        #expect(whole?.offset == offset, "\(text)")
      }
    }
  }

  @Test("JKDecoder throws an error between elements as a DecodingError, as for the whole array")
  func decodingErrorsBetweenElements() async {
    for text in ["[1 2]", "[1,2] 3", "[1,", "[1,]", "[1}"] {
      let outcome = await StreamOutcome(
        JKDecoder().decodeArrayElements(Int.self, from: ChunkedBytes(Array(text.utf8), every: 2)))
      let whole = #expect(throws: DecodingError.self, "\(text)") {
        try JKDecoder().decode([Int].self, from: Data(text.utf8))
      }
      guard case .dataCorrupted(let context) = outcome.error as? DecodingError,
        case .dataCorrupted(let wholeContext) = whole
      else {
        Issue.record("\(text): expected dataCorrupted, got \(String(describing: outcome.error))")
        continue
      }
      #expect(context.codingPath.isEmpty, "\(text)")
      let parsed = context.underlyingError as? JKParseError
      let parsedWhole = wholeContext.underlyingError as? JKParseError
      #expect(parsed?.kind == parsedWhole?.kind, "\(text)")
      #expect(parsed?.offset == parsedWhole?.offset, "\(text)")
    }
    let long = await StreamOutcome(
      JKDecoder().decodeArrayElements(
        String.self, from: ChunkedBytes(Array(#"["abcdef"]"#.utf8), every: 3), maxRecordSize: 4))
    guard case .dataCorrupted(let context) = long.error as? DecodingError else {
      Issue.record("expected dataCorrupted, got \(String(describing: long.error))")
      return
    }
    #expect((context.underlyingError as? JKParseError)?.kind == .inputTooLarge)
  }

  @Test("A bad element in the middle ends the stream after the elements before it")
  func badElementInTheMiddle() async {
    struct Point: Decodable, Equatable {
      var x: Int
    }
    let text = "[\n  {\"x\": 1},\n  {\"x\": 2},\n  {\"x\": 1e999},\n  {\"x\": 4}\n]"
    let outcome = await StreamOutcome(
      JKDecoder().decodeArrayElements(Point.self, from: ChunkedBytes(Array(text.utf8), every: 4)))
    #expect(outcome.elements == [Point(x: 1), Point(x: 2)])
    let error = outcome.parseError
    #expect(error?.kind == .numberOverflow)
    #expect(error?.line == 4)
    #expect(error?.column == 9)
    #expect(error?.offset == 34)
    #expect(error?.message.contains("array element 2") == true)
  }

  @Test(
    "A model error's coding path starts with the element's index, as Foundation's for the array")
  func modelErrorPath() async throws {
    struct Point: Decodable {
      var x: Int
    }
    let text = "[{\"x\": 1}, {\"x\": 2}, {\"y\": 3}]"
    let outcome = await StreamOutcome(
      JKDecoder().decodeArrayElements(Point.self, from: ChunkedBytes(Array(text.utf8), every: 7)))
    #expect(outcome.elements.count == 2)
    let foundation = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Point].self, from: Data(text.utf8))
    }
    guard case .keyNotFound(let key, let context) = outcome.error as? DecodingError,
      case .keyNotFound(let foundationKey, let foundationContext) = foundation
    else {
      Issue.record("expected keyNotFound, got \(String(describing: outcome.error))")
      return
    }
    #expect(key.stringValue == foundationKey.stringValue)
    #expect(ParityPath(context.codingPath) == ParityPath(foundationContext.codingPath))
    #expect(context.debugDescription.contains("array element 2"))
  }

  @Test("Comments between and inside elements are read with the comments option")
  func comments() async throws {
    let text = "/* a */ [ // first\n 1 /* ] */, [2 /* ] */] // ,\n, \"/*\" ] // end"
    let outcome = await values(text, options: .comments, every: 1)
    #expect(outcome.error == nil)
    #expect(outcome.elements == [1, [2], "/*"])
    #expect(await values(text, every: 1).parseError?.kind == .unexpectedCharacter)
    #expect(await values("[1] /* open", options: .comments).parseError?.kind == .unterminated)
    // A '/' that begins no comment is placed at itself however the text is cut.
    for size in 1...3 {
      let stray = await values("[1] /x", options: .comments, every: size).parseError
      #expect(stray?.offset == 4)
      #expect(stray?.column == 5)
    }
  }

  /// Where a comment ends, at the end of the input or just before it: a
  /// stream and a whole document agree, however the text is cut.
  @Test(
    arguments: [
      ("[1 /**/]", nil), ("[1 /* **/]", nil), ("[1]/**/", nil), ("[1]// end", nil),
      ("[1 /*/]", JKParseError.Kind.unterminated), ("[1]/*/", .unterminated),
      ("[1]/* *", .unterminated), ("[1 // ]", .unexpectedEndOfInput), ("[1 /*/ */ ]", nil),
    ] as [(String, JKParseError.Kind?)])
  func commentEnds(_ text: String, _ kind: JKParseError.Kind?) async throws {
    var documentKind: JKParseError.Kind?
    do {
      _ = try JSONValue(parsing: text, options: .comments)
    } catch {
      documentKind = error.kind
    }
    #expect(documentKind == kind)
    for size in 1...3 {
      #expect(await values(text, options: .comments, every: size).parseError?.kind == kind)
    }
  }

  @Test("A comment between elements must be well-formed UTF-8, as in a whole document")
  func commentUTF8() async throws {
    let cases: [(bytes: [UInt8], offset: Int?)] = [
      (Array("[1, // caf".utf8) + [0xC3, 0xA9] + Array("\n 2]".utf8), nil),
      (Array("[1, /* \u{1F600} */ 2] // after".utf8) + [0xF0, 0x9F, 0x98, 0x80], nil),
      (Array("[// x".utf8) + [0xF1, 0x00] + Array("\n2]".utf8), 5),
      (Array("[1] /* ".utf8) + [0xE2, 0x82] + Array(" */".utf8), 7),
      (Array("[1, /* ".utf8) + [0xFF] + Array(" */ 2]".utf8), 7),
    ]
    for (bytes, offset) in cases {
      let whole = Result {
        try JSONValue(parsing: Data(bytes), options: .comments)
      }
      for size in [1, 2, 3, 4, 100] {
        let outcome = await StreamOutcome(
          JSONValue.arrayElements(from: ChunkedBytes(bytes, every: size), options: .comments))
        #expect(outcome.parseError?.offset == offset)
        if let offset {
          #expect(outcome.parseError?.kind == .invalidUTF8)
          #expect((try? whole.get()) == nil)
          #expect(outcome.parseError?.column == offset + 1)
        } else {
          #expect(outcome.elements == (try whole.get()).arrayValue)
        }
        let loose = await StreamOutcome(
          JSONValue.arrayElements(
            from: ChunkedBytes(bytes, every: size), options: [.comments, .looseUnicode]))
        #expect(loose.error == nil)
      }
    }
    // After the array, with text after it permitted, nothing is read; a block
    // comment that the input ends in is unclosed, whatever its last byte.
    let after = Array("[1] /* ".utf8) + [0xFF] + Array(" */".utf8)
    let unclosed = Array("[1] /* ".utf8) + [0xE2]
    for size in [1, 2, 100] {
      let permitted = await StreamOutcome(
        JSONValue.arrayElements(
          from: ChunkedBytes(after, every: size),
          options: [.comments, .permitTextAfterValidJSON]))
      #expect(permitted.error == nil)
      #expect(permitted.elements == [1])
      let open = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(unclosed, every: size), options: .comments))
      #expect(open.parseError?.kind == .unterminated)
      #expect(open.parseError?.offset == 4)
    }
    #expect(throws: JKParseError.self) {
      try JSONValue(parsing: Data(unclosed), options: .comments)
    }
    #expect(
      try JSONValue(parsing: Data(after), options: [.comments, .permitTextAfterValidJSON]) == [1])
  }

  @Test("Text after the array is ignored only with permitTextAfterValidJSON, never inside it")
  func textAfter() async {
    let after = await values("[1, 2] trailing", options: .permitTextAfterValidJSON)
    #expect(after.elements == [1, 2])
    #expect(after.error == nil)
    // Even a '/' that begins no comment, or a comment never closed, where
    // comments are allowed, as after a whole document's value.
    for (text, first) in [("[-2]/amo/#ff", -2), ("[1]/", 1), ("[1] /* unclosed", 1)] {
      let options: JKParseOptions = [.permitTextAfterValidJSON, .comments]
      let ignored = await values(text, options: options, every: 1)
      #expect(ignored.elements == [.int(Int64(first))], "\(text)")
      #expect(ignored.error == nil, "\(text)")
      #expect((try? JSONValue(parsing: text, options: options)) == .array([.int(Int64(first))]))
    }
    let inside = await values("[1x, 2]", options: .permitTextAfterValidJSON)
    #expect(inside.error != nil)
    #expect(inside.elements.isEmpty)
  }

  @Test("Elements are one level deep, so the depth limit counts the array")
  func depth() async {
    #expect(await values("[[1]]").error == nil)
    let limited = await StreamOutcome(
      JSONValue.arrayElements(from: ChunkedBytes(Array("[1, [2]]".utf8), every: 3), maxDepth: 1))
    #expect(limited.elements == [1])
    #expect(limited.parseError?.kind == .tooDeeplyNested)
    #expect(throws: JKParseError.self) { try JSONValue(parsing: "[1, [2]]", maxDepth: 1) }
  }

  @Test("A byte order mark before the array is skipped, even split across chunks")
  func byteOrderMark() async {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1,2]".utf8)
    for size in 1...3 {
      let outcome = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(bytes, every: size)))
      #expect(outcome.elements == [1, 2])
      #expect(outcome.error == nil)
    }
  }

  @Test("A byte order mark before an element is an error, as inside a whole array")
  func byteOrderMarkInside() async throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    for bytes in [
      Array("[".utf8) + bom + Array("1]".utf8), Array("[1, ".utf8) + bom + Array("{}]".utf8),
      Array("[1,".utf8) + bom + Array("\"a\"]".utf8),
    ] {
      #expect(throws: JKParseError.self) { try JSONValue(parsing: Data(bytes)) }
      #expect(throws: DecodingError.self) {
        try JKDecoder().decode([JSONValue].self, from: Data(bytes))
      }
      for size in [1, 3, 100] {
        let values = await StreamOutcome(
          JSONValue.arrayElements(from: ChunkedBytes(bytes, every: size)))
        #expect(values.parseError != nil)
        let decoded = await StreamOutcome(
          JKDecoder().decodeArrayElements(JSONValue.self, from: ChunkedBytes(bytes, every: size)))
        #expect(decoded.parseError != nil)
        #expect(decoded.parseError?.offset == values.parseError?.offset)
      }
    }
  }

  @Test("Elements from single bytes come as soon as they are complete")
  func singleBytes() async {
    let text = "[{\"a\":1},\"x\",3]"
    let outcome = await StreamOutcome(
      JSONValue.arrayElements(from: SingleBytes(bytes: Array(text.utf8))))
    #expect(outcome.elements == [["a": 1], "x", 3])
  }
}

extension ArrayElementStreamTests {
  @Test("A byte order mark split across chunks does not count against maxRecordSize")
  func splitByteOrderMarkAndTheLimit() async {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1,2]".utf8)
    for size in [1, 2, 3, bytes.count] {
      let outcome = await StreamOutcome(
        JKDecoder().decodeArrayElements(
          Int.self, from: ChunkedBytes(bytes, every: size), maxRecordSize: 1))
      #expect(outcome.error == nil, "chunks of \(size)")
      #expect(outcome.elements == [1, 2], "chunks of \(size)")
      let values = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(bytes, every: size), maxRecordSize: 1))
      #expect(values.elements == [.int(1), .int(2)], "chunks of \(size)")
    }
  }
}
