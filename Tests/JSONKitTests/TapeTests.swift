import Testing

@testable import JSONKit

/// The tape's layout: what the scanner records for each kind of value.
@Suite("Tape layout")
struct TapeTests {
  private func scan(_ text: String, bigIntegers: Bool = false) throws -> [TapeEntry] {
    try TestScan.tape(Array(text.utf8), bigIntegers: bigIntegers)
  }

  @Test func documentedExample() throws {
    let tape = try scan(#"{"a":[1,2],"b":null}"#)
    #expect(tape.map(\.kind) == [.object, .key, .array, .int, .int, .key, .null])
    #expect(tape[0].childCount == 2)
    #expect(tape[0].containerEnd == 7)
    #expect(tape[2].childCount == 2)
    #expect(tape[2].containerEnd == 5)
    #expect(tape[1].payload != tape[5].payload)
    #expect(tape.map(\.offset) == [0, 1, 5, 6, 8, 11, 15])
  }

  @Test func everyKindSurvivesTheHeader() {
    for raw in UInt8(0)...12 {
      let kind = TapeEntry.Kind(rawValue: raw)
      #expect(kind != nil)
      if let kind {
        let entry = TapeEntry(kind, flags: 0xF, offset: 1 << 40, payload: .max)
        #expect(entry.kind == kind)
        #expect(entry.flags == 0xF)
        #expect(entry.offset == 1 << 40)
        #expect(entry.isContainer == (kind == .array || kind == .object))
      }
    }
    #expect(TapeEntry.Kind(rawValue: 13) == nil)
    #expect(MemoryLayout<TapeEntry.Kind>.size == 1)
  }

  @Test func skippingUsesContainerEnds() throws {
    let text = #"[[1,[2,[3]]],{"k":{"j":[]}},4]"#
    let tape = try scan(text)
    var children: [TapeEntry.Kind] = []
    var index = 1
    while index < tape[0].containerEnd {
      children.append(tape[index].kind)
      index = tape[index].isContainer ? tape[index].containerEnd : index + 1
    }
    #expect(children == [.array, .object, .int])
    #expect(tape[0].childCount == 3)
    #expect(tape[0].containerEnd == tape.count)
  }

  @Test func emptyContainers() throws {
    let tape = try scan("[ {}, [ ] ]")
    #expect(tape.map(\.kind) == [.array, .object, .array])
    #expect(tape[1].childCount == 0 && tape[1].containerEnd == 2)
    #expect(tape[2].childCount == 0 && tape[2].containerEnd == 3)
  }

  @Test func equalKeysShareOneId() throws {
    let tape = try scan(#"[{"id":1,"name":2},{"name":3,"id":4},{"i\u0064":5}]"#)
    let keys = tape.filter { $0.kind == .key }.map(\.payload)
    #expect(keys.count == 5)
    #expect(keys[0] == keys[3])
    #expect(keys[1] == keys[2])
    #expect(keys[0] != keys[1])
    #expect(keys[4] == keys[0], "an escaped key interns to the same id as its plain spelling")
  }

  @Test func duplicateKeysAreFlagged() throws {
    let small = try scan(#"{"a":1,"b":2,"a":3}"#)
    #expect(small[0].flags & TapeEntry.hasDuplicateKeys != 0)
    let unique = try scan(#"{"a":1,"b":{"a":2},"c":3}"#)
    #expect(unique[0].flags & TapeEntry.hasDuplicateKeys == 0)
    #expect(unique[4].flags & TapeEntry.hasDuplicateKeys == 0)
    // Larger objects take the stamp path; nested objects reuse the same keys.
    let members = (0..<20).map { #""k\#($0)":{"k\#($0)":0}"# }
    let large = try scan("{" + members.joined(separator: ",") + "}")
    #expect(large[0].flags & TapeEntry.hasDuplicateKeys == 0)
    let largeDuplicate = try scan("{" + (members + [#""k7":1"#]).joined(separator: ",") + "}")
    #expect(largeDuplicate[0].flags & TapeEntry.hasDuplicateKeys != 0)
  }

  @Test func stringsStayInTheInputUnlessEscaped() throws {
    let tape = try scan(#"["plain", "esc\"aped", "é"]"#)
    #expect(tape[1].flags & TapeEntry.inArena == 0)
    #expect(tape[1].payload == 5)
    #expect(tape[2].flags & TapeEntry.inArena != 0)
    #expect(tape[3].flags & TapeEntry.inArena == 0)
    #expect(tape[3].payload == 2)
  }

  @Test func integersAndDoubles() throws {
    let tape = try scan(
      "[0, -1, 9223372036854775807, -9223372036854775808, 9223372036854775808,"
        + " 18446744073709551615, -0, 1.5, 1e2, 10000000000000000000]")
    #expect(
      tape.dropFirst().map(\.kind) == [
        .int, .int, .int, .int, .uint, .uint, .double, .double, .double, .uint,
      ])
    #expect(Int64(bitPattern: tape[2].payload) == -1)
    #expect(Int64(bitPattern: tape[3].payload) == .max)
    #expect(Int64(bitPattern: tape[4].payload) == .min)
    #expect(tape[5].payload == 9_223_372_036_854_775_808)
    #expect(tape[6].payload == .max)
    #expect(Double(bitPattern: tape[7].payload).sign == .minus)
    #expect(Double(bitPattern: tape[7].payload) == 0)
    #expect(Double(bitPattern: tape[8].payload) == 1.5)
    #expect(Double(bitPattern: tape[9].payload) == 100)
    #expect(tape[10].payload == 10_000_000_000_000_000_000)
  }

  @Test func bigIntegersKeepTheirText() throws {
    let text = "[18446744073709551616, -9223372036854775809, 123456789012345678901234567890]"
    #expect(throws: JKParseError.self) { try scan(text) }
    let tape = try scan(text, bigIntegers: true)
    #expect(tape.dropFirst().map(\.kind) == [.bigInteger, .bigInteger, .bigInteger])
    #expect(tape[1].payload == 20)
    #expect(tape[2].offset == 23)
    #expect(tape[2].payload == 20)
    #expect(tape[3].payload == 30)
  }

  @Test func byteOrderMarkIsSkipped() throws {
    let tape = try TestScan.tape([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
    #expect(tape.map(\.kind) == [.array, .int])
    #expect(tape[0].offset == 3)
  }

  @Test func scalarsAtTheTopLevel() throws {
    for (text, kind) in [
      ("1", TapeEntry.Kind.int), (" \"s\" ", .string), ("true", .true), ("false", .false),
      ("null", .null), ("-2.5e-3", .double),
    ] {
      #expect(try scan(text).map(\.kind) == [kind], "\(text)")
    }
  }

  @Test func aWarmContextIsReusedWithoutStaleEntries() throws {
    let pool = ScanContextPool(limit: 1)
    let first = Array(#"{"a":[1,2,3,4,5,6]}"#.utf8)
    let second = Array(#"{"a":"x\n"}"#.utf8)
    for _ in 0..<3 {
      for document in [first, second] {
        let kinds = try document.withUnsafeBytes { input in
          try InputText(utf8: input).withTape(configuration: ScanConfiguration(), pool: pool) {
            tape in
            (0..<tape.count).map { tape[$0].kind }
          }
        }
        #expect(
          kinds
            == (document == first
              ? [.object, .key, .array] + Array(repeating: .int, count: 6)
              : [.object, .key, .string]))
      }
    }
  }
}

/// The key cache decides a hit by comparing bytes, never by the hash alone.
@Suite("Key cache")
struct KeyCacheTests {
  /// Two distinct keys with the same 32-bit hash, found by the birthday bound.
  private func collidingKeys() -> (String, String)? {
    var seen: [UInt32: String] = [:]
    var state: UInt64 = 0x1234_5678
    for _ in 0..<400_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let key = String(state >> 20, radix: 36)
      let hash = Array(key.utf8).withUnsafeBufferPointer {
        KeyInterner.hash($0.baseAddress!, length: $0.count)
      }
      if let other = seen[hash], other != key { return (other, key) }
      seen[hash] = key
    }
    return nil
  }

  @Test func collidingHashesStayDistinctKeys() throws {
    let (first, second) = try #require(collidingKeys())
    let tape = try TestScan.tape(Array(#"{"\#(first)":1,"\#(second)":2}"#.utf8))
    #expect(tape[1].payload != tape[3].payload)
    #expect(tape[0].flags & TapeEntry.hasDuplicateKeys == 0)
    let value = try JSONValue(parsing: #"{"\#(first)":1,"\#(second)":2}"#)
    #expect(value[first] == 1 && value[second] == 2)
  }

  @Test func manyDistinctKeys() throws {
    var cache = KeyInterner()
    var ids: [UInt32] = []
    for index in 0..<5_000 {
      let key = Array("key\(index)".utf8)
      ids.append(key.withUnsafeBufferPointer { cache.intern($0.baseAddress!, length: $0.count) })
    }
    #expect(Set(ids).count == 5_000)
    for index in stride(from: 0, to: 5_000, by: 7) {
      let key = Array("key\(index)".utf8)
      #expect(
        key.withUnsafeBufferPointer { cache.intern($0.baseAddress!, length: $0.count) }
          == ids[index])
      #expect(cache.strings[Int(ids[index])] == "key\(index)")
    }
  }

  /// A key the prediction misses is found by the hash taken while its end
  /// is looked for, which must equal the hash of its bytes alone, at every
  /// length and whatever follows it.
  @Test func plainKeysAreFoundInAnyOrder() throws {
    var cache = KeyInterner()
    let keys = (0...40).map { length in (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) } }
    let ids = keys.map { key in
      (key + [0]).withUnsafeBufferPointer { cache.intern($0.baseAddress!, length: key.count) }
    }
    for (key, id) in zip(keys, ids).reversed() {
      for after in [#"":1}"#, #"" : "x", "y":2}          "#, "\"\u{0}\u{FF}\"\\"] {
        let input = key + Array(after.utf8)
        let found = input.withUnsafeBufferPointer {
          cache.plainKey(in: $0.baseAddress!, at: 0, end: $0.count)
        }
        // Found unless the quote is among the input's last eight bytes.
        if key.count + 8 <= input.count {
          #expect(found?.id == id && found?.length == key.count, "\(key.count) \(after)")
        } else {
          #expect(found == nil || (found?.id == id && found?.length == key.count))
        }
      }
    }
    // A key not seen before is added, as interning its bytes would add it.
    let new = Array(#"abcdefghijX": 1, "#.utf8)
    let added = new.withUnsafeBufferPointer {
      cache.plainKey(in: $0.baseAddress!, at: 0, end: $0.count)
    }
    let addedID = try #require(added?.id)
    #expect(added?.length == 11 && !ids.contains(addedID))
    #expect(new.withUnsafeBufferPointer { cache.intern($0.baseAddress!, length: 11) } == addedID)
    #expect(cache.strings[Int(addedID)] == "abcdefghijX")
    // Keys with escapes or non-ASCII bytes, and text with no closing quote,
    // are left to the full scan.
    for text in [#"ab\u0063": 1, "#, "abcdé\": 1, ", "abcdefghijklmnopqrstu"] {
      let input = Array(text.utf8)
      let found = input.withUnsafeBufferPointer {
        cache.plainKey(in: $0.baseAddress!, at: 0, end: $0.count)
      }
      #expect(found == nil, "\(text)")
    }
  }

  /// One decoder scans document after document with one warm context, so
  /// each key is predicted from the key that followed its predecessor before.
  @Test func predictedKeysThatDoNotFollowAreReadInFull() throws {
    let decoder = JKDecoder()
    let documents: [(String, JSONValue?)] = [
      (#"[{"ab":1,"c":2},{"ab":3,"c":4}]"#, [["ab": 1, "c": 2], ["ab": 3, "c": 4]]),
      // The predicted key is a prefix of the key, the key a prefix of it, or
      // another key of the same length.
      (
        #"[{"ab":1,"cd":2},{"a":3,"c":4},{"ab":5,"d":6}]"#,
        [["ab": 1, "cd": 2], ["a": 3, "c": 4], ["ab": 5, "d": 6]]
      ),
      // Escaped spellings of a predicted key are that key.
      (#"[{"a\u0062":1,"\u0063":2}]"#, [["ab": 1, "c": 2]]),
      (#"[{"ab":1,"c":2}]"#, [["ab": 1, "c": 2]]),
      // At the very end of the input.
      (#"{"ab""#, nil),
    ]
    for (text, expected) in documents {
      if let expected {
        #expect(try decoder.decode(JSONValue.self, from: text) == expected, "\(text)")
      } else {
        #expect(throws: DecodingError.self, "\(text)") {
          try decoder.decode(JSONValue.self, from: text)
        }
      }
    }
  }

  /// A key whose unescaped bytes hold a quote, a backslash or a control
  /// character is never matched against raw input: those bytes, unescaped in
  /// the input, are not that key (and mostly not JSON).
  @Test(arguments: [
    (#"{"a\"":1}"#, #"{"a"":1}"#),
    (#"{"a\\":1}"#, #"{"a\":1}"#),
    (#"{"a\nb":1}"#, "{\"a\nb\":1}"),
    (#"{"a\u001f":1}"#, "{\"a\u{1F}\":1}"),
  ])
  func keysWithEscapedSpecialsAreNotPredicted(warm: String, bad: String) throws {
    let decoder = JKDecoder()
    _ = try decoder.decode(JSONValue.self, from: warm)
    #expect(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: bad) }
  }

  @Test func byteComparisonOfEveryLengthAndPosition() {
    for count in 0...40 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      #expect(ByteComparison.equal(bytes, bytes.map { $0 }, count: count))
      for position in 0..<count {
        var other = bytes
        other[position] ^= 0x20
        #expect(!ByteComparison.equal(bytes, other, count: count), "\(count) \(position)")
      }
    }
  }
}
