/// Reads CBOR onto JSONKit's tape, so that the Codable decoder that reads
/// JSON's tape reads CBOR too: one pass, every rule ``CBORReader`` applies,
/// and nothing allocated per item.
///
/// What goes on the tape:
///
/// - integers as `int` (or `uint` above `Int64.max`); a negative integer
///   below −2⁶³ as a `bytes` entry flagged `negativeBignum` whose eight
///   bytes are the head's argument;
/// - floats of every precision as `double`; `false`, `true`, `null`, and
///   `undefined` as a `null` flagged `undefined`;
/// - text as a `string` read in place (its offset is the byte before its
///   first byte, as a JSON string's is its opening quote) or, when it came
///   in chunks, joined in the arena; byte strings alike as `bytes`;
/// - arrays and maps as `array` and `object` entries with their count and
///   end; a map's keys as `key` entries: text keys interned, integer keys
///   interned as their decimal text (as Swift's `Int`-keyed dictionaries
///   name them);
/// - tags are checked and dropped, their meaning kept where a reader needs
///   it: tags 2 and 3 flag their byte string as a bignum, tag 37 its 16
///   bytes as a UUID, tag 4 its array as a decimal fraction; tags 0, 1 and
///   32 (a date as text or seconds since 1970, a URI) leave their content
///   as it is, as does tag 55799. Any other tag is an error, or with
///   `skipsUnknownTags`, dropped.
///
/// Offsets on the tape are those of each item's head, except for strings
/// (see above), so errors can say where an item is.
struct CBORTapeScanner {
  /// The rules, and what the scan may relax.
  struct Configuration {
    /// The reader's limits and relaxations.
    var reader = CBORReader.Configuration()
    /// Whether a tag JSONKit does not know is dropped, its content kept.
    var skipsUnknownTags = false
  }

  private var reader: CBORReader
  private let skipsUnknownTags: Bool

  /// Scans the one item in `input` onto `state`'s tape and arena, which it
  /// empties first, and its keys into `state`'s key cache.
  static func scan(
    _ input: UnsafeRawBufferPointer, into state: inout ScanState, configuration: Configuration
  ) throws {
    state.tape.count = 0
    state.arena.count = 0
    state.stack.count = 0
    state.keyStack.count = 0
    state.keys.beginDocument()
    guard !input.isEmpty else { throw JKCBORError(.emptyInput, "The input is empty", at: 0) }
    var scanner = CBORTapeScanner(
      reader: CBORReader(input, configuration: configuration.reader),
      skipsUnknownTags: configuration.skipsUnknownTags)
    try scanner.scanItem(depth: 0, into: &state)
    if scanner.reader.remaining > 0 && !configuration.reader.allowsBytesAfterItem {
      throw JKCBORError(
        .bytesAfterItem, "\(scanner.reader.remaining) bytes follow the top-level item",
        at: scanner.reader.position)
    }
    state.tape.append(TapeEntry.end)
  }

  private var configuration: CBORReader.Configuration { reader.configuration }

  /// Scans one item, `depth` levels down.
  private mutating func scanItem(depth: Int, into state: inout ScanState) throws {
    let head = try reader.readHead()
    try scanItem(head, depth: depth, into: &state)
  }

