import Foundation

/// A map key in ``CBOREncodingTree``: text, or an integer (a dictionary's).
enum CBORTreeKey: Hashable {
  case text(String)
  case unsigned(UInt64)
  /// −1 − n.
  case negative(UInt64)

  init(_ integer: Int64) {
    self = integer >= 0 ? .unsigned(UInt64(integer)) : .negative(UInt64(bitPattern: -1 - integer))
  }

  /// The key written at `offset` in `bytes`, and where it ends.
  init(readingAt offset: Int, in bytes: UnsafeRawBufferPointer) {
    let head = CBORItemWalker.head(at: offset, in: bytes)
    switch head.major {
    case 0: self = .unsigned(head.argument)
    case 1: self = .negative(head.argument)
    default:
      let text = UnsafeRawBufferPointer(rebasing: bytes[head.end..<head.end + Int(head.argument)])
      self = .text(String(decoding: text, as: UTF8.self))
    }
  }

  /// The key as a coding key, for coding paths.
  var codingKey: any CodingKey {
    switch self {
    case .text(let text): AnyCodingKey(stringValue: text)
    case .unsigned(let value): CBORIntegerCodingKey(Int(truncatingIfNeeded: value))
    case .negative(let value): CBORIntegerCodingKey(-1 - Int(truncatingIfNeeded: value))
    }
  }

  func write(to writer: inout ByteWriter) {
    switch self {
    case .text(let text): writer.appendCBORText(text)
    case .unsigned(let value): writer.appendCBORHead(major: 0, value)
    case .negative(let value): writer.appendCBORHead(major: 1, value)
    }
  }
}

/// The coding key of a dictionary's integer key.
struct CBORIntegerCodingKey: CodingKey {
  let intValue: Int?
  var stringValue: String { String(intValue ?? 0) }

  init(_ value: Int) { intValue = value }
  init?(stringValue: String) { nil }
  init(intValue: Int) { self.intValue = intValue }
}

/// What a member of a tree node holds.
enum CBORTreeValue {
  /// Nothing yet: written as an empty map if nothing comes.
  case pending
  /// A value that failed: left out.
  case discarded
  /// A whole item, at these bytes of the session's writer.
  case item(Range<Int>)
  /// An array or map still being written.
  case node(Int)
}

/// The output in tree form, from the first write that streaming could not
/// honour: one node per array or map that may still be written into, whose
/// other members are whole items left where they were written.
///
/// Containers keep their numbers and members their slots: a node has the
/// members in output order and, per slot number, the member the slot
/// writes (two slots share a member when a map's key is begun twice).
/// A closed container written while streaming becomes a node only when
/// it is written into again, read back from its bytes.
final class CBOREncodingTree {
  struct Member {
    var key: CBORTreeKey?
    /// The key as the encoder was given it, when its written name does
    /// not tell it (under a key strategy).
    var codingKey: (any CodingKey)?
    var value: CBORTreeValue
    /// What a key begun again replaced, restored if its new value fails.
    var replaced: CBORTreeValue?
  }

  struct Node {
    var isMap: Bool
    var isNested = false
    var members: [Member] = []
    var memberOfSlot: [Int] = []
    /// The node and member holding this one; -1 for the top and for a
    /// node outside the output.
    var parent = -1
    var parentMember = 0
    /// The members by key, made once a map is large.
    var keyIndex: [CBORTreeKey: Int]?
    /// How many members are left out, their values having failed.
    var discardedCount = 0
  }

  unowned let session: CBOREncodingSession
  private(set) var nodes: [Node] = []
  private var nodeOfContainer: [Int: Int] = [:]

