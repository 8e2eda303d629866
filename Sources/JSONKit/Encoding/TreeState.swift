/// The state of an ``EncodingSession`` after streaming met a write it could
/// not honour: every container is a node, every scalar a range of text,
/// and the whole tree is written when encoding ends.
///
/// A tree starts from what streaming wrote (see `TreeState+HandOver.swift`)
/// and carries on from there, so each value's `encode(to:)` runs once.
///
/// It also holds Codable's rules for two writes into one place: a nested
/// container asked for again under the same key, or an encoder's container
/// asked for twice, shares the object or array already there, as in
/// Foundation; a container of the other kind, or a single value, where a
/// value already is, is a conflict that makes `encode` throw.
final class TreeState {
  enum Value {
    case pending
    case scalar(Range<Int>)
    case node(Int)
    /// A member whose value failed to encode, after which other members
    /// were begun: it is left out of the output.
    case discarded
  }

  struct Member {
    var key: String?
    /// The coding key as the caller gave it, when known.
    var codingKey: (any CodingKey)?
    var value: Value
    /// Whether a super encoder was asked for the member: its key may not be
    /// begun again (see `EncodingSession.Conflict.superEncoderKeyBegunAgain`).
    var hasSuperEncoder = false
  }

  struct Node {
    let isObject: Bool
    var isNested: Bool
    /// The node and member this node is the value of; nil for the root's
    /// pseudo-container and for a container left out of the output.
    var parent: (node: Int, member: Int)?
    /// For a node outside the tree that was asked for in a member's place
    /// (through the encoder a failed value kept, or in conflict with the
    /// value there), that member: its coding path is the one it would have
    /// had, though its writes are left out.
    var pathPlace: (node: Int, member: Int)?
    /// Its container number, once a container was asked for it.
    var container: Int?
    var members: [Member] = []
    /// The member of each slot begun in the node, in the order they were
    /// begun (two slots for one key share a member).
    var memberOfSlot: [Int] = []
    /// Each key's member, once an object is wide enough that searching its
    /// members for every key would be slow.
    var memberOfKey: [String: Int]?
    /// The members whose value is `.discarded`.
    var discardedCount = 0
    /// The member whose value was last replaced by a new one for the same
    /// key, with what it held: if the new value fails, the old one stays.
    var replaced: (member: Int, value: Value, codingKey: (any CodingKey)?)?

    init(isObject: Bool, isNested: Bool, parent: (node: Int, member: Int)?) {
      self.isObject = isObject
      self.isNested = isNested
      self.parent = parent
    }
  }

  /// The text of every scalar, and of what streaming wrote before.
  var writer: ByteWriter
  let formatting: JKOutputFormatting
  var nodes: [Node] = []
  /// The node of each container number.
  var nodeOfContainer: [Int: Int] = [:]
  /// The kind of each container whose text streaming took out: writes into
  /// it go into a node left out of the output, as Foundation's do.
  var droppedContainers: [Int: Bool] = [:]
  var nextContainer: Int
  /// Where the session keeps the first conflict met; `encode` throws it.
  private let conflict: UnsafeMutablePointer<EncodingSession.Conflict?>
  /// Whether ``finish(maxDepth:)`` wrote a container nested deeper than
  /// its limit.
  private(set) var isTooDeep = false
  /// The error for the first object key holding a scalar JSONKit's reader
  /// rejects, found as the tree is written.
  private(set) var unreadableKeyError: EncodingError?
  /// The slots whose members `discardMember(_:)` took out: an encoder kept
  /// by the failed value writes nowhere through them.
  private var deadSlots: Set<EncodingSlot> = []
  private var maxDepth = Int.max

  /// The member count from which an object node indexes its keys.
  private static let keyIndexThreshold = 16

  init(
    writer: consuming ByteWriter, formatting: JKOutputFormatting, nextContainer: Int,
    conflict: UnsafeMutablePointer<EncodingSession.Conflict?>
  ) {
    self.writer = writer
    self.formatting = formatting
    self.nextContainer = nextContainer
    self.conflict = conflict
  }

  // MARK: - Finding nodes and members

  /// The node of container `container`.
  func node(of container: Int) -> Int {
    if let node = nodeOfContainer[container] { return node }
    // A container whose text was taken out: a fresh node, outside the tree.
    nodes.append(
      Node(isObject: droppedContainers[container] ?? true, isNested: false, parent: nil))
    nodes[nodes.count - 1].container = container
    nodeOfContainer[container] = nodes.count - 1
    return nodes.count - 1
  }

