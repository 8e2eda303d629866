import Foundation
import Testing

@testable import JSONKit

/// The page `Sources/JSONKit/Scanning/TapeLayout.md`, on the tape's layout:
/// its worked example is scanned here, and every entry, arena byte, key id,
/// name id and stack word it shows is what the scanner and the decoder make.
///
/// Each expectation is written twice: here, as the values the page states,
/// checked against a scan; and on the page, whose tables are read and
/// checked against the values here.
@Suite struct TapeLayoutPageTests {
  /// The page, read from the source tree.
  static let page = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/JSONKit/Scanning/TapeLayout.md")

  static func pageText() throws -> String {
    try String(contentsOf: page, encoding: .utf8)
  }

  /// The worked example, as the page shows it.
  static let example =
    #"{"id":18446744073709551616,"tags":["a\"b","café","ok","\u00e9t\u00e9",true],"#
    + #""meta":{"id":null,"n":-2.5},"id":7}"#

  /// The page's example of keys that share a name under a key strategy.
  static let snakeCaseExample = #"{"user_id":1,"userId":2}"#

  /// What an entry of the example's tape stands for, as the page's last
  /// column says.
  enum Meaning: Equatable {
    case members(Int, end: Int)
    case elements(Int, end: Int)
    case key(id: UInt32, String)
    /// A number's text in the input, read from the entry's offset.
    case bigInteger(String)
    case arenaString(recordAt: Int, String)
    case inputString(String)
    case int(Int64)
    case double(Double)
    case literal
    /// Any other payload (none of the example's entries).
    case payload(UInt64)
  }

  struct Row {
    var index: Int
    var kind: TapeEntry.Kind
    var flags: UInt8
    var offset: Int
    var header: UInt64
    var payload: UInt64
    var meaning: Meaning
  }

  /// The page's table of the example's tape, the absent value last.
  static let rows: [Row] = [
    Row(
      index: 0, kind: .object, flags: 1, offset: 0, header: 0x1B,
      payload: 0x0000_0004_0000_0012, meaning: .members(4, end: 18)),
    Row(
      index: 1, kind: .key, flags: 0, offset: 1, header: 0x108, payload: 0,
      meaning: .key(id: 0, "id")),
    Row(
      index: 2, kind: .bigInteger, flags: 0, offset: 6, header: 0x606, payload: 0x14,
      meaning: .bigInteger("18446744073709551616")),
    Row(
      index: 3, kind: .key, flags: 0, offset: 27, header: 0x1B08, payload: 1,
      meaning: .key(id: 1, "tags")),
    Row(
      index: 4, kind: .array, flags: 0, offset: 34, header: 0x220A,
      payload: 0x0000_0005_0000_000A, meaning: .elements(5, end: 10)),
    Row(
      index: 5, kind: .string, flags: 1, offset: 35, header: 0x2317, payload: 0,
      meaning: .arenaString(recordAt: 0, "a\"b")),
    Row(
      index: 6, kind: .string, flags: 0, offset: 42, header: 0x2A07, payload: 5,
      meaning: .inputString("café")),
    Row(
      index: 7, kind: .string, flags: 2, offset: 50, header: 0x3227, payload: 2,
      meaning: .inputString("ok")),
    Row(
      index: 8, kind: .string, flags: 1, offset: 55, header: 0x3717, payload: 0xB,
      meaning: .arenaString(recordAt: 11, "été")),
    Row(
      index: 9, kind: .true, flags: 0, offset: 71, header: 0x4702, payload: 0,
      meaning: .literal),
    Row(
      index: 10, kind: .key, flags: 0, offset: 77, header: 0x4D08, payload: 2,
      meaning: .key(id: 2, "meta")),
    Row(
      index: 11, kind: .object, flags: 0, offset: 84, header: 0x540B,
      payload: 0x0000_0002_0000_0010, meaning: .members(2, end: 16)),
    Row(
      index: 12, kind: .key, flags: 0, offset: 85, header: 0x5508, payload: 0,
      meaning: .key(id: 0, "id")),
    Row(
      index: 13, kind: .null, flags: 0, offset: 90, header: 0x5A00, payload: 0,
      meaning: .literal),
    Row(
      index: 14, kind: .key, flags: 0, offset: 95, header: 0x5F08, payload: 3,
      meaning: .key(id: 3, "n")),
    Row(
      index: 15, kind: .double, flags: 0, offset: 99, header: 0x6305,
      payload: 0xC004_0000_0000_0000, meaning: .double(-2.5)),
    Row(
      index: 16, kind: .key, flags: 0, offset: 105, header: 0x6908, payload: 0,
      meaning: .key(id: 0, "id")),
    Row(
      index: 17, kind: .int, flags: 0, offset: 110, header: 0x6E03, payload: 7,
      meaning: .int(7)),
    Row(
      index: 18, kind: .null, flags: 0, offset: 0, header: 0, payload: 0, meaning: .literal),
  ]

