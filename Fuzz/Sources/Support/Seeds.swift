import Foundation

@testable import JSONKit

/// libFuzzer calls this once before fuzzing. With `JSONKIT_FUZZ_SEEDS` set
/// to a directory, the target instead writes its seed corpus there and
/// exits: the conformance fixtures, small cuts of the benchmark corpora,
/// and encoded model values, each behind a selector byte. The fixtures and
/// corpora are found from `JSONKIT_FUZZ_ROOT`, the package root.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  let environment = ProcessInfo.processInfo.environment
  guard let output = environment["JSONKIT_FUZZ_SEEDS"] else { return 0 }
  let root = URL(fileURLWithPath: environment["JSONKIT_FUZZ_ROOT"] ?? ".")
  let maxLength = environment["JSONKIT_FUZZ_MAX_LEN"].flatMap { Int($0) } ?? 4096
  do {
    var seeds = SeedWriter(directory: URL(fileURLWithPath: output), maxLength: maxLength)
    try seeds.writeAll(root: root, models: fuzzTargetUsesModels)
    print("wrote \(seeds.written) seeds to \(output)")
    exit(0)
  } catch {
    print("writing seeds failed: \(error)")
    exit(1)
  }
}

/// Writes seed inputs, one file each, named by a hash of their bytes.
struct SeedWriter {
  let directory: URL
  let maxLength: Int
  private(set) var written = 0

  init(directory: URL, maxLength: Int) {
    self.directory = directory
    self.maxLength = maxLength
  }