  /// The node and member of `slot`.
  private func place(of slot: EncodingSlot) -> (node: Int, member: Int) {
    let node = node(of: slot.container)
    let slots = nodes[node].memberOfSlot
    if slot.member < slots.count { return (node, slots[slot.member]) }
    // Not begun here (it belongs to a container whose text was taken out
    // while it was open): a member of its own.
    nodes[node].members.append(Member(key: nil, codingKey: nil, value: .pending))
    nodes[node].memberOfSlot.append(nodes[node].members.count - 1)
    return (node, nodes[node].members.count - 1)
  }

  /// The member of the object `node` whose key is `name`, if any.
  func member(named name: String, in node: Int) -> Int? {
    if nodes[node].memberOfKey == nil {
      guard nodes[node].members.count >= Self.keyIndexThreshold else {
        // The last: a member whose value failed, left in its place, comes
        // before any later member of the same name.
        return nodes[node].members.lastIndex { $0.key == name }
      }
      var memberOfKey: [String: Int] = [:]
      for (member, entry) in nodes[node].members.enumerated() {
        if let key = entry.key { memberOfKey[key] = member }
      }
      nodes[node].memberOfKey = memberOfKey
    }
    return nodes[node].memberOfKey![name]
  }

  // MARK: - Members

  /// Begins a member of `container`; `keepingValue` says that it is begun
  /// for a nested container, which shares the value already there.
  func beginMember(
    of container: Int, key: (any CodingKey)?, name: String?, keepingValue: Bool = false
  ) -> EncodingSlot {
    let node = node(of: container)
    let member = addMember(to: node, key: key, name: name, keepingValue: keepingValue)
    nodes[node].memberOfSlot.append(member)
    return EncodingSlot(container: container, member: nodes[node].memberOfSlot.count - 1)
  }

  /// Begins the member `name` of `container` for a super encoder.
  func beginSuperEncoderMember(of container: Int, key: any CodingKey, name: String)
    -> EncodingSlot
  {
    let slot = beginMember(of: container, key: key, name: name)
    let (node, member) = place(of: slot)
    nodes[node].members[member].hasSuperEncoder = true
    return slot
  }

  /// Adds a member to `node`, or finds the one with the same key; returns
  /// its index.
  func addMember(to node: Int, key: (any CodingKey)?, name: String?, keepingValue: Bool) -> Int {
    if let name, let existing = member(named: name, in: node), !isDiscarded((node, existing)) {
      if nodes[node].members[existing].hasSuperEncoder {
        noteSuperEncoderKeyBegunAgain(name, in: node)
      }
      if keepingValue {
        nodes[node].members[existing].codingKey = key
        return existing
      }
      // The last value wins, in the first one's place.
      let old = nodes[node].members[existing]
      nodes[node].replaced = (existing, old.value, old.codingKey)
      setValue(.pending, of: (node, existing))
      nodes[node].members[existing].codingKey = key
      return existing
    }
    let member = nodes[node].members.count
    nodes[node].members.append(Member(key: name, codingKey: key, value: .pending))
    nodes[node].replaced = nil
    if let name, nodes[node].memberOfKey != nil {
      nodes[node].memberOfKey![name] = member
    }
    return member
  }

  /// Whether the member's value failed: a member begun later under its
  /// key is a new member, as in Foundation, which never added it.
  private func isDiscarded(_ place: (node: Int, member: Int)) -> Bool {
    if case .discarded = nodes[place.node].members[place.member].value { return true }
    return false
  }

  /// Sets the value of a member, keeping count of discarded members.
  func setValue(_ value: Value, of place: (node: Int, member: Int)) {
    if case .discarded = nodes[place.node].members[place.member].value {
      nodes[place.node].discardedCount -= 1
    }
    if case .discarded = value { nodes[place.node].discardedCount += 1 }
    nodes[place.node].members[place.member].value = value
  }

