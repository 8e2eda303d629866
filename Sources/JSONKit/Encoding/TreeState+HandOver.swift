/// The hand-over from streaming to tree form: the text streaming wrote
/// becomes the start of the tree, so that encoding carries on from where it
/// was instead of starting again.
///
/// The text is read back once, by JSONKit's scanner: the containers still
/// open are closed after it until it is read (the last member of the
/// innermost may still await its value, which a `null` stands in for),
/// and it is scanned onto a tape. Each container streaming opened (it knows where
/// each one's text starts) becomes a node, with its members; scalars stay
/// where they are in the buffer, as ranges, and the tree writes them out
/// as they are. Text with no container record (a `JSONValue` written
/// whole) stays text too, but for the `{}` streaming wrote for a member
/// that got no value (its `log.placeholderStarts`): that member awaits its
/// value still.
extension TreeState {
  /// A tree holding what `streaming` wrote, which it takes; it reports
  /// conflicts into the session's `conflict`.
  static func takingOver(
    _ streaming: inout StreamingState, formatting: JKOutputFormatting,
    conflict: UnsafeMutablePointer<EncodingSession.Conflict?>
  ) -> TreeState {
    let tree = TreeState(
      writer: streaming.takeWriter(), formatting: formatting,
      nextContainer: streaming.containers.count, conflict: conflict)
    tree.read(streaming)
    streaming.stop()
    return tree
  }

  private func read(_ streaming: borrowing StreamingState) {
    var containerAtStart: [Int: Int] = [:]
    for (serial, record) in streaming.containers.enumerated() where serial > 0 {
      if record.start >= 0 {
        containerAtStart[record.start] = serial
      } else {
        droppedContainers[serial] = record.isObject
      }
    }
    nodes.append(Node(isObject: false, isNested: false, parent: nil))
    nodes[0].members.append(Member(key: nil, codingKey: nil, value: .pending))
    nodes[0].memberOfSlot.append(0)
    nodes[0].container = 0
    nodeOfContainer[0] = 0
    let placeholders = Set(streaming.log.placeholderStarts)

    // With nothing written, the root awaits its value.
    if writer.count > 0 {
      readText(streaming, containerAtStart: containerAtStart, placeholders: placeholders)
    }

    for (serial, record) in streaming.containers.enumerated() where record.reordering >= 0 {
      guard let node = nodeOfContainer[serial] else { continue }
      let inTextOrder = nodes[node].memberOfSlot
      let count = streaming.log.reorderedPositions[record.reordering]
      let positions = streaming.log.reorderedPositions[(record.reordering + 1)...].prefix(count)
      nodes[node].memberOfSlot = positions.map { inTextOrder[$0] }
    }
    for (index, frame) in streaming.frames.elements.enumerated().dropFirst() {
      guard let node = nodeOfContainer[frame.serial] else { continue }
      // An array's first element, begun but not written yet, leaves no text.
      while nodes[node].memberOfSlot.count < frame.count {
        nodes[node].members.append(Member(key: nil, codingKey: nil, value: .pending))
        nodes[node].memberOfSlot.append(nodes[node].members.count - 1)
      }
      if frame.isObject, frame.count > 0, let key = streaming.storedKey(ofFrame: index) {
        nodes[node].members[nodes[node].memberOfSlot[frame.count - 1]].codingKey = key
      }
    }
    for (slot, key) in streaming.log.superEncoderKeys {
      guard let node = nodeOfContainer[slot.container],
        slot.member < nodes[node].memberOfSlot.count
      else { continue }
      nodes[node].members[nodes[node].memberOfSlot[slot.member]].codingKey = key
    }
    // By container and member, so that which conflict is reported does
    // not depend on the order of a set.
    let superEncoderSlots = streaming.log.superEncoderSlots.sorted {
      ($0.container, $0.member) < ($1.container, $1.member)
    }
    for slot in superEncoderSlots {
      guard let node = nodeOfContainer[slot.container],
        slot.member < nodes[node].memberOfSlot.count
      else { continue }
      let member = nodes[node].memberOfSlot[slot.member]
      nodes[node].members[member].hasSuperEncoder = true
      // A later member of the object with the same key, still open, shares
      // the member.
      if let name = nodes[node].members[member].key,
        nodes[node].memberOfSlot[(slot.member + 1)...].contains(member)
      {
        noteSuperEncoderKeyBegunAgain(name, in: node)
      }
    }
  }

