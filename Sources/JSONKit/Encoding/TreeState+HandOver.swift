/// The hand-over from streaming to tree form: the text streaming wrote
/// becomes the start of the tree, so that encoding carries on from where it
/// was instead of starting again.
///
/// The text is read back once. Each container streaming opened (it knows
/// where each one's text starts) becomes a node, with its members; the
/// containers still open are the ones whose text stops at the end, and the
/// last member of the innermost may still await its value. Scalars stay
/// where they are in the buffer, as ranges: the tree writes them out as
/// they are. Text with no container record (a `JSONValue` written whole)
/// stays text too, but for the `{}` streaming wrote for a member that got
/// no value (its `placeholderStarts`): that member awaits its value still.
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
    let placeholders = Set(streaming.placeholderStarts)

    var text = WrittenText()
    writer.withBytes { text = WrittenText(bytes: $0) }
    var open: [Int] = []
    var target = (node: 0, member: 0)
    var expectingValue = true
    while true {
      text.skipWhitespace()
      if expectingValue {
        guard let byte = text.peek() else { break }
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["),
          let serial = containerAtStart[text.position]
        {
          let record = streaming.containers[serial]
          nodes.append(Node(isObject: record.isObject, isNested: record.isNested, parent: target))
          let node = nodes.count - 1
          nodes[node].container = serial
          nodeOfContainer[serial] = node
          setValue(.node(node), of: target)
          if let key = streaming.memberKey(ofContainer: serial) {
            nodes[target.node].members[target.member].codingKey = key
          }
          text.position += 1
          open.append(node)
        } else {
          let range = text.skipValue()
          // The `{}` streaming wrote for a member that got no value: the
          // value may still come. An empty object a value wrote is a value.
          let isPlaceholder = placeholders.contains(range.lowerBound)
          setValue(isPlaceholder ? .pending : .scalar(range), of: target)
        }
        expectingValue = false
        continue
      }
      guard let node = open.last, let byte = text.peek() else { break }
      if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        text.position += 1
        open.removeLast()
        continue
      }
      if byte == UInt8(ascii: ",") {
        text.position += 1
        text.skipWhitespace()
      }
      var name: String?
      if nodes[node].isObject {
        name = text.readString()
        text.skipWhitespace()
        text.position += 1  // the colon
      }
      let member = addMember(to: node, key: nil, name: name, keepingValue: false)
      nodes[node].memberOfSlot.append(member)
      target = (node, member)
      expectingValue = true
    }

    for (serial, record) in streaming.containers.enumerated() where record.reordering >= 0 {
      guard let node = nodeOfContainer[serial] else { continue }
      let inTextOrder = nodes[node].memberOfSlot
      let count = streaming.reorderedPositions[record.reordering]
      let positions = streaming.reorderedPositions[(record.reordering + 1)...].prefix(count)
      nodes[node].memberOfSlot = positions.map { inTextOrder[$0] }
    }
    for (index, frame) in streaming.frames.enumerated().dropFirst() {
      guard let node = nodeOfContainer[frame.serial] else { continue }
      // An element begun but not written yet leaves no text.
      while nodes[node].memberOfSlot.count < frame.count {
        nodes[node].members.append(Member(key: nil, codingKey: nil, value: .pending))
        nodes[node].memberOfSlot.append(nodes[node].members.count - 1)
      }
      if frame.isObject, frame.count > 0, let key = streaming.storedKey(ofFrame: index) {
        nodes[node].members[nodes[node].memberOfSlot[frame.count - 1]].codingKey = key
      }
    }
    for (slot, key) in streaming.superEncoderKeys {
      guard let node = nodeOfContainer[slot.container],
        slot.member < nodes[node].memberOfSlot.count
      else { continue }
      nodes[node].members[nodes[node].memberOfSlot[slot.member]].codingKey = key
    }
    for slot in streaming.superEncoderSlots {
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
}

extension TreeState {
  /// Makes the object or array whose text is at `range` a node in `place`,
  /// its members staying text; nil when the text is not a container of
  /// that kind.
  func expand(
    _ range: Range<Int>, isObject: Bool, isNested: Bool, into place: (node: Int, member: Int)
  ) -> Int? {
    var text = WrittenText()
    writer.withBytes { text = WrittenText(bytes: $0) }
    text.position = range.lowerBound
    guard text.peek() == (isObject ? UInt8(ascii: "{") : UInt8(ascii: "[")) else { return nil }
    nodes.append(Node(isObject: isObject, isNested: isNested, parent: place))
    let node = nodes.count - 1
    setValue(.node(node), of: place)
    text.position += 1
    while true {
      text.skipWhitespace()
      guard let byte = text.peek(), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]") else {
        break
      }
      if byte == UInt8(ascii: ",") {
        text.position += 1
        text.skipWhitespace()
      }
      var name: String?
      if isObject {
        name = text.readString()
        text.skipWhitespace()
        text.position += 1  // the colon
        text.skipWhitespace()
      }
      let member = addMember(to: node, key: nil, name: name, keepingValue: false)
      setValue(.scalar(text.skipValue()), of: (node, member))
    }
    nodes[node].replaced = nil
    return node
  }
}

/// JSON text that JSONKit wrote, read back: it is known to be well formed,
/// with only spaces and line breaks between tokens.
private struct WrittenText {
  var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
  var position = 0

  func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  mutating func skipWhitespace() {
    while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == 10 {
      position += 1
    }
  }

  /// Steps over one whole value; returns where its text is.
  mutating func skipValue() -> Range<Int> {
    let start = position
    var depth = 0
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        skipString()
        if depth == 0 { return start..<position }
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return start..<position }
        depth -= 1
        if depth == 0 {
          position += 1
          return start..<position
        }
      case UInt8(ascii: ","), UInt8(ascii: " "), 10:
        if depth == 0 { return start..<position }
      default:
        break
      }
      position += 1
    }
    return start..<position
  }

  /// Steps over a string, quotes included.
  private mutating func skipString() {
    position += 1
    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
      position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
    }
    position += 1
  }

  /// Reads a string, undoing the escapes JSONKit writes.
  mutating func readString() -> String {
    var scalars = String.UnicodeScalarView()
    var utf8: [UInt8] = []
    position += 1
    func flush() {
      scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
      utf8.removeAll(keepingCapacity: true)
    }
    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        position += 1
        continue
      }
      let escaped = bytes[position + 1]
      position += 2
      switch escaped {
      case UInt8(ascii: "b"): utf8.append(8)
      case UInt8(ascii: "f"): utf8.append(12)
      case UInt8(ascii: "n"): utf8.append(10)
      case UInt8(ascii: "r"): utf8.append(13)
      case UInt8(ascii: "t"): utf8.append(9)
      case UInt8(ascii: "u"):
        var unit = readHex()
        if (0xD800..<0xDC00).contains(unit), position + 1 < bytes.count,
          bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
        {
          position += 2
          let low = readHex()
          unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        flush()
        scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
      default: utf8.append(escaped)
      }
    }
    position += 1
    flush()
    return String(scalars)
  }

  private mutating func readHex() -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      position += 1
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: digit = byte - UInt8(ascii: "A") + 10
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