  /// Reads what `session` has streamed: a node for each open frame, whose
  /// members are the items written in it.
  init(readingFramesOf session: CBOREncodingSession) {
    self.session = session
    let frameCount = session.frameCount
    for index in 0..<frameCount {
      let frame = session.frames[index]
      nodes.append(Node(isMap: frame.isMap, isNested: frame.isNested))
      nodeOfContainer[frame.serial] = index
    }
    session.writer.withBytes { bytes in
      for index in 0..<frameCount {
        let frame = session.frames[index]
        var position = index == 0 ? session.prefixCount : frame.start + 1
        let end = index + 1 < frameCount ? session.frames[index + 1].start : bytes.count
        for member in 0..<frame.count {
          var key: CBORTreeKey?
          if frame.isMap {
            key = CBORTreeKey(readingAt: position, in: bytes)
            position = CBORItemWalker.end(ofItemAt: position, in: bytes)
          }
          let value: CBORTreeValue
          if position < end {
            let itemEnd = CBORItemWalker.end(ofItemAt: position, in: bytes)
            let slot = CBORSlot(container: frame.serial, member: member)
            value = session.placeholders.contains(slot) ? .pending : .item(position..<itemEnd)
            position = itemEnd
          } else if index + 1 < frameCount {
            value = .node(index + 1)
            nodes[index + 1].parent = index
            nodes[index + 1].parentMember = member
          } else {
            value = .pending
          }
          var codingKey: (any CodingKey)?
          if member == frame.count - 1, frame.hasStoredKey, index < session.frameKeys.count {
            codingKey = session.frameKeys[index]
          }
          append(Member(key: key, codingKey: codingKey, value: value), to: index)
        }
      }
    }
  }

  private func append(_ member: Member, to node: Int) {
    nodes[node].members.append(member)
    let position = nodes[node].members.count - 1
    nodes[node].memberOfSlot.append(position)
    if let key = member.key {
      if nodes[node].keyIndex != nil {
        nodes[node].keyIndex?[key] = position
      } else if position >= 32 {
        var index: [CBORTreeKey: Int] = [:]
        for (offset, each) in nodes[node].members.enumerated() {
          if let key = each.key, !each.isDiscarded, index[key] == nil { index[key] = offset }
        }
        nodes[node].keyIndex = index
      }
    }
  }

  /// The node of `container`, read back from its bytes if it was closed.
  func node(of container: Int) -> Int {
    if let node = nodeOfContainer[container] { return node }
    let parentSlot = session.containers[container].parent
    let (parent, position) = place(of: parentSlot)
    let node: Int
    switch nodes[parent].members[position].value {
    case .node(let existing):
      node = existing
    case .item(let range):
      node = expand(range, container: container)
      if nodes[parent].members[position].codingKey == nil {
        nodes[parent].members[position].codingKey = session.containerKeys[container]
      }
      nodes[node].isNested = session.containers[container].isNested
      nodes[node].parent = parent
      nodes[node].parentMember = position
      nodes[parent].members[position].value = .node(node)
    default:
      node = nodes.count
      nodes.append(Node(isMap: true))
    }
    nodeOfContainer[container] = node
    return node
  }

  /// The node and member that `slot` writes.
  func place(of slot: CBORSlot) -> (node: Int, member: Int) {
    let node = node(of: slot.container)
    return (node, nodes[node].memberOfSlot[slot.member])
  }

  /// A new node holding the members of the array or map at `range`.
  private func expand(_ range: Range<Int>, container: Int) -> Int {
    let node = nodes.count
    session.writer.withBytes { bytes in
      let head = CBORItemWalker.head(at: range.lowerBound, in: bytes)
      nodes.append(Node(isMap: head.major == 5))
      var position = head.end
      for member in 0..<Int(head.argument) {
        var key: CBORTreeKey?
        if head.major == 5 {
          key = CBORTreeKey(readingAt: position, in: bytes)
          position = CBORItemWalker.end(ofItemAt: position, in: bytes)
        }
        let end = CBORItemWalker.end(ofItemAt: position, in: bytes)
        let slot = CBORSlot(container: container, member: member)
        let value: CBORTreeValue =
          session.placeholders.contains(slot) ? .pending : .item(position..<end)
        append(Member(key: key, value: value), to: node)
        position = end
      }
    }
    return node
  }

