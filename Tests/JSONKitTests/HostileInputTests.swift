import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// Input built to hurt: nesting far past any limit, every prefix of real
/// documents, random damage to valid ones, and documents of a hundred
/// megabytes. Each gets an error or a value, never a trap, a hang or memory
/// out of proportion to the input.
@Suite("Hostile input")
struct HostileInputTests {
  // MARK: - Nesting

  private static let million = 1_000_000

  private static func deepArrays(closed: Bool) -> [UInt8] {
    var bytes = [UInt8](repeating: UInt8(ascii: "["), count: million)
    if closed { bytes += [UInt8](repeating: UInt8(ascii: "]"), count: million) }
    return bytes
  }

  private static func deepObjects(closed: Bool) -> [UInt8] {
    var bytes = Array(String(repeating: #"{"k":"#, count: million).utf8)
    if closed {
      bytes += Array("null".utf8) + [UInt8](repeating: UInt8(ascii: "}"), count: million)
    }
    return bytes
  }

  /// The error for a document whose containers open at `stride`-byte steps,
  /// read with `maxDepth`: too deep at the container past the limit.
  private func expectTooDeep(
    _ bytes: [UInt8], maxDepth: Int, stride: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let limit = min(maxDepth, JSONValue.maxDepthLimit)
    let expectedOffset = limit * stride
    do {
      _ = try JSONValue(parsing: bytes, maxDepth: maxDepth)
      Issue.record("parsed", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == .tooDeeplyNested, sourceLocation: sourceLocation)
      #expect(error.offset == expectedOffset, sourceLocation: sourceLocation)
    }
    #expect(throws: JKParseError.self, sourceLocation: sourceLocation) {
      try JSONValue.validate(bytes, maxDepth: maxDepth)
    }
    let decoder = JKDecoder()
    decoder.maxDepth = maxDepth
    do {
      _ = try decoder.decode(JSONValue.self, from: bytes)
      Issue.record("decoded", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
      let underlying = context.underlyingError as? JKParseError
      #expect(underlying?.kind == .tooDeeplyNested, sourceLocation: sourceLocation)
      #expect(underlying?.offset == expectedOffset, sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
    #expect(throws: JKParseError.self, sourceLocation: sourceLocation) {
      try JKSerialization.jsonObject(with: Data(bytes), maxDepth: maxDepth)
    }
  }

  @Test func aMillionDeepArraysAreAnError() {
    for closed in [false, true] {
      let bytes = Self.deepArrays(closed: closed)
      expectTooDeep(bytes, maxDepth: 512, stride: 1)
      // Even when asked for, no value deeper than the ceiling is built:
      // freeing, comparing or hashing it would recurse level by level.
      expectTooDeep(bytes, maxDepth: .max, stride: 1)
    }
  }

  @Test func aMillionDeepObjectsAreAnError() {
    for closed in [false, true] {
      let bytes = Self.deepObjects(closed: closed)
      expectTooDeep(bytes, maxDepth: 512, stride: 5)
      expectTooDeep(bytes, maxDepth: .max, stride: 5)
    }
  }

  /// A document nested exactly `depth` deep, alternating arrays and objects.
  private static func nested(depth: Int) -> [UInt8] {
    var open: [UInt8] = []
    var close: [UInt8] = []
    for level in 0..<depth {
      if level % 2 == 0 {
        open += Array(#"{"k":"#.utf8)
        close.append(UInt8(ascii: "}"))
      } else {
        open += Array("[1,".utf8)
        close.append(UInt8(ascii: "]"))
      }
    }
    return open + Array("null".utf8) + close.reversed()
  }

  @Test func theCeilingIsExact() throws {
    let limit = JSONValue.maxDepthLimit
    let deepest = Self.nested(depth: limit)
    _ = try JSONValue(parsing: deepest, maxDepth: .max)
    #expect(throws: JKParseError.self) { try JSONValue(parsing: deepest) }
    #expect(throws: JKParseError.self) {
      try JSONValue(parsing: Self.nested(depth: limit + 1), maxDepth: .max)
    }
    let decoder = JKDecoder()
    decoder.maxDepth = .max
    _ = try decoder.decode(JSONValue.self, from: deepest)
    #expect(throws: DecodingError.self) {
      try decoder.decode(JSONValue.self, from: Self.nested(depth: limit + 1))
    }
  }

  /// Everything JSONKit does with a value as deep as it ever builds one
  /// (compare, hash, write, encode, decode, free) fits the stack of a
  /// secondary thread on Apple platforms, 512 KiB.
  @Test func valuesAtTheCeilingFitASmallStack() async throws {
    let document = Self.nested(depth: JSONValue.maxDepthLimit)
    let stack = 512 * 1024 * SanitizerScale.current
    let outcome = await onThread(stackSize: stack) { () -> String? in
      do {
        let value = try JSONValue(parsing: document, maxDepth: .max)
        let copy = try JSONValue(parsing: document, maxDepth: .max)
        guard value == copy, value.hashValue == copy.hashValue else { return "== or hash" }
        guard value != .null else { return "!=" }
        let compact = try value.jsonBytes()
        let pretty = try value.jsonBytes(options: [.prettyPrinted, .sortedKeys])
        _ = value.description
        let encoder = JKEncoder()
        encoder.maxDepth = .max
        guard try encoder.encodeToBytes(value) == compact else { return "JKEncoder" }
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard try encoder.encodeToBytes(["v": value]).count > pretty.count else { return "nested" }
        let decoder = JKDecoder()
        decoder.maxDepth = .max
        guard try decoder.decode(JSONValue.self, from: compact) == value else { return "decode" }
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == nil)
  }

  /// Runs `body` on a new thread with a stack of `stackSize` bytes.
  private func onThread<R: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> R) async -> R
  {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.stackSize = stackSize
      thread.start()
    }
  }