  /// The document's entries (`Tape.count`): all but the end entry.
  static let scannedCount = 18

  /// The page's table of the arena: offset, bytes.
  static let arena: [(offset: Int, bytes: [UInt8])] = [
    (0, [0x03, 0, 0, 0, 0, 0, 0, 0]),
    (8, [0x61, 0x22, 0x62]),
    (11, [0x05, 0, 0, 0, 0, 0, 0, 0]),
    (19, [0xC3, 0xA9, 0x74, 0xC3, 0xA9]),
  ]

  /// The page's table of the key cache: key, canonical id, name id as
  /// written, name id from snake case; the key id is the position.
  static let keys: [(key: String, canonical: UInt32, asWritten: UInt32, fromSnakeCase: UInt32)] = [
    ("id", 0, 0, 0),
    ("tags", 1, 1, 1),
    ("meta", 2, 2, 2),
    ("n", 3, 3, 3),
  ]

  /// The page's table of the stack just after `-2.5` has ended.
  static let stack: [UInt64] = [0x8000_0002_0000_0000, 0x8000_0002_0000_000B]
  /// The key stack at the same point.
  static let keyStack: [UInt32] = [0, 1, 2, 0, 3]

  // MARK: - The scan

  /// What a scan of `text` with a new context leaves.
  struct Scan {
    var entries: [TapeEntry]
    var arena: [UInt8]
    var keys: [String]
    var canonicalIDs: [UInt32]
    var nameIDs: [KeyIDNames.Naming: [UInt32]]
    var sharedNames: [KeyIDNames.Naming: [Bool]]
    /// The whole tape the scan wrote: the document's entries and the end entry.
    var writtenEntries: [TapeEntry]
    var absentIndex: Int
  }

  static func scan(_ text: String) throws -> Scan {
    let owner = DecodingContext()
    let context = owner.scan
    let configuration = ScanConfiguration(allowsBigIntegers: true)
    return try Array(text.utf8).withUnsafeBytes { input in
      try Scanner.scan(input, into: context, configuration: configuration)
      let state = context.state
      let entries = Array(
        UnsafeBufferPointer(
          start: state.tape.base, count: Tape(context: context, input: input).count))
      let arena = Array(UnsafeBufferPointer(start: state.arena.base, count: state.arena.count))
      var nameIDs: [KeyIDNames.Naming: [UInt32]] = [:]
      var sharedNames: [KeyIDNames.Naming: [Bool]] = [:]
      for naming in [KeyIDNames.Naming.asWritten, .fromSnakeCase] {
        let names = owner.keyTables.names(naming, updatedFrom: state.keys)
        nameIDs[naming] = names.nameIDs
        sharedNames[naming] = (0..<names.count).map { names.isShared(UInt32($0)) }
      }
      let session = owner.session(
        for: Tape(context: context, input: input), options: DecodingOptions())
      return Scan(
        entries: entries, arena: arena, keys: state.keys.strings,
        canonicalIDs: state.keys.canonicalIDs, nameIDs: nameIDs, sharedNames: sharedNames,
        writtenEntries: Array(UnsafeBufferPointer(start: state.tape.base, count: state.tape.count)),
        absentIndex: session.absentIndex)
    }
  }