  /// Takes out the member in `slot`, whose value failed: the value it
  /// replaced comes back, or the member is left out. It keeps its place,
  /// so that an encoder the failed value kept still names it (and no later
  /// member); the index of a later element leaves it out.
  func discardMember(_ slot: EncodingSlot) {
    let (node, member) = place(of: slot)
    if let replaced = nodes[node].replaced, replaced.member == member {
      setValue(replaced.value, of: (node, member))
      nodes[node].members[member].codingKey = replaced.codingKey
      nodes[node].replaced = nil
    } else {
      setValue(.discarded, of: (node, member))
    }
    // Only the failed value's encoder names this slot (a restored value's
    // own slot is another): what it writes goes nowhere.
    deadSlots.insert(slot)
  }

  /// Adds the member of `slot` as one whose value failed: streaming took it
  /// out just before handing over, and would have given its number to the
  /// next member. It keeps its place, so that an encoder the failed value
  /// kept still names it (`codingKey`, for a member of an object) and
  /// writes nowhere.
  func addDiscardedMember(_ slot: EncodingSlot, codingKey: (any CodingKey)?) {
    let node = node(of: slot.container)
    guard nodes[node].memberOfSlot.count == slot.member else {
      // Not expected: streaming counted the container's members as the
      // text has them. Throw rather than let the slot's number name
      // another member.
      noteLostMember(slot)
      return
    }
    let member = nodes[node].members.count
    nodes[node].members.append(Member(key: nil, codingKey: codingKey, value: .pending))
    setValue(.discarded, of: (node, member))
    nodes[node].memberOfSlot.append(member)
    deadSlots.insert(slot)
  }

  /// Takes out the value of `slot`, which failed, keeping the member: it
  /// awaits a value again, as if the failed one had not been encoded.
  func discardValue(of slot: EncodingSlot) {
    setValue(.pending, of: place(of: slot))
  }

  /// How deep the container `container` nests: 1 for the root value's, 0
  /// for one outside the tree (whose writes are left out of the output).
  func depth(ofContainer container: Int) -> Int {
    depth(ofNode: node(of: container))
  }

  private func depth(ofNode node: Int) -> Int {
    var depth = 0
    var current = node
    while let parent = nodes[current].parent {
      depth += 1
      current = parent.node
    }
    return depth
  }

  /// The number of members in `container`, as its `count` reports it.
  func count(of container: Int) -> Int {
    let node = node(of: container)
    return nodes[node].members.count - nodes[node].discardedCount
  }

  /// The number of slots begun in `container`, two for one key counted
  /// twice.
  func slotCount(of container: Int) -> Int {
    nodes[node(of: container)].memberOfSlot.count
  }

  /// Whether nothing has been written into `slot` yet.
  func isUnwritten(_ slot: EncodingSlot) -> Bool {
    let (node, member) = place(of: slot)
    if case .pending = nodes[node].members[member].value { return true }
    return false
  }

  // MARK: - Values

  /// Whether a single value may be written into `place`; notes a conflict
  /// when one is already there.
  private func acceptsSingleValue(_ place: (node: Int, member: Int), slot: EncodingSlot) -> Bool {
    // An encoder kept by a value that failed writes nowhere, as in
    // Foundation, which never added the value.
    if !deadSlots.isEmpty, deadSlots.contains(slot) { return false }
    switch nodes[place.node].members[place.member].value {
    case .pending, .discarded:
      return true
    case .scalar:
      noteConflict(at: slot, nested: false, "a single value", existing: "a single value")
    case .node(let existing):
      noteConflict(
        at: slot, nested: false, "a single value", existing: Self.kind(nodes[existing].isObject))
    }
    return false
  }

  func writeScalar(into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void) rethrows {
    let place = place(of: slot)
    guard acceptsSingleValue(place, slot: slot) else { return }
    let start = writer.count
    try write(&writer)
    setValue(.scalar(start..<writer.count), of: place)
  }

  /// Writes a whole value's text into `slot`; `write` gets the indentation
  /// level of the line the value starts on.
  func writeIndented(into slot: EncodingSlot, _ write: (inout ByteWriter, Int) throws -> Void)
    rethrows
  {
    let place = place(of: slot)
    guard acceptsSingleValue(place, slot: slot) else { return }
    let start = writer.count
    try write(&writer, depth(ofNode: place.node))
    setValue(.scalar(start..<writer.count), of: place)
  }