  /// The position of the member under `key` in `node`, if any.
  private func position(of key: CBORTreeKey, in node: Int) -> Int? {
    if let index = nodes[node].keyIndex { return index[key] }
    return nodes[node].members.firstIndex { $0.key == key && !$0.isDiscarded }
  }

  // MARK: - Writing

  /// Begins a member (an element when `key` is nil) of `container`; a key
  /// begun before shares that member, whose value the new one replaces,
  /// or, with `keepingValue`, keeps for a nested container to share.
  func beginMember(
    of container: Int, key: CBORTreeKey?, codingKey: (any CodingKey)?, keepingValue: Bool
  ) -> CBORSlot {
    let node = node(of: container)
    if let key, let existing = position(of: key, in: node) {
      if !keepingValue {
        nodes[node].members[existing].replaced = nodes[node].members[existing].value
        nodes[node].members[existing].value = .pending
      }
      if let codingKey { nodes[node].members[existing].codingKey = codingKey }
      nodes[node].memberOfSlot.append(existing)
    } else {
      append(Member(key: key, codingKey: codingKey, value: .pending), to: node)
    }
    return CBORSlot(container: container, member: nodes[node].memberOfSlot.count - 1)
  }

  /// Writes one whole item into `slot`; a slot that holds a value already
  /// is a conflict.
  func writeItem(
    into slot: CBORSlot, _ write: (inout ByteWriter) -> Void
  ) {
    let (node, member) = place(of: slot)
    guard case .pending = nodes[node].members[member].value else {
      session.noteConflict(
        at: codingPath(of: slot),
        "Attempt to encode a value where a value or container was already encoded.")
      return
    }
    let start = session.writer.count
    write(&session.writer)
    nodes[node].members[member].value = .item(start..<session.writer.count)
  }

  /// Opens an array or map in `slot`: new when nothing is there, shared
  /// with one of the same kind that is; anything else is a conflict, and
  /// the container then writes outside the output.
  func openContainer(in slot: CBORSlot, isMap: Bool, isNested: Bool) -> Int {
    let (parent, member) = place(of: slot)
    let container = session.containers.count
    session.containers.append(CBORContainerRecord(parent: slot, isNested: isNested))
    var node = -1
    switch nodes[parent].members[member].value {
    case .pending:
      node = nodes.count
      nodes.append(Node(isMap: isMap, isNested: isNested, parent: parent, parentMember: member))
    case .node(let existing) where nodes[existing].isMap == isMap:
      node = existing
    case .item(let range) where kind(of: range) == (isMap ? 5 : 4):
      node = expand(range, container: container)
      nodes[node].isNested = isNested
      nodes[node].parent = parent
      nodes[node].parentMember = member
    default:
      session.noteConflict(
        at: codingPath(of: slot),
        "Attempt to encode a container where a value or another kind of container was "
          + "already encoded.")
      nodes.append(Node(isMap: isMap))
      nodeOfContainer[container] = nodes.count - 1
      return container
    }
    nodes[parent].members[member].value = .node(node)
    nodeOfContainer[container] = node
    if depth(ofNode: node) > session.maxDepth { session.isTooDeep = true }
    return container
  }

  private func kind(of range: Range<Int>) -> UInt8 {
    session.writer.withBytes { CBORItemWalker.head(at: range.lowerBound, in: $0).major }
  }

  /// Takes out the value of `slot`, which failed: back to what a key begun
  /// again replaced, else left out (or, `keepingSlot`, left to be written).
  func discard(_ slot: CBORSlot, keepingSlot: Bool) {
    let (node, member) = place(of: slot)
    if let replaced = nodes[node].members[member].replaced {
      nodes[node].members[member].value = replaced
      nodes[node].members[member].replaced = nil
    } else if keepingSlot {
      nodes[node].members[member].value = .pending
    } else {
      // Left out, keeping its place, so that an encoder the failed value
      // kept still names it (and no later member); the index of a later
      // element and the count leave it out, as Foundation adds a member
      // only once its value is encoded.
      if !nodes[node].members[member].isDiscarded { nodes[node].discardedCount += 1 }
      nodes[node].members[member].value = .discarded
      if let key = nodes[node].members[member].key, nodes[node].keyIndex?[key] == member {
        nodes[node].keyIndex?[key] = nil
      }
    }
  }