  // MARK: - Prefixes and damage

  /// Every prefix of each corpus up to 4 KiB, then prefixes whose lengths
  /// grow by half each time, and the last 8: each is an error, or a
  /// value (the whole document, less trailing whitespace) that reads back
  /// after writing; never a crash. The stride keeps the bytes scanned to a
  /// few times the file's size.
  @Test(arguments: Corpus.allCases)
  func prefixesOfCorpora(_ corpus: Corpus) throws {
    let bytes = [UInt8](try corpus.data(in: try dataDirectory()))
    let whole = try JSONValue(parsing: bytes)
    try expectRereads(whole, "\(corpus)")
    let relaxed: JKParseOptions = [.comments, .looseUnicode, .permitTextAfterValidJSON]
    var lengths = Array(0...min(4096, bytes.count))
    var length = 4096.0
    while Int(length) < bytes.count - 8 {
      lengths.append(Int(length))
      length *= 1.5
    }
    lengths += max(0, bytes.count - 8)..<bytes.count
    for (position, length) in lengths.enumerated() {
      // Relaxed options on every seventh prefix.
      let relax = position % 7 == 0
      for options in relax ? [JKParseOptions(), relaxed] : [JKParseOptions()] {
        if let value = parsePrefix(of: bytes, length: length, options: options) {
          #expect(value == whole, "\(corpus) prefix \(length)")
          try expectRereads(value, "\(corpus) prefix \(length)")
        }
      }
    }
  }