  /// Reads the text streaming wrote into nodes, members and ranges.
  private func readText(
    _ streaming: borrowing StreamingState, containerAtStart: [Int: Int], placeholders: Set<Int>
  ) {
    let (written, awaitedValue) = closeText(openFrames: streaming.frames.elements.dropFirst())
    // The closing text goes again once the text is read.
    defer { writer.truncate(to: written) }
    let read: Void? = writer.withBytes { text in
      WrittenTape.read(text) { tape, text in
        // The value at `index`, whose text ends at `end`, in `place`; a
        // container that streaming opened becomes a node, whose members
        // the cursor it returns steps through.
        func take(_ index: Int, end: Int, into place: (node: Int, member: Int))
          -> (node: Int, members: WrittenTape.Members)?
        {
          let entry = tape[index]
          let start = entry.offset
          if start == awaitedValue {
            setValue(.pending, of: place)
            return nil
          }
          guard entry.isContainer, let serial = containerAtStart[start] else {
            // The `{}` streaming wrote for a member that got no value: the
            // value may still come. An empty object a value wrote is a value.
            setValue(placeholders.contains(start) ? .pending : .scalar(start..<end), of: place)
            return nil
          }
          let record = streaming.containers[serial]
          nodes.append(Node(isObject: record.isObject, isNested: record.isNested, parent: place))
          let node = nodes.count - 1
          nodes[node].container = serial
          nodeOfContainer[serial] = node
          setValue(.node(node), of: place)
          if let key = streaming.memberKey(ofContainer: serial) {
            nodes[place.node].members[place.member].codingKey = key
          }
          return (node, WrittenTape.Members(of: index, in: tape, endingAt: end))
        }
        // Depth first, in the order of the text, with a stack of the open
        // nodes rather than recursion: the text may be nested deeply.
        var open: [(node: Int, members: WrittenTape.Members)] = []
        if let root = take(
          0, end: WrittenTape.end(ofTextBefore: text.count, in: text), into: (0, 0))
        {
          open.append(root)
        }
        while var top = open.popLast() {
          guard let next = top.members.next(in: tape, text: text) else { continue }
          let member = addMember(to: top.node, key: nil, name: next.name, keepingValue: false)
          nodes[top.node].memberOfSlot.append(member)
          open.append(top)
          if let inner = take(next.value, end: next.end, into: (top.node, member)) {
            open.append(inner)
          }
        }
      }
    }
    if read == nil {
      // Not expected: the scanner reads all JSONKit writes, in the mode
      // `WrittenTape.read` sets. The tree then holds nothing of the text.
      noteUnreadableText(keyError: streaming.unreadableKeyError)
    }
  }
}