  mutating func writeAll(root: URL, models: Bool) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try writeFixtures(root.appendingPathComponent("Tests/Fixtures/JSONTestSuite"))
    try writeCorpusCuts(root.appendingPathComponent("Benchmarks/Data"))
    try writeTokens()
    if models { try writeModels() }
    if fuzzTargetSeedsCBOR {
      try writeCBORFixtures(root.appendingPathComponent("Tests/Fixtures/CBOR/cbor2"))
    }
  }

  /// For the CBOR target: the items Python's cbor2 wrote (with string
  /// references and shared values among them), and short items around
  /// the references, each behind selector 1, which reads them as CBOR.
  private mutating func writeCBORFixtures(_ fixtures: URL) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
    for name in names where name.hasSuffix(".cbor") {
      let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
      try writeFile([0x01] + bytes.prefix(maxLength - 1))
    }
    let references = [
      // 256(["aaa", {25(0): h'010203', "key": 32(25(2))}, 256(["bbb", 25(0)]), 25(2)])
      "d9010084" + "63616161" + "a2d8190043010203636b6579d820d81902"
        + "d901008263626262d81900" + "d81902",
      // [28({"a": 28([1, 2])}), 29(0), 29(1), 28(29(1)), 29(2)]
      "85" + "d81ca16161d81c820102" + "d81d00" + "d81d01" + "d81cd81d01" + "d81d02",
      // 28([29(0)]), [29(0)], 25(0)
      "d81c81d81d00", "81d81d00", "d81900",
      // [28([1, 1]), 28([29(0), 29(0)]), 28([29(1), 29(1)]), 28([29(2), 29(2)])]
      "84" + "d81c820101" + "d81c82d81d00d81d00" + "d81c82d81d01d81d01" + "d81c82d81d02d81d02",
    ]
    for hex in references {
      let bytes = stride(from: 0, to: hex.count, by: 2).map { offset in
        let start = hex.index(hex.startIndex, offsetBy: offset)
        return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
      }
      try writeFile([0x01] + bytes)
    }
  }

  /// Every JSONTestSuite file, strict and with all options on.
  private mutating func writeFixtures(_ suite: URL) throws {
    for folder in ["test_parsing", "test_transform"] {
      let url = suite.appendingPathComponent(folder)
      let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
      for name in names where name.hasSuffix(".json") {
        let bytes = [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
        try write(bytes, selector: 0x00)
        if name.hasPrefix("i_") || name.hasPrefix("n_") { try write(bytes, selector: 0x0F) }
      }
    }
  }

  /// From each benchmark corpus: its first bytes, a few windows that start
  /// at a container, and whole sub-values that fit the length limit.
  private mutating func writeCorpusCuts(_ data: URL) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
    for name in names where name.hasSuffix(".json") {
      let bytes = [UInt8](try Data(contentsOf: data.appendingPathComponent(name)))
      let window = maxLength - 1
      try write(Array(bytes.prefix(window)), selector: 0x00)
      let starts = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") }
      for start in stride(from: 0, to: starts.count, by: max(1, starts.count / 8)) {
        try write(Array(bytes[starts[start]...].prefix(window)), selector: 0x08)
      }
      var subvalues: [JSONValue] = []
      collect(try JSONValue(parsing: bytes), into: &subvalues)
      for index in stride(from: 0, to: subvalues.count, by: max(1, subvalues.count / 40)) {
        try write(try subvalues[index].jsonBytes(options: .withoutEscapingSlashes), selector: 0x00)
      }
    }
  }

  /// The values in `value` whose text fits a seed, outermost first.
  private func collect(_ value: JSONValue, into values: inout [JSONValue]) {
    var pending = [value]
    while let value = pending.popLast() {
      let size = (try? value.jsonBytes().count) ?? 0
      if size >= 16, size < maxLength - 1 {
        values.append(value)
        continue
      }
      switch value {
      case .array(let elements): pending.append(contentsOf: elements.reversed())
      case .object(let object): pending.append(contentsOf: object.values.reversed())
      default: break
      }
    }
  }

  /// Short documents around the tokens JSONKit treats specially.
  private mutating func writeTokens() throws {
    let documents = [
      #"[-0, 0.1e-400, 1e309, 18446744073709551615, -9223372036854775808, 1E+2, 2.5e-324]"#,
      #"["\ud83d\ude00", "\u0000", "\ufdd0", "\uDFFF\uD800", "\/\b\f\n\r\t", "é"]"#,
      #"{"a":1,"a":2,"e\u0301":3,"é":4} // comment"#,
      "[1 /* block */, 2]\u{2028}\u{85}\u{0B}",
      "\u{FEFF}{\"bom\":true} trailing",
      // JSON5, and a top level without braces.
      "// c\n{a: 0x1F, $b: +.5, _c: [5., -Infinity, NaN,], 'd': 'x\\'\\x41\\\ny', é: -0x10,}",
      "a: 1, 'b': [\"c\",], c: {d: .5e1}, // end",
    ]
    for document in documents {
      for selector: UInt8 in [0x00, 0x01, 0x03, 0x04, 0x08, 0x0F] {
        try write(Array(document.utf8), selector: selector)
      }
    }
    // Lines whose objects leave out their braces, one of them wrongly
    // closed: for the streams target's batch check (bit 5 sets
    // `assumesTopLevelDictionary`).
    let bracelessLines = [
      "\"a\":1\n\"b\":2}\n{\"c\":3}\n", "a: 1\n{b: 2,}\n// c\n\"d\":[4]\n",
    ]
    for document in bracelessLines {
      for selector: UInt8 in [0x20, 0x21, 0x28, 0x2F] {
        try write(Array(document.utf8), selector: selector)
      }
    }
  }

  /// Encoded model values, in every output format, with invalid bytes
  /// spliced in.
  private mutating func writeModels() throws {
    let encoder = JKEncoder()
    for model in FuzzModel.samples {
      for formatting in [JKOutputFormatting(), [.prettyPrinted, .sortedKeys], .escapeUnicode] {
        encoder.outputFormatting = formatting
        try write(try encoder.encodeToBytes(model), selector: 0x00)
      }
      encoder.outputFormatting = []
      encoder.keyEncodingStrategy = .convertToSnakeCase
      try write(try encoder.encodeToBytes(model), selector: 0x10)
      encoder.keyEncodingStrategy = .useDefaultKeys
    }
  }

  private mutating func write(_ document: [UInt8], selector: UInt8) throws {
    try writeFile([selector] + document.prefix(maxLength - 1))
    if fuzzTargetSeedsCBOR, let json = try? JSONValue(parsing: document) {
      // Selector bit 0 asks the CBOR target to read the document as CBOR:
      // the document converted.
      try writeFile([0x01] + CBORValue(json).cborBytes().prefix(maxLength - 1))
    }
    if fuzzTargetSeedsGzip {
      // Selector bit 0 asks the gzip target to read the document as a
      // stream: the document compressed, every other one in two members.
      let document = Array(document.prefix(maxLength / 2))
      let middle = written % 2 == 0 ? document.count : document.count / 2
      let stream =
        GzipSeeds.member(document[..<middle], level: written % 10)
        + (middle < document.count ? GzipSeeds.member(document[middle...], level: 1) : [])
      try writeFile([0x01] + stream.prefix(maxLength - 1))
    }
  }

  private mutating func writeFile(_ bytes: [UInt8]) throws {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    let name = String(hash, radix: 16)
    try Data(bytes).write(to: directory.appendingPathComponent(name))
    written += 1
  }
}

/// gzip members for the seeds of the gzip target, written by JSONKit's writer.
enum GzipSeeds {
  static func member(_ bytes: ArraySlice<UInt8>, level: Int) -> [UInt8] {
    var writer = ByteWriter()
    bytes.withUnsafeBytes { GzipWriter.compress($0, level: level, into: &writer) }
    return writer.finishBytes()
  }
}