  /// Thousands of valid documents (the conformance suite's and cuts of the
  /// corpora), each damaged by a few seeded random edits and read with
  /// random options: parsing and validation agree, `JKDecoder` agrees, and
  /// whatever is accepted reads back after writing.
  @Test func randomDamageToValidDocuments() throws {
    var sources: [[UInt8]] = []
    let suite = Fixtures.suite("test_parsing")
    for name in try FileManager.default.contentsOfDirectory(atPath: suite.path).sorted()
    where name.hasPrefix("y_") {
      sources.append(try Fixtures.bytes("test_parsing", name))
    }
    for corpus in Corpus.allCases {
      let bytes = [UInt8](try corpus.data(in: try dataDirectory()))
      for start in stride(from: 0, to: bytes.count, by: bytes.count / 8) {
        sources.append(Array(bytes[start..<min(bytes.count, start + 1500)]))
      }
    }
    var random = SplitMix64(seed: 0xDA3A_6E)
    let decoder = JKDecoder()
    var accepted = 0
    for round in 0..<4000 {
      var bytes = sources[Int.random(in: sources.indices, using: &random)]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        Self.damage(&bytes, using: &random)
      }
      let options = JKParseOptions(rawValue: UInt32.random(in: 0..<16, using: &random))
      let parsed = Result { try JSONValue(parsing: bytes, options: options) }
      let valid = (try? JSONValue.validate(bytes, options: options)) != nil
      #expect(valid == ((try? parsed.get()) != nil), "round \(round)")
      decoder.parseOptions = options
      let decoded = try? decoder.decode(JSONValue.self, from: bytes)
      #expect(decoded == (try? parsed.get()), "round \(round)")
      _ = try? decoder.decode([String: [Int]].self, from: bytes)
      if let value = try? parsed.get() {
        accepted += 1
        try expectRereads(value, "round \(round)")
      }
    }
    // Some damage leaves valid JSON (a digit for a digit): both paths ran.
    #expect(accepted > 100 && accepted < 4000)
  }

  /// One random edit: a byte changed to one that matters to JSON, a bit
  /// flipped, a span deleted or repeated, or a token inserted.
  private static func damage(
    _ bytes: inout [UInt8], using random: inout SplitMix64
  ) {
    let interesting: [UInt8] =
      Array(#"{}[]",:\/*-+.eE0u"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
    let tokens =
      ["\\ud800", "\\u0000", "1e999", "-", "/*", "\u{2028}", "[[[[", "}}}}", "\"\":"]
      .map { Array($0.utf8) } + [[0xEF, 0xB7, 0x90]]  // U+FDD0, a noncharacter
    let position = bytes.isEmpty ? 0 : Int.random(in: bytes.indices, using: &random)
    switch Int.random(in: 0..<5, using: &random) {
    case 0 where !bytes.isEmpty:
      bytes[position] = interesting[Int.random(in: interesting.indices, using: &random)]
    case 1 where !bytes.isEmpty:
      bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 2 where !bytes.isEmpty:
      bytes.removeSubrange(
        position..<min(bytes.count, position + Int.random(in: 1...16, using: &random)))
    case 3 where !bytes.isEmpty:
      let span = bytes[
        position..<min(bytes.count, position + Int.random(in: 1...32, using: &random))]
      bytes.insert(contentsOf: span, at: position)
    default:
      let token = tokens[Int.random(in: tokens.indices, using: &random)]
      bytes.insert(contentsOf: token, at: position)
    }
  }

  // MARK: - Size

  /// One hundred megabytes of generated records (four under a sanitizer,
  /// whose instrumented code is many times slower).
  private static let largeDocumentSize: Int = {
    SanitizerScale.current > 1 ? 4_000_000 : 100_000_000
  }()

  /// Validating, parsing and decoding a very large document each need
  /// memory in proportion to it: the peak resident size grows by less than
  /// a stated multiple of the input (the tape takes about 2.8 times this
  /// document's size; the built values some more), and nothing of that
  /// stays behind once the call returns. Whether time grows linearly is
  /// measured by benchmarks, not here.
  ///
  /// The measurements run in a process of their own, so that no other
  /// test's memory is counted; under a sanitizer, whose allocator keeps
  /// freed blocks, only the answers are checked, on a smaller document.
  @Test(.enabled(if: ResidentMemory.isAvailable || SanitizerScale.current > 1))
  func largeDocumentsParseInProportionalMemory() async throws {
    guard SanitizerScale.current == 1 else {
      try Self.readLargeDocument { _, body in try body() }
      return
    }
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      try HostileInputTests.readLargeDocument(measuring: ResidentMemory.report)
    }
    let reports = ResidentMemory.reports(in: result)
    let size = Self.largeDocumentSize
    // The allocator's rounding, the test harness, and the document's own
    // generation leave some megabytes either way. (Parsing peaks at about
    // 5.96 times the document, decoding 3.9 times, validating at almost
    // nothing.)
    let slack = 64 << 20
    for (label, peakFactor) in [("validate", 4), ("parse", 6), ("decode", 5)] {
      let growth = try #require(reports[label], "no report for \(label)")
      #expect(growth.peak < peakFactor * size + slack, "\(label): peak \(growth.peak >> 20) MiB")
      #expect(growth.kept < size / 4 + slack, "\(label): kept \(growth.kept >> 20) MiB")
    }
  }

  /// Validates, parses and decodes the large document, each step inside
  /// `measuring` under its label, checking the answers.
  private static func readLargeDocument(
    measuring: (String, () throws -> Void) throws -> Void
  ) throws {
    let (bytes, records) = Records.document(size: largeDocumentSize)
    try measuring("validate") { try JSONValue.validate(bytes) }
    try measuring("parse") {
      let value = try JSONValue(parsing: bytes)
      #expect(value.arrayValue?.count == records)
      #expect(value[records - 1]?["id"]?.intValue == records - 1)
    }
    try measuring("decode") {
      let decoded = try JKDecoder().decode([Records.Record].self, from: bytes)
      #expect(decoded.count == records)
      #expect(decoded.last == Records.Record(id: records - 1))
    }
  }

  private func parsePrefix(of bytes: [UInt8], length: Int, options: JKParseOptions) -> JSONValue? {
    bytes.withUnsafeBytes { buffer in
      try? JSONValue(parsing: UnsafeRawBufferPointer(rebasing: buffer[..<length]), options: options)
    }
  }

  private func expectRereads(
    _ value: JSONValue, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for options in [JKOutputFormatting(), [.prettyPrinted, .sortedKeys, .escapeUnicode]] {
      let reread = try JSONValue(parsing: try value.jsonBytes(options: options))
      #expect(reread == value, comment, sourceLocation: sourceLocation)
    }
  }
}

