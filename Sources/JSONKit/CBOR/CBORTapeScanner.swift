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
///   `skipsUnknownTags`, dropped;
/// - string references are resolved: inside a string namespace (tag 256)
///   a tag 25 becomes an entry for the string it refers to, pointing at
///   that string's bytes in the input, as if it were written there;
/// - shared values are resolved: a tag 28's content is scanned as it is,
///   and a tag 29 that refers to it becomes a copy of its entries (see
///   ``ScanState/sharedRoots`` for how class instances stay shared).
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
    /// Whether a shared reference (tag 29) is recorded as a copy of the
    /// value it refers to, which any type decodes; otherwise as one
    /// ``TapeEntry/Kind/sharedReference`` entry, which only a class reads,
    /// so that a graph of instances costs no copies.
    var copiesSharedValues = false
  }

  private var reader: CBORReader
  private let skipsUnknownTags: Bool
  private let copiesSharedValues: Bool
  /// The strings that the open string namespaces number, outermost
  /// namespace first, each as the tape entry that stands for it.
  private var strings: [TapeEntry] = []
  /// Where each open string namespace's strings start in ``strings``,
  /// innermost last.
  private var namespaces: [Int] = []
  /// Per shared value (tag 28), by number: where its entries are on the
  /// tape (`end` is -1 while it is scanned), the number that stands for
  /// its identity (its own, unless it marks the same item as another), and
  /// how many levels of arrays and maps nest in it, references' included
  /// (0 for a scalar).
  private var shared: [(start: Int, end: Int, identity: Int, height: Int)] = []
  /// The depth, in levels of arrays and maps, that the scan has reached so
  /// far, references' values included: where a shared value's scan starts
  /// and ends, the difference is its height.
  private var deepest = 0
  /// The tape entries that shared references added.
  private var copiedEntries = 0

  /// Scans the one item in `input` onto `state`'s tape and arena, which it
  /// empties first, and its keys into `state`'s key cache.
  static func scan(
    _ input: UnsafeRawBufferPointer, into state: inout ScanState, configuration: Configuration
  ) throws {
    state.tape.count = 0
    state.arena.count = 0
    state.stack.count = 0
    state.keyStack.count = 0
    if !state.sharedRoots.isEmpty { state.sharedRoots.removeAll(keepingCapacity: true) }
    state.keys.beginDocument()
    guard !input.isEmpty else { throw JKCBORError(.emptyInput, "The input is empty", at: 0) }
    var scanner = CBORTapeScanner(
      reader: CBORReader(input, configuration: configuration.reader),
      skipsUnknownTags: configuration.skipsUnknownTags,
      copiesSharedValues: configuration.copiesSharedValues)
    try scanner.scanItem(depth: 0, into: &state, CBORPlainStrings.self)
    if !state.sharedRoots.isEmpty { scanner.resolveIdentities(in: &state) }
    if scanner.reader.remaining > 0 && !configuration.reader.allowsBytesAfterItem {
      throw JKCBORError(
        .bytesAfterItem, "\(scanner.reader.remaining) bytes follow the top-level item",
        at: scanner.reader.position)
    }
    state.tape.append(TapeEntry.end)
  }

  private var configuration: CBORReader.Configuration { reader.configuration }

  /// Scans one item, `depth` levels down.
  @inline(__always)
  private mutating func scanItem<S: CBORStringRecording>(
    depth: Int, into state: inout ScanState, _ recording: S.Type
  ) throws {
    let head = try reader.readHead()
    try scanItem(head, depth: depth, into: &state, S.self)
  }

  /// Scans the rest of the item whose head is `head`.
  private mutating func scanItem<S: CBORStringRecording>(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState, _ recording: S.Type
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
      try scanString(head, flags: 0, into: &state, S.self)
    case .array:
      guard depth < configuration.maxDepth else { throw reader.tooDeep(at: head.start) }
      if depth >= deepest { deepest = depth + 1 }
      try scanArray(head, depth: depth, flags: 0, into: &state, S.self)
    case .map:
      guard depth < configuration.maxDepth else { throw reader.tooDeep(at: head.start) }
      if depth >= deepest { deepest = depth + 1 }
      try scanMap(head, depth: depth, into: &state, S.self)
    case .tag:
      try refuseIndefinite(head, "A tag")
      guard depth < configuration.maxDepth || CBORTags.isReference(head.argument) else {
        throw reader.tooDeep(at: head.start)
      }
      try scanTagged(head, depth: depth, into: &state, S.self)
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
  /// arena when it comes in chunks. Inside a string namespace, a definite
  /// one long enough is numbered too.
  private mutating func scanString<S: CBORStringRecording>(
    _ head: CBORReader.Head, flags: UInt8, into state: inout ScanState, _ recording: S.Type
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
      switch UTF8Validation.check(bytes) {
      case .ascii: entryFlags |= TapeEntry.isASCII
      case .wellFormed: break
      case .illFormed(let bad):
        throw JKCBORError(.invalidUTF8, "A text string is not well-formed UTF-8", at: start + bad)
      }
    }
    state.tape.append(
      TapeEntry(kind, flags: entryFlags, offset: start - 1, payload: UInt64(count)))
    if S.recordsStrings {
      // The string as written, without what its tag adds.
      let plainFlags = kind == .string ? entryFlags & TapeEntry.isASCII : 0
      number(TapeEntry(kind, flags: plainFlags, offset: start - 1, payload: UInt64(count)))
    }
  }

  /// Adds `string`, a definite string just read inside a string namespace,
  /// to the innermost namespace's table if it is long enough.
  private mutating func number(_ string: TapeEntry) {
    guard let first = namespaces.last else { return }
    let length = Int(truncatingIfNeeded: string.payload)
    if length >= CBORTags.shortestReferencedLength(tableCount: strings.count - first) {
      strings.append(string)
    }
  }

  /// The string that a string reference refers to: the entry that stands
  /// for it, without flags of a tag. `content` is the head of the content
  /// of the tag 25 at `tagStart`.
  private mutating func referencedString<S: CBORStringRecording>(
    tagStart: Int, content: CBORReader.Head, _ recording: S.Type
  ) throws -> TapeEntry {
    guard content.major == .unsigned else {
      throw CBORTags.wrongContent(
        of: CBORTags.stringReference, found: content.major.description,
        needs: .unsignedInteger, at: content.start)
    }
    try refuseIndefinite(content, "An integer")
    guard S.recordsStrings, let first = namespaces.last else {
      throw JKCBORError(
        .invalidReference,
        "A string reference (tag 25) stands outside any string namespace (tag 256)",
        at: tagStart)
    }
    let count = strings.count - first
    guard content.argument < UInt64(count) else {
      throw JKCBORError(
        .invalidReference,
        "The string reference \(content.argument) is past the table of its namespace, "
          + "which holds \(counted(UInt64(count), "string"))", at: tagStart)
    }
    return strings[first + Int(content.argument)]
  }

  // MARK: - Arrays and maps

  /// Records an array and its elements.
  private mutating func scanArray<S: CBORStringRecording>(
    _ head: CBORReader.Head, depth: Int, flags: UInt8, into state: inout ScanState,
    _ recording: S.Type
  ) throws {
    let index = state.tape.count
    state.tape.append(TapeEntry(.array, flags: flags, offset: head.start, payload: 0))
    var count = 0
    if head.isIndefinite {
      while try !reader.readBreak() {
        guard count < configuration.maxCollectionCount else { throw tooMany(at: head.start) }
        try scanItem(depth: depth + 1, into: &state, S.self)
        count += 1
      }
    } else {
      count = try reader.checkedLength(head, limit: configuration.maxCollectionCount)
      for _ in 0..<count { try scanItem(depth: depth + 1, into: &state, S.self) }
    }
    close(index, count: count, in: &state)
  }

  /// Records a map: each key and its value.
  private mutating func scanMap<S: CBORStringRecording>(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState, _ recording: S.Type
  ) throws {
    let index = state.tape.count
    state.tape.append(TapeEntry(.object, offset: head.start, payload: 0))
    let keysBase = state.keyStack.count
    var count = 0
    if head.isIndefinite {
      while try !reader.readBreak() {
        guard count < configuration.maxCollectionCount else { throw tooMany(at: head.start) }
        try scanPair(depth: depth, into: &state, S.self)
        count += 1
      }
    } else {
      count = try reader.checkedLength(
        head, limit: configuration.maxCollectionCount, bytesPerElement: 2)
      for _ in 0..<count {
        try scanPair(depth: depth, into: &state, S.self)
      }
    }
    if count > 1, state.hasRepeatedKeys(amongLast: state.keyStack.count - keysBase) {
      try repeated(inObject: index, in: &state)
    }
    state.keyStack.count = keysBase
    close(index, count: count, in: &state)
  }

  /// Records one key and its value.
  private mutating func scanPair<S: CBORStringRecording>(
    depth: Int, into state: inout ScanState, _ recording: S.Type
  ) throws {
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
        // A key already interned has valid bytes: only a new one is checked.
        id = try state.keys.intern(key, length: count) { () throws(JKCBORError) in
          let bytes = UnsafeRawBufferPointer(start: key, count: count)
          if let bad = UTF8Validation.firstIllFormedOffset(bytes) {
            throw JKCBORError(
              .invalidUTF8, "A text string is not well-formed UTF-8", at: start + bad)
          }
        }
      }
      if S.recordsStrings {
        let bytes = UnsafeBufferPointer(start: key, count: count)
        let flags = Tape.isASCII(bytes) ? TapeEntry.isASCII : 0
        number(TapeEntry(.string, flags: flags, offset: start - 1, payload: UInt64(count)))
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
      id = try referencedKey(head, into: &state, S.self)
    }
    state.tape.append(TapeEntry(.key, offset: head.start, payload: UInt64(id)))
    // Repeats are found among Swift-equal keys, as JSON's are, when the map ends.
    state.keyStack.append(state.keys.canonicalIDs[Int(id)])
    try scanItem(depth: depth + 1, into: &state, S.self)
  }

  /// The id of the map key whose head is `head`, which is not text or an
  /// integer: a string reference to text is that text's key; anything else
  /// is an error. Out of line, so that the keys that are text or integers
  /// run the code they ran before references.
  @inline(never)
  private mutating func referencedKey<S: CBORStringRecording>(
    _ head: CBORReader.Head, into state: inout ScanState, _ recording: S.Type
  ) throws -> UInt32 {
    var string: TapeEntry?
    if head.major == .tag, head.argument == CBORTags.stringReference, !head.isIndefinite {
      string = try referencedString(tagStart: head.start, content: try reader.readHead(), S.self)
    }
    guard let string, string.kind == .string else {
      throw JKCBORError(
        .invalidTagContent,
        "A map key that is not text or an integer cannot be decoded by Codable", at: head.start)
    }
    let key = reader.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + string.offset + 1
    return state.keys.intern(key, length: Int(truncatingIfNeeded: string.payload))
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
  private mutating func scanTagged<S: CBORStringRecording>(
    _ head: CBORReader.Head, depth: Int, into state: inout ScanState, _ recording: S.Type
  ) throws {
    let content = try reader.readHead()
    if let needed = CBORTags.content(of: head.argument), !needed.admits(content) {
      if content.major == .tag, content.argument == CBORTags.stringReference,
        !content.isIndefinite
      {
        return try scanReferencedContent(of: head, needs: needed, content, into: &state, S.self)
      }
      throw CBORTags.wrongContent(
        of: head.argument, found: content.major.description, needs: needed, at: content.start)
    }
    switch head.argument {
    case CBORTags.dateTimeText, CBORTags.uri:
      try scanString(content, flags: 0, into: &state, S.self)
    case CBORTags.epochTime:
      try scanItem(content, depth: depth + 1, into: &state, S.self)
    case CBORTags.positiveBignum, CBORTags.negativeBignum:
      let flag =
        head.argument == CBORTags.positiveBignum
        ? TapeEntry.positiveBignum : TapeEntry.negativeBignum
      try scanString(content, flags: flag, into: &state, S.self)
    case CBORTags.uuid:
      try scanString(content, flags: TapeEntry.uuidBytes, into: &state, S.self)
    case CBORTags.decimalFraction:
      let index = state.tape.count
      let firstElement = reader.position
      try scanArray(
        content, depth: depth + 1, flags: TapeEntry.decimalFraction, into: &state, S.self)
      try checkDecimalFraction(
        at: index, firstElementAt: firstElement, offset: content.start, in: state)
    case CBORTags.selfDescribed:
      try scanItem(content, depth: depth + 1, into: &state, S.self)
    case CBORTags.stringNamespace:
      let contentDepth = try reader.contentDepth(
        of: head, depth: depth, contentIsTag: content.major == .tag)
      namespaces.append(strings.count)
      try scanItem(content, depth: contentDepth, into: &state, CBORNamespacedStrings.self)
      strings.removeSubrange(namespaces.removeLast()...)
    case CBORTags.stringReference:
      state.tape.append(try referencedString(tagStart: head.start, content: content, S.self))
    case CBORTags.shareable:
      try scanShared(head, content, depth: depth, into: &state, S.self)
    case CBORTags.sharedReference:
      try refuseIndefinite(content, "An integer")
      try copyShared(content.argument, referenceStart: head.start, depth: depth, into: &state)
    default:
      guard skipsUnknownTags else {
        throw JKCBORError(
          .unknownTag, "Tag \(head.argument) is not one that Codable values are read from",
          at: head.start)
      }
      try scanItem(content, depth: depth + 1, into: &state, S.self)
    }
  }

  /// Records the content of the tag `head`, which needs `needed`, when it
  /// is a string reference (whose head is `reference`): the string it
  /// refers to, checked as if it were written there.
  private mutating func scanReferencedContent<S: CBORStringRecording>(
    of head: CBORReader.Head, needs needed: CBORTags.Content, _ reference: CBORReader.Head,
    into state: inout ScanState, _ recording: S.Type
  ) throws {
    let string = try referencedString(
      tagStart: reference.start, content: try reader.readHead(), S.self)
    let major: CBORReader.Major = string.kind == .string ? .text : .bytes
    let asWritten = CBORReader.Head(
      major: major, info: 0, argument: string.payload, start: reference.start)
    guard needed.admits(asWritten) else {
      throw CBORTags.wrongContent(
        of: head.argument, found: major.description, needs: needed, at: reference.start)
    }
    let flags: UInt8
    switch head.argument {
    case CBORTags.dateTimeText, CBORTags.uri: flags = 0
    case CBORTags.positiveBignum: flags = TapeEntry.positiveBignum
    case CBORTags.negativeBignum: flags = TapeEntry.negativeBignum
    case CBORTags.uuid: flags = TapeEntry.uuidBytes
    default:
      guard skipsUnknownTags else {
        throw JKCBORError(
          .unknownTag, "Tag \(head.argument) is not one that Codable values are read from",
          at: head.start)
      }
      flags = 0
    }
    state.tape.append(
      TapeEntry(
        string.kind, flags: string.flags | flags, offset: string.offset,
        payload: string.payload))
  }

  // MARK: - Shared values

  /// The most tape entries that shared references may add, given the
  /// `read` entries scanned from the input so far: four for each, and a
  /// little more, so that references to references cannot make the tape
  /// grow exponentially with the input.
  static func copyLimit(read: Int) -> Int { 4 * read + 65_536 }

  /// Records the content of the tag 28 `head`, whose head is `content`, as
  /// the next shared value.
  private mutating func scanShared<S: CBORStringRecording>(
    _ head: CBORReader.Head, _ content: CBORReader.Head, depth: Int,
    into state: inout ScanState, _ recording: S.Type
  ) throws {
    let number = shared.count
    let start = state.tape.count
    shared.append((start, -1, number, 0))
    addRoot(at: start, number: number, isMark: true, in: &state)
    let outer = deepest
    deepest = depth
    try scanItem(
      content,
      depth: try reader.contentDepth(of: head, depth: depth, contentIsTag: content.major == .tag),
      into: &state, S.self)
    shared[number].end = state.tape.count
    shared[number].height = deepest - depth
    deepest = Swift.max(outer, deepest)
  }

  /// Records the shared value `number`, which a tag 29 at `referenceStart`,
  /// `depth` levels down, refers to: as a copy of its entries, or as one
  /// entry that refers to them (see ``Configuration/copiesSharedValues``).
  private mutating func copyShared(
    _ number: UInt64, referenceStart: Int, depth: Int, into state: inout ScanState
  ) throws {
    guard number < UInt64(shared.count) else {
      throw JKCBORError(
        .invalidReference,
        "The shared reference \(number) refers to no value marked before it (tag 28), "
          + "of which there are \(shared.count)", at: referenceStart)
    }
    let (start, end, _, height) = shared[Int(number)]
    // A reference to a value still being read (a cycle) is for a class to
    // read (see `JKCBORCyclicDecodable`), never a copy, and only from inside
    // an array or map of it: a value that is its own reference is nothing.
    guard end >= 0 || (!copiesSharedValues && state.tape.count > start) else {
      throw JKCBORError(
        .invalidReference,
        "The shared reference \(number) refers to a value that contains it", at: referenceStart)
    }
    // What is read here nests as deep as the value does, from here.
    guard depth + height <= configuration.maxDepth else { throw reader.tooDeep(at: referenceStart) }
    deepest = Swift.max(deepest, depth + height)
    // A scalar (or an empty container) is one entry, as cheap to copy as to
    // refer to, and a copy keeps `null` a null for every reader.
    guard copiesSharedValues || end - start == 1 else {
      let index = state.tape.count
      state.tape.append(
        TapeEntry(.sharedReference, offset: referenceStart, payload: UInt64(start)))
      addRoot(at: index, number: identity(of: Int(number)), isMark: false, in: &state)
      return
    }
    let size = end - start
    guard size <= Self.copyLimit(read: state.tape.count - copiedEntries) - copiedEntries else {
      throw JKCBORError(
        .limitExceeded,
        "Shared references repeat more than the limit of "
          + "\(Self.copyLimit(read: state.tape.count - copiedEntries)) items "
          + "(4 for each item read, and 65,536)", at: referenceStart)
    }
    copiedEntries += size
    let copy = state.tape.count
    let shift = UInt64(copy - start)
    let target = state.tape.reserve(size)
    for offset in 0..<size {
      var entry = state.tape.base[start + offset]
      if entry.isContainer { entry.payload += shift }
      target[offset] = entry
    }
    state.tape.count += size
    // The copy's shared values, its own first, are those of the original
    // (whose roots all come before the copy's).
    let count = state.sharedRoots.count
    var root = Self.firstRoot(atOrAfter: start, in: state.sharedRoots)
    if root < count, state.sharedRoots[root].index == start {
      addRoot(at: copy, number: identity(of: Int(number)), isMark: false, in: &state)
      root += 1
    }
    while root < count, state.sharedRoots[root].index < end {
      let inner = state.sharedRoots[root]
      state.sharedRoots.append((inner.index + copy - start, inner.number))
      root += 1
    }
  }

  /// Notes that a class decoded at tape index `index` is shared value
  /// `number`, which a tag 28 marks there (`isMark`) or a reference copied
  /// there. An item that already has a number (a tag 28 still scanned,
  /// around this mark or reference) makes the two numbers one value.
  private mutating func addRoot(
    at index: Int, number: Int, isMark: Bool, in state: inout ScanState
  ) {
    guard let last = state.sharedRoots.last, last.index == index else {
      state.sharedRoots.append((index, number))
      return
    }
    if isMark {
      shared[number].identity = last.number
    } else {
      shared[last.number].identity = number
      state.sharedRoots[state.sharedRoots.count - 1].number = number
    }
  }

  /// The number that stands for shared value `number`'s identity.
  private func identity(of number: Int) -> Int {
    var number = number
    while shared[number].identity != number { number = shared[number].identity }
    return number
  }

  /// Replaces each number in the state's shared roots by the one that
  /// stands for its identity, once the scan is done.
  fileprivate mutating func resolveIdentities(in state: inout ScanState) {
    for root in state.sharedRoots.indices {
      state.sharedRoots[root].number = identity(of: state.sharedRoots[root].number)
    }
  }

  /// The first position in `roots`, sorted by index, whose index is
  /// `index` or more.
  static func firstRoot(atOrAfter index: Int, in roots: [(index: Int, number: Int)]) -> Int {
    var low = 0
    var high = roots.count
    while low < high {
      let middle = (low + high) / 2
      if roots[middle].index < index { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Checks that the array at `index`, whose first element starts at
  /// `firstElement`, is `[exponent, mantissa]`: an integer, then an integer
  /// or a bignum, written there. (The tape records what a tag such as 1 or
  /// 55799 holds, and a shared scalar, as if it were written alone, so the
  /// bytes tell that no tag came first; a bignum's own tag checked its
  /// content.)
  private func checkDecimalFraction(
    at index: Int, firstElementAt firstElement: Int, offset: Int, in state: ScanState
  ) throws {
    let isInteger = { (entry: TapeEntry) in entry.kind == .int || entry.kind == .uint }
    let isBignum = { (entry: TapeEntry) in
      entry.kind == .bytes
        && entry.flags & (TapeEntry.positiveBignum | TapeEntry.negativeBignum) != 0
    }
    let array = state.tape.base[index]
    let exponent = state.tape.base[index + 1]
    let mantissa = index + 2 < state.tape.count ? state.tape.base[index + 2] : exponent
    guard array.childCount == 2, exponent.kind == .int,
      isInteger(mantissa) || isBignum(mantissa),
      reader.bytes[firstElement] >> 5 != 6,
      case let mantissaHead = CBORItemWalker.head(
        at: CBORItemWalker.head(at: firstElement, in: reader.bytes).end, in: reader.bytes),
      mantissaHead.major != 6 || mantissaHead.argument == CBORTags.positiveBignum
        || mantissaHead.argument == CBORTags.negativeBignum
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

/// Whether a scan numbers the strings it reads: not outside string
/// namespaces (tag 256), where there is no table, and inside them. The
/// scan's functions are generic over it, so that input without a namespace
/// runs code with no trace of them.
protocol CBORStringRecording {
  /// Whether definite strings are added to the innermost namespace's table.
  static var recordsStrings: Bool { get }
}

/// Scanning outside any string namespace.
enum CBORPlainStrings: CBORStringRecording {
  static var recordsStrings: Bool { false }
}

/// Scanning inside a string namespace.
enum CBORNamespacedStrings: CBORStringRecording {
  static var recordsStrings: Bool { true }
}