extension TreeState {
  /// Closes the containers in `openFrames` (outermost first) after the
  /// text written, which the caller takes off again once it is read;
  /// returns how long the text was, and where a `null` written here stands
  /// for the value the innermost one's last member awaits (-1 when none
  /// does).
  ///
  /// A member begun and not yet written has left its separator: an
  /// object's key and colon, or an array's comma (the `null` follows
  /// either), or nothing when it is an array's first.
  private func closeText(openFrames: ArraySlice<StreamingState.Frame>) -> (
    written: Int, awaitedValue: Int
  ) {
    let written = writer.count
    let last: UInt8? = writer.withBytes { text in
      let end = WrittenTape.end(ofTextBefore: text.count, in: text)
      return end > 0 ? text[end - 1] : nil
    }
    var awaitedValue = -1
    if !openFrames.isEmpty, last == UInt8(ascii: ":") || last == UInt8(ascii: ",") {
      awaitedValue = writer.count
      writer.append("null")
    }
    for frame in openFrames.reversed() {
      writer.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
    return (written, awaitedValue)
  }

  /// Makes the object or array whose text is at `range` a node in `place`,
  /// its members staying text; nil when the text is not a container of
  /// that kind.
  func expand(
    _ range: Range<Int>, isObject: Bool, isNested: Bool, into place: (node: Int, member: Int)
  ) -> Int? {
    var members: [(name: String?, range: Range<Int>)] = []
    let read: Bool? = writer.withBytes { bytes in
      WrittenTape.read(UnsafeRawBufferPointer(rebasing: bytes[range])) { tape, text in
        guard tape[0].kind == (isObject ? .object : .array) else { return false }
        var cursor = WrittenTape.Members(of: 0, in: tape, endingAt: text.count)
        while let next = cursor.next(in: tape, text: text) {
          let start = tape[next.value].offset
          members.append((next.name, range.lowerBound + start..<range.lowerBound + next.end))
        }
        return true
      }
    }
    guard read == true else { return nil }
    nodes.append(Node(isObject: isObject, isNested: isNested, parent: place))
    let node = nodes.count - 1
    setValue(.node(node), of: place)
    for (name, range) in members {
      let member = addMember(to: node, key: nil, name: name, keepingValue: false)
      setValue(.scalar(range), of: (node, member))
    }
    nodes[node].replaced = nil
    return node
  }
}

/// Text that JSONKit wrote, read back by its scanner: well formed, with
/// only spaces and line breaks between tokens, so that where each value's
/// text ends follows from where the next token starts.
enum WrittenTape {
  /// Calls `body` with the tape of `text` and `text`; nil if the scanner
  /// refuses the text (see ``TreeState/noteUnreadableText(keyError:)``).
  static func read<Result>(
    _ text: UnsafeRawBufferPointer, _ body: (Tape, UnsafeRawBufferPointer) -> Result
  ) -> Result? {
    // Any depth: the encoder's own limit is checked as it writes. Integers
    // of any length: `Int128`, `UInt128` and `Decimal` are written whole.
    // JSON5, for the `NaN` that `Decimal.nan` is written as (as Foundation
    // writes it); the rest of the text is JSON, which that mode reads alike.
    // Loose Unicode, for a string holding U+0000 or a noncharacter: a key
    // (whose error makes `encode` throw), or a value whose encoding failed
    // on it after its text was written, which streaming could not take out
    // from between members; the tree leaves that member out. The ranges of
    // values are the text as written, whatever the tape holds.
    var configuration = ScanConfiguration()
    configuration.options = [.json5, .looseUnicode]
    configuration.maxDepth = .max
    configuration.allowsBigIntegers = true
    return try? InputText(utf8: text).withTape(
      configuration: configuration, pool: ScanContextPool.shared
    ) { tape in body(tape, text) }
  }

  /// Where the text before `position` ends, white space left out.
  static func end(ofTextBefore position: Int, in text: UnsafeRawBufferPointer) -> Int {
    var end = position
    while end > 0, LexicalRules.isJSONWhitespace(text[end - 1]) { end -= 1 }
    return end
  }

  /// The members (or elements) of a container on the tape, in order, each
  /// with its key and where its value's text ends.
  struct Members {
    private var index: Int
    private let endIndex: Int
    private let isObject: Bool
    /// Where the container's text ends, after its closing bracket.
    private let textEnd: Int

    /// The members of the container at `index` on `tape`, whose text ends
    /// at `end`.
    init(of index: Int, in tape: Tape, endingAt end: Int) {
      let entry = tape[index]
      self.index = index + 1
      endIndex = entry.containerEnd
      isObject = entry.kind == .object
      textEnd = end
    }

    /// The next member's key (nil in an array), its value's index on the
    /// tape and where the value's text ends; nil after the last.
    mutating func next(in tape: Tape, text: UnsafeRawBufferPointer) -> (
      name: String?, value: Int, end: Int
    )? {
      guard index < endIndex else { return nil }
      var name: String?
      var value = index
      if isObject {
        name = tape.key(tape[index])
        value += 1
      }
      index = tape.indexAfter(value)
      guard index < endIndex else {
        // The last one ends before the closing bracket.
        return (name, value, WrittenTape.end(ofTextBefore: textEnd - 1, in: text))
      }
      // Any other ends before the comma ahead of the next one.
      var end = WrittenTape.end(ofTextBefore: tape[index].offset, in: text)
      if end > 0, text[end - 1] == UInt8(ascii: ",") { end -= 1 }
      return (name, value, end)
    }
  }
}