  /// What `entry` of `scan`, a scan of `input`, stands for, read as a
  /// consumer reads it.
  static func meaning(of entry: TapeEntry, in scan: Scan, input: [UInt8]) -> Meaning {
    switch entry.kind {
    case .object: return .members(entry.childCount, end: entry.containerEnd)
    case .array: return .elements(entry.childCount, end: entry.containerEnd)
    case .key:
      let id = UInt32(truncatingIfNeeded: entry.payload)
      guard id < scan.keys.count else { return .payload(entry.payload) }
      return .key(id: id, scan.keys[Int(id)])
    case .bigInteger:
      let text = input.withUnsafeBytes { Array(Tape.numberText(of: entry, in: $0)) }
      return .bigInteger(String(decoding: text, as: UTF8.self))
    case .string where entry.flags & TapeEntry.inArena != 0:
      guard entry.payload < scan.arena.count, entry.payload + 8 <= scan.arena.count else {
        return .payload(entry.payload)
      }
      let record = Int(entry.payload)
      let length = scan.arena[record..<record + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      guard record + 8 + length <= scan.arena.count else { return .payload(entry.payload) }
      let bytes = scan.arena[record + 8..<record + 8 + length]
      return .arenaString(recordAt: record, String(decoding: bytes, as: UTF8.self))
    case .string:
      guard entry.payload < input.count, entry.offset + 1 + Int(entry.payload) <= input.count
      else {
        return .payload(entry.payload)
      }
      let bytes = input[entry.offset + 1..<entry.offset + 1 + Int(entry.payload)]
      return .inputString(String(decoding: bytes, as: UTF8.self))
    case .int: return .int(Int64(bitPattern: entry.payload))
    case .double: return .double(Double(bitPattern: entry.payload))
    case .null, .true, .false: return entry.payload == 0 ? .literal : .payload(entry.payload)
    case .uint, .bytes, .sharedReference: return .payload(entry.payload)
    }
  }

  @Test func theExampleScansToTheTapeThePageShows() throws {
    let scan = try Self.scan(Self.example)
    let input = Array(Self.example.utf8)
    #expect(input.count == 112)
    #expect(scan.entries.count == Self.scannedCount)
    #expect(scan.absentIndex == Self.scannedCount)
    #expect(scan.writtenEntries.count == Self.rows.count)
    #expect(Array(scan.writtenEntries.prefix(Self.scannedCount)) == scan.entries)
    #expect(scan.writtenEntries.last == TapeEntry.end)
    for row in Self.rows {
      guard row.index < scan.writtenEntries.count else {
        Issue.record("no entry \(row.index)")
        continue
      }
      let entry = scan.writtenEntries[row.index]
      #expect(entry.kind == row.kind, "entry \(row.index)")
      #expect(entry.flags == row.flags, "entry \(row.index)")
      #expect(entry.offset == row.offset, "entry \(row.index)")
      #expect(entry.header == row.header, "entry \(row.index)")
      #expect(entry.payload == row.payload, "entry \(row.index)")
      #expect(Self.meaning(of: entry, in: scan, input: input) == row.meaning, "entry \(row.index)")
    }
  }

  @Test func theArenaHoldsTheRecordsThePageShows() throws {
    let scan = try Self.scan(Self.example)
    #expect(scan.arena == Self.arena.flatMap { $0.bytes })
    #expect(scan.arena.count == 24)
    for (offset, bytes) in Self.arena where offset + bytes.count <= scan.arena.count {
      #expect(Array(scan.arena[offset..<offset + bytes.count]) == bytes, "arena at \(offset)")
    }
    // Each string entry in the arena points at its record, and `Tape`
    // reads the same bytes from it.
    try Array(Self.example.utf8).withUnsafeBytes { input in
      let context = ScanContext()
      try Scanner.scan(
        input, into: context, configuration: ScanConfiguration(allowsBigIntegers: true))
      let tape = Tape(context: context, input: input)
      #expect(tape.string(tape[5]) == "a\"b")
      #expect(tape.string(tape[6]) == "café")
      #expect(tape.string(tape[7]) == "ok")
      #expect(tape.string(tape[8]) == "été")
      #expect(tape.indexAfter(4) == 10)
      #expect(tape.indexAfter(11) == 16)
    }
  }

  @Test func theKeysHaveTheIdsThePageShows() throws {
    let scan = try Self.scan(Self.example)
    #expect(scan.keys == Self.keys.map { $0.key })
    #expect(scan.canonicalIDs == Self.keys.map { $0.canonical })
    #expect(scan.nameIDs[.asWritten] == Self.keys.map { $0.asWritten })
    #expect(scan.nameIDs[.fromSnakeCase] == Self.keys.map { $0.fromSnakeCase })
  }

  @Test func snakeCaseKeysShareANameIdAsThePageSays() throws {
    let scan = try Self.scan(Self.snakeCaseExample)
    #expect(scan.entries.filter { $0.kind == .key }.map(\.payload) == [0, 1])
    #expect(scan.keys == ["user_id", "userId"])
    #expect(scan.nameIDs[.asWritten] == [0, 1])
    #expect(scan.nameIDs[.fromSnakeCase] == [0, 0])
    #expect(scan.sharedNames[.fromSnakeCase] == [true, true])
    #expect(scan.sharedNames[.asWritten] == [false, false])
    #expect(scan.entries[0].flags & TapeEntry.hasDuplicateKeys == 0)
  }

  @Test func theStackPartWayHoldsTheWordsThePageShows() throws {
    // The example cut just after `-2.5`: the scan fails where it looks for
    // what follows, and the context keeps its stacks as they were then.
    let input = Array(Self.example.utf8)
    let cut = try #require(Self.example.range(of: "-2.5")).upperBound
    let prefix = Array(Self.example[..<cut].utf8)
    #expect(prefix.count == 103 && input.starts(with: prefix))
    let context = ScanContext()
    #expect(throws: JKParseError.self) {
      try prefix.withUnsafeBytes {
        try Scanner.scan(
          $0, into: context, configuration: ScanConfiguration(allowsBigIntegers: true))
      }
    }
    let state = context.state
    #expect(
      Array(UnsafeBufferPointer(start: state.stack.base, count: state.stack.count)) == Self.stack)
    #expect(
      Array(UnsafeBufferPointer(start: state.keyStack.base, count: state.keyStack.count))
        == Self.keyStack)
  }

  /// The tape and arena of `text` scanned with `options`, big integers allowed.
  static func tapeAndArena(_ text: [UInt8], options: JKParseOptions = []) throws -> (
    entries: [TapeEntry], arena: [UInt8]
  ) {
    let context = ScanContext()
    let configuration = ScanConfiguration(options: options, allowsBigIntegers: true)
    try text.withUnsafeBytes { try Scanner.scan($0, into: context, configuration: configuration) }
    let state = context.state
    #expect(state.tape.base[state.tape.count - 1] == TapeEntry.end)
    return (
      Array(UnsafeBufferPointer(start: state.tape.base, count: state.tape.count - 1)),
      Array(UnsafeBufferPointer(start: state.arena.base, count: state.arena.count))
    )
  }

  @Test func whatThePageSaysBesideTheExampleHolds() throws {
    // An entry is two words.
    #expect(MemoryLayout<TapeEntry>.size == 16 && MemoryLayout<TapeEntry>.stride == 16)
    // Numbers.
    let numbers = try Self.tapeAndArena(Array("[-1,-0,18446744073709551615]".utf8)).entries
    #expect(numbers[1].kind == .int && numbers[1].payload == 0xFFFF_FFFF_FFFF_FFFF)
    #expect(numbers[2].kind == .double && numbers[2].payload == 0x8000_0000_0000_0000)
    #expect(numbers[3].kind == .uint && numbers[3].payload == .max)
    // JSON5 numbers carry the flag; the payload means what it means without it.
    let json5: [(String, TapeEntry.Kind, UInt64)] = [
      ("0x1F", .int, 31), ("0xFFFFFFFFFFFFFFFF", .uint, .max), ("-0x1", .int, .max),
      ("+1", .int, 1), ("+1.5", .double, 1.5.bitPattern),
      ("+18446744073709551616", .bigInteger, 21),
      (".5", .double, 0.5.bitPattern), ("5.", .double, 5.0.bitPattern),
      ("Infinity", .double, Double.infinity.bitPattern),
      ("-Infinity", .double, (-Double.infinity).bitPattern),
    ]
    for (text, kind, payload) in json5 {
      let entry = try Self.tapeAndArena(Array(text.utf8), options: .json5).entries[0]
      #expect(entry.kind == kind && entry.flags == TapeEntry.json5Number, "\(text)")
      #expect(entry.payload == payload, "\(text)")
    }
    for text in ["NaN", "-NaN", "+NaN"] {
      let entry = try Self.tapeAndArena(Array(text.utf8), options: .json5).entries[0]
      #expect(entry.kind == .double && entry.flags == TapeEntry.json5Number, "\(text)")
      #expect(Double(bitPattern: entry.payload).isNaN, "\(text)")
    }
    // Strings: the empty string is ASCII; a single-quoted one is in the arena.
    let empty = try Self.tapeAndArena(Array(#""""#.utf8)).entries[0]
    #expect(empty.flags == TapeEntry.isASCII && empty.payload == 0)
    let quoted = try Self.tapeAndArena(Array("'ok'".utf8), options: .json5)
    #expect(quoted.entries[0].flags == TapeEntry.inArena)
    #expect(quoted.arena == [2, 0, 0, 0, 0, 0, 0, 0] + Array("ok".utf8))
    // Keys leave nothing in the arena, escaped or single-quoted.
    let keys = try Self.tapeAndArena(Array(#"{"a\u0062":1,'c':2}"#.utf8), options: .json5)
    #expect(keys.arena.isEmpty)
    #expect(keys.entries.map(\.kind) == [.object, .key, .int, .key, .int])
    // Canonically equivalent keys are duplicates.
    let equivalent = try Self.tapeAndArena(Array(#"{"\u00e9":1,"e\u0301":2}"#.utf8)).entries
    #expect(equivalent[0].flags == TapeEntry.hasDuplicateKeys)
    // A byte order mark is counted in offsets.
    #expect(try Self.tapeAndArena([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).entries[0].offset == 3)
    // Empty containers end right after themselves.
    let containers = try Self.tapeAndArena(Array("[{},[]]".utf8)).entries
    #expect(containers.map(\.payload) == [2 << 32 | 3, 2, 3])
  }

  // MARK: - The page

  /// The cells of the rows of the first table after the line `heading`,
  /// without its head and separator, backticks removed.
  static func table(after heading: String, in page: String) -> [[String]] {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: heading) else { return [] }
    var rows: [[String]] = []
    var inTable = false
    for line in lines[(start + 1)...] {
      if line.hasPrefix("#") { break }
      guard line.hasPrefix("|") else {
        if inTable { break }
        continue
      }
      inTable = true
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
        .dropLast().map {
          $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
        }
      rows.append(cells)
    }
    return Array(rows.dropFirst(2))
  }

  /// A number as the page writes it: decimal, or hexadecimal with `0x` and
  /// underscores.
  static func number(_ cell: String) -> UInt64? {
    let digits = cell.replacingOccurrences(of: "_", with: "")
    if digits.hasPrefix("0x") { return UInt64(digits.dropFirst(2), radix: 16) }
    return UInt64(digits)
  }

  /// A flags cell: `0`, or a flag's name with its value in parentheses.
  static func flags(_ cell: String) -> UInt8? {
    if let open = cell.firstIndex(of: "("), let close = cell.firstIndex(of: ")") {
      return UInt8(cell[cell.index(after: open)..<close])
    }
    return UInt8(cell)
  }

  @Test func thePageShowsTheExampleVerbatim() throws {
    let page = try Self.pageText()
    #expect(page.contains("```json\n" + Self.example + "\n```"))
    #expect(page.contains("`" + Self.snakeCaseExample + "`"))
  }

  @Test func thePagesTapeTableIsTheExpectedTape() throws {
    let cells = Self.table(after: "### The tape", in: try Self.pageText())
    #expect(cells.count == Self.rows.count)
    for (row, cells) in zip(Self.rows, cells) {
      guard cells.count >= 6 else {
        Issue.record("row \(row.index) of the page's table has \(cells.count) cells")
        continue
      }
      #expect(Int(cells[0]) == row.index)
      #expect(cells[1] == "\(row.kind)", "entry \(row.index)")
      #expect(Self.flags(cells[2]) == row.flags, "entry \(row.index)")
      #expect(Int(cells[3]) == row.offset, "entry \(row.index)")
      #expect(Self.number(cells[4]) == row.header, "entry \(row.index)")
      #expect(Self.number(cells[5]) == row.payload, "entry \(row.index)")
      // The header column is the three before it, put together.
      #expect(
        TapeEntry(row.kind, flags: row.flags, offset: row.offset, payload: row.payload).header
          == row.header, "entry \(row.index)")
    }
  }

  @Test func thePagesOtherTablesAreTheExpectedValues() throws {
    let page = try Self.pageText()
    let arena = Self.table(after: "### The arena", in: page)
    #expect(arena.map { Int($0[0]) } == Self.arena.map { $0.offset })
    #expect(
      arena.map { $0[1].split(separator: " ").map { UInt8($0, radix: 16) } }
        == Self.arena.map { $0.bytes.map(Optional.some) })
    let keys = Self.table(after: "### The key cache and names", in: page)
    #expect(
      keys.map { $0.count >= 5 ? Array($0[0..<5]) : $0 }
        == Self.keys.enumerated().map { id, key in
          ["\(id)", key.key, "\(key.canonical)", "\(key.asWritten)", "\(key.fromSnakeCase)"]
        })
    let stack = Self.table(after: "### The stack, part way", in: page)
    #expect(stack.map { Int($0[0]) } == Array(Self.stack.indices))
    #expect(stack.map { Self.number($0[1]) } == Self.stack)
    #expect(page.contains("`" + Self.keyStack.map(String.init).joined(separator: ", ") + "`"))
  }

  @Test func thePagesKindsAndFlagsAreTheCodes() throws {
    let page = try Self.pageText()
    let kinds = Self.table(after: "### Kinds, payloads and flags", in: page)
    #expect(kinds.count == 13)
    for cells in kinds {
      let kind = UInt8(cells[0]).flatMap(TapeEntry.Kind.init(rawValue:))
      #expect(kind.map { "\($0)" } == cells[1], "\(cells)")
    }
    for (name, value) in [
      ("inArena", TapeEntry.inArena), ("isASCII", TapeEntry.isASCII),
      ("hasDuplicateKeys", TapeEntry.hasDuplicateKeys), ("json5Number", TapeEntry.json5Number),
      ("positiveBignum", TapeEntry.positiveBignum), ("negativeBignum", TapeEntry.negativeBignum),
      ("uuidBytes", TapeEntry.uuidBytes), ("decimalFraction", TapeEntry.decimalFraction),
      ("undefined", TapeEntry.undefined),
    ] {
      #expect(page.contains("`\(name)` (\(value))"), "\(name)")
    }
  }
}