  /// Scans the rest of the item whose head is `head`.
  private mutating func scanItem(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState
  ) throws {
    switch head.major {
    case .unsigned:
      try refuseIndefinite(head, "An integer")
      let kind: TapeEntry.Kind = head.argument > UInt64(Int64.max) ? .uint : .int
      state.tape.append(TapeEntry(kind, offset: head.start, payload: head.argument))
    case .negative:
      try refuseIndefinite(head, "An integer")
      if head.argument <= UInt64(Int64.max) {
        let value = -1 - Int64(head.argument)
        state.tape.append(
          TapeEntry(.int, offset: head.start, payload: UInt64(bitPattern: value)))
      } else {
        // The eight bytes after the initial byte are n, big-endian.
        state.tape.append(
          TapeEntry(.bytes, flags: TapeEntry.negativeBignum, offset: head.start, payload: 8))
      }
    case .bytes, .text:
      try scanString(head, flags: 0, into: &state)
    case .array:
      guard depth < configuration.maxDepth else { throw reader.tooDeep(at: head.start) }
      try scanArray(head, depth: depth, flags: 0, into: &state)
    case .map:
      guard depth < configuration.maxDepth else { throw reader.tooDeep(at: head.start) }
      try scanMap(head, depth: depth, into: &state)
    case .tag:
      try refuseIndefinite(head, "A tag")
      guard depth < configuration.maxDepth else { throw reader.tooDeep(at: head.start) }
      try scanTagged(head, depth: depth, into: &state)
    case .simple:
      try scanSimple(head, into: &state)
    }
  }

  /// Throws when `head` has an indefinite length, which `what` cannot.
  private func refuseIndefinite(_ head: CBORReader.Head, _ what: String) throws {
    guard head.isIndefinite else { return }
    throw JKCBORError(
      .invalidIndefiniteLength, "\(what) cannot have an indefinite length", at: head.start)
  }

  // MARK: - Strings