  func isUnwritten(_ slot: CBORSlot) -> Bool {
    let (node, member) = place(of: slot)
    if case .pending = nodes[node].members[member].value { return true }
    return false
  }

  /// The number of members (elements) of `container` that are kept.
  func count(of container: Int) -> Int {
    let node = node(of: container)
    return nodes[node].members.count - nodes[node].discardedCount
  }

  var hasTopLevelValue: Bool {
    if case .pending = nodes[0].members[0].value { return false }
    return true
  }

  // MARK: - Coding paths and depth

  func codingPath(ofContainer container: Int) -> [any CodingKey] {
    session.pathPrefix + containerPath(node(of: container))
  }

  func codingPath(of slot: CBORSlot) -> [any CodingKey] {
    let (node, member) = place(of: slot)
    return session.pathPrefix + valuePath(key: key(of: member, in: node), in: node)
  }

  private func key(of member: Int, in node: Int) -> any CodingKey {
    let held = nodes[node].members[member]
    if let codingKey = held.codingKey { return codingKey }
    if let key = held.key { return key.codingKey }
    guard nodes[node].discardedCount > 0 else { return AnyCodingKey(intValue: member) }
    // An element's index counts only the elements kept.
    let discarded = nodes[node].members[..<member].reduce(0) { $0 + ($1.isDiscarded ? 1 : 0) }
    return AnyCodingKey(intValue: member - discarded)
  }

  func depth(ofContainer container: Int) -> Int {
    depth(ofNode: node(of: container))
  }

  private func depth(ofNode node: Int) -> Int {
    var depth = 0
    var node = node
    while node > 0 {
      depth += 1
      node = nodes[node].parent
      if node < 0 { return depth }
    }
    return depth
  }

  // MARK: - Output

  /// Writes the output: the prefix, then the top-level value.
  func write(into output: inout ByteWriter) {
    session.writer.withBytes { bytes in
      output.append(bytes.baseAddress!, count: session.prefixCount)
      write(nodes[0].members[0].value, into: &output, from: bytes)
    }
  }

  private func write(
    _ value: CBORTreeValue, into output: inout ByteWriter, from bytes: UnsafeRawBufferPointer
  ) {
    switch value {
    case .pending:
      output.append(0xA0)
    case .discarded:
      break
    case .item(let range):
      output.append(bytes.baseAddress! + range.lowerBound, count: range.count)
    case .node(let node):
      let members = nodes[node].members
      let count = members.reduce(0) { $0 + ($1.isDiscarded ? 0 : 1) }
      output.appendCBORHead(major: nodes[node].isMap ? 5 : 4, UInt64(count))
      for member in members where !member.isDiscarded {
        member.key?.write(to: &output)
        write(member.value, into: &output, from: bytes)
      }
    }
  }
}

extension CBOREncodingTree.Member {
  var isDiscarded: Bool {
    if case .discarded = value { return true }
    return false
  }
}

/// The paths of the tree's nodes (see ``EncoderCodingPaths``); the root's
/// node, and a node outside the tree, have no parent.
extension CBOREncodingTree: EncoderCodingPaths {
  func pathParent(of node: Int) -> Int? { nodes[node].parent >= 0 ? nodes[node].parent : nil }
  func pathIsNested(_ node: Int) -> Bool { nodes[node].isNested }
  func pathKey(of node: Int) -> any CodingKey {
    key(of: nodes[node].parentMember, in: nodes[node].parent)
  }
}