/// The process's resident memory, from `/proc/self/status` (Linux only).
enum ResidentMemory {
  static let isAvailable = FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")

  /// The resident size now, in bytes, once the allocator has returned the
  /// memory it holds free to the system.
  static var current: Int {
    _ = trimAllocator?(0)
    return field("VmRSS")
  }

  /// glibc's `malloc_trim`, which the C module map leaves out.
  private static let trimAllocator: (@convention(c) (Int) -> Int32)? = {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else {
      return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  }()

  /// The largest resident size since the last `resetPeak()`, in bytes.
  static var peak: Int { field("VmHWM") }

  /// Makes the peak the current size, which it returns.
  static func resetPeak() -> Int {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    return current
  }

  /// How much resident memory one step took: its peak above the size
  /// before it, and what stays once it has returned.
  struct Growth {
    /// Bytes the peak grew by while the step ran.
    var peak: Int
    /// Bytes still resident above the size before it, once it returned.
    var kept: Int
  }

  /// Runs `body` and writes how much memory it took to standard output,
  /// under `label`, for the parent of an exit test to read back with
  /// ``reports(in:)``.
  static func report(_ label: String, _ body: () throws -> Void) rethrows {
    let base = resetPeak()
    try body()
    let peakGrowth = peak - base
    print("memory \(label) peak \(peakGrowth) kept \(current - base)")
  }

  /// What ``report(_:_:)`` wrote in an exit test, by label.
  static func reports(in result: ExitTest.Result?) -> [String: Growth] {
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    var reports: [String: Growth] = [:]
    for line in output.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count == 6, words[0] == "memory", words[2] == "peak", words[4] == "kept",
        let peak = Int(words[3]), let kept = Int(words[5])
      else { continue }
      reports[String(words[1])] = Growth(peak: peak, kept: kept)
    }
    return reports
  }

  private static func field(_ name: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
      return (kilobytes.flatMap { Int($0) } ?? 0) * 1024
    }
    return 0
  }
}

/// How many times larger the stack must be under a sanitizer, which makes
/// every frame larger.
enum SanitizerScale {
  static let current: Int = {
    guard let handle = dlopen(nil, RTLD_NOW) else { return 1 }
    defer { dlclose(handle) }
    return dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil ? 4 : 1
  }()
}

private func dataDirectory() throws -> URL {
  try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
}