  /// Opens an array or object in `slot`, or returns the one of the same
  /// kind already there; a conflict for a value of another kind.
  func openContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool) -> Int {
    let place = place(of: slot)
    if !deadSlots.isEmpty, deadSlots.contains(slot) {
      return detachedContainer(isObject: isObject, isNested: isNested, at: place)
    }
    switch nodes[place.node].members[place.member].value {
    case .pending, .discarded:
      break
    case .node(let existing) where nodes[existing].isObject == isObject:
      return container(ofNode: existing)
    case .node(let existing):
      noteConflict(
        at: slot, nested: isNested, Self.kind(isObject),
        existing: Self.kind(nodes[existing].isObject)
      )
      return detachedContainer(isObject: isObject, isNested: isNested, at: place)
    case .scalar(let range):
      // An object or array written whole (a `JSONValue`) is shared as one
      // written through a container is.
      if let node = expand(range, isObject: isObject, isNested: isNested, into: place) {
        return container(ofNode: node)
      }
      noteConflict(at: slot, nested: isNested, Self.kind(isObject), existing: "a single value")
      return detachedContainer(isObject: isObject, isNested: isNested, at: place)
    }
    nodes.append(Node(isObject: isObject, isNested: isNested, parent: place))
    setValue(.node(nodes.count - 1), of: place)
    return container(ofNode: nodes.count - 1)
  }

  /// The container number of `node`, giving it one if it has none (it was
  /// written whole, as a value, before the hand-over).
  func container(ofNode node: Int) -> Int {
    if let container = nodes[node].container { return container }
    let container = nextContainer
    nextContainer += 1
    nodeOfContainer[container] = node
    nodes[node].container = container
    return container
  }

  /// A container whose writes go nowhere, for a request that conflicts or
  /// comes through a failed value's encoder, in the place of `place`.
  private func detachedContainer(
    isObject: Bool, isNested: Bool, at place: (node: Int, member: Int)
  ) -> Int {
    nodes.append(Node(isObject: isObject, isNested: isNested, parent: nil))
    nodes[nodes.count - 1].pathPlace = place
    return container(ofNode: nodes.count - 1)
  }

  /// Notes that the key `name` of the object `node` was begun again after
  /// a super encoder was asked for under it, unless an earlier conflict was
  /// noted.
  func noteSuperEncoderKeyBegunAgain(_ name: String, in node: Int) {
    guard conflict.pointee == nil else { return }
    conflict.pointee = .superEncoderKeyBegunAgain(name, codingPath: codingPath(ofNode: node))
  }

  /// Notes that the text streaming wrote could not be read back for the
  /// hand-over, which is not expected: `encode` then throws `keyError`, a
  /// key's error that makes it throw anyway, or else this conflict, rather
  /// than write what the tree lost.
  func noteUnreadableText(keyError: EncodingError?) {
    guard keyError == nil, conflict.pointee == nil else { return }
    conflict.pointee = EncodingSession.Conflict(
      context: EncodingError.Context(
        codingPath: [],
        debugDescription: "JSONKit could not read back the text it had written."),
      trapsInFoundation: false)
  }

  /// Notes that the tree lost track of the failed member in `slot`, which
  /// is not expected; `encode` then throws.
  private func noteLostMember(_ slot: EncodingSlot) {
    guard conflict.pointee == nil else { return }
    conflict.pointee = EncodingSession.Conflict(
      context: EncodingError.Context(
        codingPath: codingPath(of: slot),
        debugDescription: "JSONKit lost track of a member whose value failed to encode."),
      trapsInFoundation: false)
  }

  private static func kind(_ isObject: Bool) -> String {
    isObject ? "a keyed container" : "an unkeyed container"
  }

  private func noteConflict(
    at slot: EncodingSlot, nested: Bool, _ requested: String, existing: String
  ) {
    guard conflict.pointee == nil else { return }
    let (node, member) = place(of: slot)
    let path: [any CodingKey]
    var place = ""
    if nested {
      let key = self.key(of: (node, member))
      path = codingPath(ofNode: node) + [key]
      place = " for key \"\(key.stringValue)\""
    } else {
      path = codingPath(of: slot)
    }
    conflict.pointee = EncodingSession.Conflict(
      context: EncodingError.Context(
        codingPath: path,
        debugDescription:
          "Cannot encode \(requested)\(place): \(existing) was already encoded at this coding "
          + "path."),
      trapsInFoundation: true)
  }

  // MARK: - Coding paths

  /// The coding key of a member.
  private func key(of place: (node: Int, member: Int)) -> any CodingKey {
    let member = nodes[place.node].members[place.member]
    if let key = member.codingKey { return key }
    if let name = member.key { return AnyCodingKey(stringValue: name) }
    return AnyCodingKey(intValue: place.member - discardedCount(before: place))
  }

  /// The number of members left out before `place` in its node: an
  /// element's index counts only the elements kept.
  private func discardedCount(before place: (node: Int, member: Int)) -> Int {
    guard nodes[place.node].discardedCount > 0 else { return 0 }
    return nodes[place.node].members[..<place.member].reduce(0) {
      if case .discarded = $1.value { return $0 + 1 }
      return $0
    }
  }

  /// The coding path of the value in `slot`, as streaming gives it.
  func codingPath(of slot: EncodingSlot) -> [any CodingKey] {
    codingPath(ofPlace: place(of: slot))
  }

  /// The coding path of the value of a member: that of its encoder.
  private func codingPath(ofPlace place: (node: Int, member: Int)) -> [any CodingKey] {
    valuePath(key: key(of: place), in: place.node)
  }

  /// The coding path of the container `container` itself.
  func codingPath(ofContainer container: Int) -> [any CodingKey] {
    codingPath(ofNode: node(of: container))
  }

  private func codingPath(ofNode node: Int) -> [any CodingKey] {
    containerPath(node)
  }

  // MARK: - Writing

  /// Writes the tree with the output formatting; nil when the root value
  /// encoded nothing.
  func finish(maxDepth: Int) -> ByteWriter? {
    let root = nodes[0].members[0].value
    if case .pending = root { return nil }
    self.maxDepth = maxDepth
    var output = ByteWriter(options: formatting, capacity: writer.count + 64)
    write(root, depth: 0, into: &output)
    return output
  }

  /// Keeps the error for the key `key` of the member at `place`, which
  /// holds a scalar JSONKit's reader rejects, unless an earlier key's error
  /// is kept.
  private func noteUnreadableKey(
    _ key: String, of place: (node: Int, member: Int), in output: inout ByteWriter
  ) {
    guard let scalar = output.takeUnreadableScalar(), unreadableKeyError == nil else { return }
    unreadableKeyError = UnreadableScalar(scalar, in: key).keyError(
      codingPath: codingPath(ofPlace: place))
  }

  private func write(_ value: Value, depth: Int, into output: inout ByteWriter) {
    switch value {
    case .pending:
      output.writeEmptyContainer(isObject: true, indentLevel: depth)
    case .discarded:
      break
    case .scalar(let range):
      writer.withBytes { bytes in
        output.append(bytes.baseAddress! + range.lowerBound, count: range.count)
      }
    case .node(let index):
      let node = nodes[index]
      if depth + 1 > maxDepth {
        // `encode` throws, so the output is not wanted: stopping here keeps
        // the recursion as shallow as the limit, however deep the tree.
        isTooDeep = true
        return
      }
      output.openContainer(isObject: node.isObject)
      var order = Array(node.members.indices)
      if node.discardedCount > 0 {
        order.removeAll {
          if case .discarded = node.members[$0].value { return true }
          return false
        }
      }
      if node.isObject, output.sortsKeys {
        order.sort { ByteWriter.keyPrecedes(node.members[$0].key!, node.members[$1].key!) }
      }
      for (position, memberIndex) in order.enumerated() {
        let member = node.members[memberIndex]
        output.beginMember(isFirst: position == 0, indentLevel: depth + 1)
        if let key = member.key {
          output.writeKey(key)
          if output.unreadableScalar != nil {
            noteUnreadableKey(key, of: (index, memberIndex), in: &output)
          }
        }
        write(member.value, depth: depth + 1, into: &output)
      }
      output.closeContainer(isObject: node.isObject, isEmpty: order.isEmpty, indentLevel: depth)
    }
  }
}

/// The paths of the tree's nodes (see ``EncoderCodingPaths``); the root's
/// node has no parent, nor has a node outside the tree, but for the place
/// it was asked for in.
extension TreeState: EncoderCodingPaths {
  func pathParent(of node: Int) -> Int? { (nodes[node].parent ?? nodes[node].pathPlace)?.node }
  func pathIsNested(_ node: Int) -> Bool { nodes[node].isNested }
  func pathKey(of node: Int) -> any CodingKey {
    key(of: (nodes[node].parent ?? nodes[node].pathPlace).unsafelyUnwrapped)
  }
}