  /// Records a text or byte string: in place when definite, joined in the
  /// arena when it comes in chunks.
  private mutating func scanString(
    _ head: CBORReader.Head, flags: UInt8, into state: inout ScanState
  ) throws {
    let kind: TapeEntry.Kind = head.major == .text ? .string : .bytes
    if head.isIndefinite {
      let joined = try reader.readChunks(of: head)
      let record = state.arena.count
      let target = state.arena.reserve(8 + joined.count)
      UnsafeMutableRawPointer(target).storeBytes(of: UInt64(joined.count), as: UInt64.self)
      joined.withUnsafeBufferPointer { (target + 8).update(from: $0.baseAddress!, count: $0.count) }
      state.arena.count += 8 + joined.count
      state.tape.append(
        TapeEntry(
          kind, flags: flags | TapeEntry.inArena, offset: head.start, payload: UInt64(record)))
      return
    }
    let count = try reader.checkedLength(head, limit: configuration.maxStringLength)
    let start = reader.skip(count)
    var entryFlags = flags
    if kind == .string {
      let bytes = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<start + count])
      if Tape.isASCII(bytes.assumingMemoryBound(to: UInt8.self)) {
        entryFlags |= TapeEntry.isASCII
      } else if let bad = UTF8Validation.firstIllFormedOffset(bytes) {
        throw JKCBORError(.invalidUTF8, "A text string is not well-formed UTF-8", at: start + bad)
      }
    }
    state.tape.append(
      TapeEntry(kind, flags: entryFlags, offset: start - 1, payload: UInt64(count)))
  }

  // MARK: - Arrays and maps

  /// Records an array and its elements.
  private mutating func scanArray(
    _ head: CBORReader.Head, depth: Int, flags: UInt8, into state: inout ScanState
  ) throws {
    let index = state.tape.count
    state.tape.append(TapeEntry(.array, flags: flags, offset: head.start, payload: 0))
    var count = 0
    if head.isIndefinite {
      while try !reader.readBreak() {
        guard count < configuration.maxCollectionCount else { throw tooMany(at: head.start) }
        try scanItem(depth: depth + 1, into: &state)
        count += 1
      }
    } else {
      count = try reader.checkedLength(head, limit: configuration.maxCollectionCount)
      for _ in 0..<count { try scanItem(depth: depth + 1, into: &state) }
    }
    close(index, count: count, in: &state)
  }

  /// Records a map: each key and its value.
  private mutating func scanMap(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState
  ) throws {
    let index = state.tape.count
    state.tape.append(TapeEntry(.object, offset: head.start, payload: 0))
    let keysBase = state.keyStack.count
    var count = 0
    if head.isIndefinite {
      while try !reader.readBreak() {
        guard count < configuration.maxCollectionCount else { throw tooMany(at: head.start) }
        try scanPair(depth: depth, into: &state)
        count += 1
      }
    } else {
      count = try reader.checkedLength(
        head, limit: configuration.maxCollectionCount, bytesPerElement: 2)
      for _ in 0..<count {
        try scanPair(depth: depth, into: &state)
      }
    }
    if count > 1, state.hasRepeatedKeys(amongLast: state.keyStack.count - keysBase) {
      try repeated(inObject: index, in: &state)
    }
    state.keyStack.count = keysBase
    close(index, count: count, in: &state)
  }

  /// Records one key and its value.
  private mutating func scanPair(depth: Int, into state: inout ScanState) throws {
    let head = try reader.readHead()
    let id: UInt32
    switch head.major {
    case .text where !head.isIndefinite:
      let count = try reader.checkedLength(head, limit: configuration.maxStringLength)
      let start = reader.skip(count)
      let key = reader.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
      if let predicted = state.keys.predictedKey(key, length: count) {
        id = predicted
      } else {
        let bytes = UnsafeRawBufferPointer(start: key, count: count)
        if let bad = UTF8Validation.firstIllFormedOffset(bytes) {
          throw JKCBORError(.invalidUTF8, "A text string is not well-formed UTF-8", at: start + bad)
        }
        id = state.keys.intern(key, length: count)
      }
    case .text:
      let joined = try reader.readChunks(of: head)
      id = joined.withUnsafeBufferPointer {
        state.keys.intern($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, length: $0.count)
      }
    case .unsigned, .negative:
      try refuseIndefinite(head, "An integer")
      let text =
        head.major == .unsigned
        ? String(head.argument)
        : head.argument == .max ? "-18446744073709551616" : "-\(head.argument + 1)"
      id = Self.intern(text, in: &state)
    default:
      throw JKCBORError(
        .invalidTagContent,
        "A map key that is not text or an integer cannot be decoded by Codable", at: head.start)
    }
    state.tape.append(TapeEntry(.key, offset: head.start, payload: UInt64(id)))
    // Repeats are found among Swift-equal keys, as JSON's are, when the map ends.
    state.keyStack.append(state.keys.canonicalIDs[Int(id)])
    try scanItem(depth: depth + 1, into: &state)
  }

  /// `text` interned as a key.
  private static func intern(_ text: String, in state: inout ScanState) -> UInt32 {
    var text = text
    return text.withUTF8 { state.keys.intern($0.baseAddress!, length: $0.count) }
  }

  /// A map at `object` with a repeated key: with repeats allowed, the map's
  /// flag; otherwise an error at the key's second occurrence.
  private func repeated(inObject object: Int, in state: inout ScanState) throws {
    let entry = state.tape.base[object]
    guard !configuration.allowsDuplicateKeys else {
      state.tape.base[object] = TapeEntry(
        .object, flags: TapeEntry.hasDuplicateKeys, offset: entry.offset, payload: entry.payload)
      return
    }
    var seen: Set<UInt32> = []
    var index = object + 1
    while index < state.tape.count {
      let key = state.tape.base[index]
      if !seen.insert(state.keys.canonicalIDs[Int(key.payload)]).inserted {
        throw JKCBORError(.duplicateKey, "A map key is repeated", at: key.offset)
      }
      let value = state.tape.base[index + 1]
      index = value.isContainer ? value.containerEnd : index + 2
    }
  }

  /// Writes the count and end of the container at `index`.
  private func close(_ index: Int, count: Int, in state: inout ScanState) {
    state.tape.base[index].payload = UInt64(count) << 32 | UInt64(state.tape.count)
  }

  /// The error for an indefinite-length collection over the limit.
  private func tooMany(at offset: Int) -> JKCBORError {
    JKCBORError(
      .limitExceeded,
      "An indefinite-length collection holds more than the limit of "
        + "\(configuration.maxCollectionCount) items", at: offset)
  }

  // MARK: - Tags and simple values

  /// Checks a tagged item's content and records it, with the tag's meaning
  /// as a flag where readers need it.
  private mutating func scanTagged(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState
  ) throws {
    let content = try reader.readHead()
    if let needed = CBORTags.content(of: head.argument), !needed.admits(content) {
      throw CBORTags.wrongContent(
        of: head.argument, found: content.major.description, needs: needed, at: content.start)
    }
    switch head.argument {
    case CBORTags.dateTimeText, CBORTags.uri:
      try scanString(content, flags: 0, into: &state)
    case CBORTags.epochTime:
      try scanItem(content, depth: depth + 1, into: &state)
    case CBORTags.positiveBignum, CBORTags.negativeBignum:
      let flag =
        head.argument == CBORTags.positiveBignum
        ? TapeEntry.positiveBignum : TapeEntry.negativeBignum
      try scanString(content, flags: flag, into: &state)
    case CBORTags.uuid:
      try scanString(content, flags: TapeEntry.uuidBytes, into: &state)
    case CBORTags.decimalFraction:
      let index = state.tape.count
      try scanArray(content, depth: depth + 1, flags: TapeEntry.decimalFraction, into: &state)
      try checkDecimalFraction(at: index, offset: content.start, in: state)
    case CBORTags.selfDescribed:
      try scanItem(content, depth: depth + 1, into: &state)
    default:
      guard skipsUnknownTags else {
        throw JKCBORError(
          .unknownTag, "Tag \(head.argument) is not one that Codable values are read from",
          at: head.start)
      }
      try scanItem(content, depth: depth + 1, into: &state)
    }
  }

  /// Checks that the array at `index` is `[exponent, mantissa]`: an
  /// integer, then an integer or a bignum.
  private func checkDecimalFraction(at index: Int, offset: Int, in state: ScanState) throws {
    let array = state.tape.base[index]
    let exponent = state.tape.base[index + 1]
    let mantissa = index + 2 < state.tape.count ? state.tape.base[index + 2] : exponent
    let isInteger = { (entry: TapeEntry) in entry.kind == .int || entry.kind == .uint }
    let isBignum = { (entry: TapeEntry) in
      entry.kind == .bytes
        && entry.flags & (TapeEntry.positiveBignum | TapeEntry.negativeBignum) != 0
    }
    guard array.childCount == 2, exponent.kind == .int,
      isInteger(mantissa) || isBignum(mantissa)
    else {
      throw CBORTags.wrongContent(
        of: CBORTags.decimalFraction, found: "another array", needs: .exponentAndMantissa,
        at: offset)
    }
  }

  /// Records `false`, `true`, `null`, `undefined` or a float; other simple
  /// values have no Codable reading.
  private mutating func scanSimple(_ head: CBORReader.Head, into state: inout ScanState) throws {
    if head.isIndefinite { throw reader.unexpectedBreak(at: head.start) }
    let entry: TapeEntry
    switch head.info {
    case 20: entry = TapeEntry(.false, offset: head.start, payload: 0)
    case 21: entry = TapeEntry(.true, offset: head.start, payload: 0)
    case 22: entry = TapeEntry(.null, offset: head.start, payload: 0)
    case 23: entry = TapeEntry(.null, flags: TapeEntry.undefined, offset: head.start, payload: 0)
    case 25...27:
      guard case .float(let value) = try reader.simpleValue(head) else { return }
      entry = TapeEntry(.double, offset: head.start, payload: value.bitPattern)
    default:
      _ = try reader.simpleValue(head)
      throw JKCBORError(
        .invalidTagContent,
        "A simple value other than false, true, null or undefined "
          + "cannot be decoded by Codable", at: head.start)
    }
    state.tape.append(entry)
  }
}
