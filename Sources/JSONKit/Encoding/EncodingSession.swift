import Foundation

/// Where one encoded value goes: member `member` of container `container`.
///
/// The root value is member 0 of container 0, a pseudo-container that holds
/// only it.
struct EncodingSlot: Equatable {
  var container: Int
  var member: Int

  static let root = EncodingSlot(container: 0, member: 0)
}

/// One `encode` call, shared by its encoders and containers.
///
/// It first runs in **streaming** mode: every value is written straight into
/// one byte buffer as it is encoded. That works whenever values are encoded
/// in the order they appear in the output, which is what synthesized
/// `encode(to:)` implementations (and nearly every hand-written one) do.
/// Sorted keys and keys encoded twice are handled there too, by reordering
/// an object's members in place when it closes.
///
/// Codable also allows encoding into a container after a later sibling has
/// been written (a nested container or super-encoder kept and used later),
/// and asking again for a nested container under a key whose object or
/// array is written already, to add to it. Streaming cannot honour either,
/// so the session notes it, ignores further writes, and ``JKEncoder``
/// encodes the value again in **tree** mode, which records every container
/// as a node and writes them all at the end.
///
/// The mutable state lives in memory the session allocates, reached through
/// a pointer: every write is a mutation, and a class's stored properties
/// would pay a dynamic exclusivity check on each one.
final class EncodingSession {
  let options: JKEncoder.Options
  let userInfo: [CodingUserInfoKey: Any]
  private let state: UnsafeMutablePointer<EncodingState>

  init(mode: EncodingState.Mode, options: JKEncoder.Options, capacity: Int) {
    self.options = options
    userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
    state = .allocate(capacity: 1)
    state.initialize(to: EncodingState(mode: mode, options: options, capacity: capacity))
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Whether streaming met an out-of-order write (its output is discarded).
  var needsTreeMode: Bool { state.pointee.needsTreeMode }

  @inline(__always)
  func beginMember(of container: Int, key: (any CodingKey)?, name: String?) -> EncodingSlot {
    state.pointee.beginMember(of: container, key: key, name: name).slot
  }

  /// ``beginMember(of:key:name:)``, also returning where the member's text
  /// starts, which ``discardMember(_:startingAt:)`` needs.
  @inline(__always)
  func beginDiscardableMember(of container: Int, key: (any CodingKey)?, name: String?)
    -> (slot: EncodingSlot, start: Int)
  {
    state.pointee.beginMember(of: container, key: key, name: name)
  }

  /// Begins the member `name` of the object `container` for a nested
  /// container, which shares an object or array already written there.
  func beginContainerMember(of container: Int, key: any CodingKey, name: String) -> EncodingSlot {
    state.pointee.beginContainerMember(of: container, key: key, name: name)
  }

  /// Begins the next element of the array `container`; returns its slot and
  /// where its text starts.
  @inline(__always)
  func beginElement(of container: Int) -> (slot: EncodingSlot, start: Int) {
    state.pointee.beginElement(of: container)
  }

  /// Writes a scalar into `slot`; a string JSONKit could not read back
  /// throws with the slot's coding path.
  @inline(__always)
  func writeScalar(into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void) rethrows {
    do {
      try state.pointee.writeScalar(into: slot, write)
    } catch let unreadable as UnreadableScalar {
      throw unreadable.valueError(codingPath: codingPath(of: slot))
    }
  }

  /// Writes a whole value's text into `slot` at once; `write` gets the
  /// indentation level of the line the value starts on.
  func writeIndented(
    into slot: EncodingSlot, _ write: (inout ByteWriter, _ indentLevel: Int) throws -> Void
  ) rethrows {
    try state.pointee.writeIndented(into: slot, write)
  }

  /// Opens an array or object in `slot`; `isNested` says that a container
  /// opens it as a nested container, rather than the encoder of `slot`.
  func openContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool = false) -> Int {
    state.pointee.openContainer(in: slot, isObject: isObject, isNested: isNested)
  }

  /// Takes out the member in `slot`, whose value failed to encode, with all
  /// that was written for it: Foundation adds a member only once its value
  /// is encoded, so an error caught inside `encode(to:)` leaves no trace.
  func discardMember(_ slot: EncodingSlot, startingAt start: Int) {
    state.pointee.discardMember(slot, startingAt: start)
  }

  func count(of container: Int) -> Int {
    state.pointee.count(of: container)
  }

  /// Writes `{}` into `slot` unless something was written there: what
  /// Foundation writes for a custom date or data strategy that encodes nothing.
  func writeEmptyObjectUnlessWritten(_ slot: EncodingSlot) {
    if state.pointee.isUnwritten(slot) { _ = openContainer(in: slot, isObject: true) }
  }

  func codingPath(of slot: EncodingSlot) -> [any CodingKey] {
    state.pointee.codingPath(of: slot)
  }

  func codingPath(ofContainer container: Int) -> [any CodingKey] {
    state.pointee.codingPath(ofContainer: container)
  }

  @inline(__always)
  func name(of key: any CodingKey, in container: Int) -> String {
    if case .useDefaultKeys = options.keyEncodingStrategy { return key.stringValue }
    return state.pointee.name(of: key, in: container)
  }

  /// Closes every container; nil when the root value encoded nothing.
  ///
  /// - Throws: the error for the first key that JSONKit could not read back.
  func finishStreaming() throws -> ByteWriter? {
    if let error = state.pointee.unreadableKeyError { throw error }
    guard state.pointee.finishStreaming() else { return nil }
    return state.pointee.takeOutput()
  }

  /// Writes the recorded tree; nil when the root value encoded nothing.
  ///
  /// - Throws: the error for the first key that JSONKit could not read back.
  func finishTree() throws -> ByteWriter? {
    let output = state.pointee.finishTree()
    if let error = state.pointee.unreadableKeyError { throw error }
    return output
  }
}

/// The mutable state of one ``EncodingSession``.
struct EncodingState: ~Copyable {
  enum Mode {
    case streaming
    case tree
  }

  let mode: Mode
  let options: JKEncoder.Options
  /// Whether member names can differ from their coding keys' string values.
  private let keepsCodingKeys: Bool
  /// The output in streaming mode; in tree mode, the text of each scalar.
  var writer: ByteWriter
  /// Set when streaming met an out-of-order write; the result is discarded.
  var needsTreeMode = false
  /// The error for the first object key holding a scalar JSONKit's reader
  /// rejects. Keys are written where no error can be thrown (a nested
  /// container's key, or a key in tree mode, is written as the output is
  /// put together), so the encode call throws it once it is done.
  var unreadableKeyError: EncodingError?

  // Streaming state.
  private var frames: [Frame] = []
  private var members: [Member] = []
  private var nextSerial = 1
  /// The fingerprint sets of open wide objects, innermost last; kept apart
  /// from the frames so that a frame stays cheap to copy and destroy.
  private var fingerprintSets: [Set<UInt64>] = []

  // Tree state.
  private var nodes: [TreeNode] = []

  /// Converted keys for `.convertToSnakeCase`, by coding key.
  /// Strings that are canonically equivalent are equal dictionary keys but
  /// convert differently (the conversion works on their scalars), so each
  /// entry keeps the key it was made for.
  private var snakeCaseKeys: [String: (key: String, converted: String)] = [:]

  init(mode: Mode, options: JKEncoder.Options, capacity: Int) {
    self.mode = mode
    self.options = options
    if case .useDefaultKeys = options.keyEncodingStrategy {
      keepsCodingKeys = false
    } else {
      keepsCodingKeys = true
    }
    // In tree mode the writer holds scalars only; they are escaped as the
    // output will be, and joined later.
    writer = ByteWriter(options: options.outputFormatting, capacity: capacity)
    switch mode {
    case .streaming:
      frames.reserveCapacity(16)
      members.reserveCapacity(64)
      frames.append(
        Frame(serial: 0, isObject: false, isNested: false, parentSlot: .root, memberBase: 0))
      frames[0].count = 1
      frames[0].awaitingValue = true
    case .tree:
      nodes.append(TreeNode(isObject: false, isNested: false, parentSlot: nil))
      nodes[0].members.append(TreeMember(key: nil, codingKey: nil, value: .pending))
    }
  }

  // MARK: - Streaming frames

  /// An open container while streaming.
  private struct Frame {
    let serial: Int
    let isObject: Bool
    /// Whether a container opened it as a nested container (see
    /// ``codingPath(of:)``).
    let isNested: Bool
    // The flags come together, where they pack into one word.
    /// Whether the last member was begun but has no value yet.
    var awaitingValue = false
    /// Whether two members' keys may be equal (their fingerprints are).
    var mayHaveDuplicates = false
    /// Whether the object is wide enough that its members' fingerprints are
    /// kept in a set, the last of `fingerprintSets`: the bits below fill up
    /// after a few dozen members, and scanning on every hit would make
    /// writing an object quadratic in its size.
    var hasFingerprintSet = false
    /// The slot the container fills in its parent.
    let parentSlot: EncodingSlot
    /// Members (or elements) begun so far.
    var count = 0
    /// Where this object's members start in `members`.
    let memberBase: Int
    /// The coding key of the last member begun, kept for coding paths only
    /// when a key strategy makes it differ from the member's name (copying
    /// an existential per member is not free).
    var currentKey: (any CodingKey)?
    /// One bit per member fingerprint (its low 7 bits): a member whose bit
    /// is clear cannot repeat an earlier key, so most members skip the scan.
    var fingerprintBits: (UInt64, UInt64) = (0, 0)
  }

  /// The member count from which an object tracks its fingerprints in a set.
  private static let fingerprintSetThreshold = 64

  /// One member of an open object: its key, a fingerprint of the key for
  /// finding duplicates cheaply, and where its text starts.
  private struct Member {
    let key: String
    let fingerprint: UInt64
    let start: Int
  }

  @inline(__always)
  private func frameIndex(_ serial: Int) -> Int? {
    var index = frames.count - 1
    while index >= 0 {
      if frames[index].serial == serial { return index }
      index -= 1
    }
    return nil
  }

  /// Notes that streaming cannot produce this value's output.
  private mutating func abandonStreaming() {
    needsTreeMode = true
  }

  /// Makes `slot` the place where the next bytes go: its container becomes
  /// the innermost open one (finishing any deeper ones), and the slot must be
  /// the container's last member, still without a value.
  @inline(__always)
  private mutating func prepare(_ slot: EncodingSlot) -> Bool {
    guard !needsTreeMode, let index = frameIndex(slot.container),
      frames[index].count - 1 == slot.member, frames[index].awaitingValue
    else {
      abandonStreaming()
      return false
    }
    while frames.count - 1 > index { closeInnermost() }
    return true
  }

  private var indentLevel: Int { frames.count - 1 }

  /// Begins a member of the object `container` (or an element of the array)
  /// and returns the slot for its value, and where the member's text starts
  /// (its separator included).
  mutating func beginMember(of container: Int, key: (any CodingKey)?, name: String?)
    -> (slot: EncodingSlot, start: Int)
  {
    let begun = begin(of: container, key: key, name: name)
    return (begun.slot, begun.start)
  }

  /// ``beginMember(of:key:name:)`` for an element of the array `container`,
  /// made separately so that elements pay for no key.
  mutating func beginElement(of container: Int) -> (slot: EncodingSlot, start: Int) {
    let begun = begin(of: container, key: nil, name: nil)
    return (begun.slot, begun.start)
  }

  /// Begins the member `name` of the object `container` for a nested
  /// container. Foundation hands a nested container asked for under a key
  /// that already holds an object (or array) that same object, so that both
  /// containers write into it; streaming cannot reopen a value it has
  /// written, so it leaves such a request to the tree.
  mutating func beginContainerMember(of container: Int, key: any CodingKey, name: String)
    -> EncodingSlot
  {
    if mode == .tree {
      return treeBeginMember(of: container, key: key, name: name, keepingValue: true)
    }
    let begun = begin(of: container, key: key, name: name)
    if begun.mayRepeat, repeatsEarlierMember(begun.slot) { abandonStreaming() }
    return begun.slot
  }

  /// Whether the member in `slot`, just begun, has the key of an earlier
  /// member of its object.
  private func repeatsEarlierMember(_ slot: EncodingSlot) -> Bool {
    guard let index = frameIndex(slot.container), let last = members.last else { return false }
    var other = frames[index].memberBase
    while other < members.count - 1 {
      if members[other].fingerprint == last.fingerprint, members[other].key == last.key {
        return true
      }
      other += 1
    }
    return false
  }

  /// Begins a member (or element); also says whether an earlier member of
  /// the object may have the same key.
  @inline(__always)
  private mutating func begin(of container: Int, key: (any CodingKey)?, name: String?)
    -> (slot: EncodingSlot, start: Int, mayRepeat: Bool)
  {
    if mode == .tree { return (treeBeginMember(of: container, key: key, name: name), 0, false) }
    guard !needsTreeMode, let index = frameIndex(container) else {
      abandonStreaming()
      return (EncodingSlot(container: container, member: -1), 0, false)
    }
    while frames.count - 1 > index { closeInnermost() }
    if frames[index].awaitingValue { writeEmptyObject() }
    let memberStart = writer.count
    var mayRepeat = false
    if frames[index].count > 0 { writer.append(UInt8(ascii: ",")) }
    if writer.isPrettyPrinted { writer.appendNewline(indentLevel: indentLevel) }
    var unreadableKey: Unicode.Scalar?
    if let name {
      let start = writer.count
      writer.writeQuoted(name)
      unreadableKey = writer.takeUnreadableScalar()
      let fingerprint = writer.fingerprint(from: start)
      mayRepeat = noteFingerprint(fingerprint, inFrame: index)
      members.append(Member(key: name, fingerprint: fingerprint, start: start))
      if writer.isPrettyPrinted {
        writer.append(" : ")
      } else {
        writer.append(UInt8(ascii: ":"))
      }
    }
    frames[index].count += 1
    frames[index].awaitingValue = true
    if keepsCodingKeys { frames[index].currentKey = key }
    if let unreadableKey {
      noteUnreadableKey(
        unreadableKey, of: EncodingSlot(container: container, member: frames[index].count - 1))
    }
    return (
      EncodingSlot(container: container, member: frames[index].count - 1), memberStart, mayRepeat
    )
  }

  /// Keeps the error for the key of the member just begun in `slot`, which
  /// holds `scalar`, unless an earlier key's error is kept.
  @inline(never)
  private mutating func noteUnreadableKey(_ scalar: Unicode.Scalar, of slot: EncodingSlot) {
    guard unreadableKeyError == nil, let key = members.last?.key else { return }
    unreadableKeyError = UnreadableScalar(scalar, in: key).keyError(
      codingPath: codingPath(of: slot))
  }

  /// Notes the fingerprint of the member being begun in `frames[index]`,
  /// marking the object when an earlier member may have the same key; returns
  /// whether one may.
  @inline(__always)
  private mutating func noteFingerprint(_ fingerprint: UInt64, inFrame index: Int) -> Bool {
    if frames[index].count >= Self.fingerprintSetThreshold {
      return noteFingerprintInSet(fingerprint, inFrame: index)
    }
    let bit = UInt64(1) << (fingerprint & 63)
    let seen =
      fingerprint & 64 == 0
      ? frames[index].fingerprintBits.0 & bit : frames[index].fingerprintBits.1 & bit
    if seen == 0 {
      if fingerprint & 64 == 0 {
        frames[index].fingerprintBits.0 |= bit
      } else {
        frames[index].fingerprintBits.1 |= bit
      }
    } else if !frames[index].mayHaveDuplicates {
      var other = frames[index].memberBase
      while other < members.count {
        if members[other].fingerprint == fingerprint {
          frames[index].mayHaveDuplicates = true
          break
        }
        other += 1
      }
    }
    return seen != 0
  }

  /// ``noteFingerprint(_:inFrame:)`` for a wide object, which is the
  /// innermost open container.
  private mutating func noteFingerprintInSet(_ fingerprint: UInt64, inFrame index: Int) -> Bool {
    if !frames[index].hasFingerprintSet {
      var fingerprints = Set<UInt64>(minimumCapacity: 4 * Self.fingerprintSetThreshold)
      for member in members[frames[index].memberBase...] {
        fingerprints.insert(member.fingerprint)
      }
      fingerprintSets.append(fingerprints)
      frames[index].hasFingerprintSet = true
    }
    if !fingerprintSets[fingerprintSets.count - 1].insert(fingerprint).inserted {
      frames[index].mayHaveDuplicates = true
      return true
    }
    return false
  }

  /// Writes a scalar into `slot`.
  @inline(__always)
  mutating func writeScalar(into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void)
    rethrows
  {
    if mode == .tree { return try treeWriteScalar(into: slot, write) }
    guard prepare(slot) else { return }
    try write(&writer)
    frames[frames.count - 1].awaitingValue = false
  }

  /// Writes a whole value's text into `slot`, as ``writeScalar(into:_:)``
  /// does, telling `write` how deeply the value's line is indented.
  mutating func writeIndented(
    into slot: EncodingSlot, _ write: (inout ByteWriter, Int) throws -> Void
  ) rethrows {
    if mode == .tree {
      var depth = 0
      var current = slot
      while current.container != 0, let parent = nodes[current.container].parentSlot {
        depth += 1
        current = parent
      }
      return try treeWriteScalar(into: slot) { try write(&$0, depth) }
    }
    guard prepare(slot) else { return }
    try write(&writer, indentLevel)
    frames[frames.count - 1].awaitingValue = false
  }

  /// Opens an array or object in `slot`, or returns the one already there
  /// (an encoder may ask for its container more than once).
  mutating func openContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool) -> Int {
    if mode == .tree { return treeOpenContainer(in: slot, isObject: isObject, isNested: isNested) }
    if !needsTreeMode, let index = frameIndex(slot.container), index + 1 < frames.count,
      frames[index + 1].parentSlot == slot, frames[index + 1].isObject == isObject
    {
      while frames.count - 1 > index + 1 { closeInnermost() }
      return frames[index + 1].serial
    }
    guard prepare(slot) else { return -1 }
    frames[frames.count - 1].awaitingValue = false
    writer.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
    let serial = nextSerial
    nextSerial += 1
    frames.append(
      Frame(
        serial: serial, isObject: isObject, isNested: isNested, parentSlot: slot,
        memberBase: members.count))
    return serial
  }

  /// Takes out the member in `slot`, whose text starts at `start`, and all
  /// that was written for it.
  mutating func discardMember(_ slot: EncodingSlot, startingAt start: Int) {
    if mode == .tree { return treeDiscardMember(slot) }
    guard !needsTreeMode else { return }
    guard let index = frameIndex(slot.container), frames[index].count - 1 == slot.member else {
      // Members were begun after it, from inside its own encoding: only the
      // tree can take it out.
      return abandonStreaming()
    }
    if index + 1 < frames.count {
      members.removeLast(members.count - frames[index + 1].memberBase)
      for frame in frames[(index + 1)...] where frame.hasFingerprintSet {
        fingerprintSets.removeLast()
      }
      frames.removeLast(frames.count - (index + 1))
    }
    if frames[index].isObject { members.removeLast() }
    writer.truncate(to: start)
    frames[index].count -= 1
    frames[index].awaitingValue = false
  }

  /// Whether nothing has been written into `slot` yet.
  mutating func isUnwritten(_ slot: EncodingSlot) -> Bool {
    if mode == .tree { return Self.isPending(nodes[slot.container].members[slot.member].value) }
    guard !needsTreeMode, let index = frameIndex(slot.container) else { return false }
    return frames[index].count - 1 == slot.member && frames[index].awaitingValue
  }

  /// The number of members begun in `container`.
  mutating func count(of container: Int) -> Int {
    if mode == .tree {
      guard container < nodes.count else { return 0 }
      return nodes[container].members.count - nodes[container].discardedCount
    }
    guard let index = frameIndex(container) else { return 0 }
    return frames[index].count
  }

  /// Foundation writes `{}` for a value that encoded nothing.
  private mutating func writeEmptyObject() {
    Self.writeEmptyObject(into: &writer, indentLevel: indentLevel)
  }

  /// `{}`, or in pretty output `JSONEncoder`'s "{\n\n<indent>}".
  private static func writeEmptyObject(into output: inout ByteWriter, indentLevel: Int) {
    output.append(UInt8(ascii: "{"))
    if output.isPrettyPrinted {
      output.append(UInt8(ascii: "\n"))
      output.appendNewline(indentLevel: indentLevel)
    }
    output.append(UInt8(ascii: "}"))
  }

  /// Closes the innermost open container.
  private mutating func closeInnermost() {
    let level = indentLevel
    if frames[level].awaitingValue {
      writeEmptyObject()
      frames[level].awaitingValue = false
    }
    let frame = frames.removeLast()
    if frame.isObject, frame.count > 1, writer.sortsKeys || frame.mayHaveDuplicates {
      reorderMembers(from: frame.memberBase, indentLevel: level)
    }
    if frame.count == 0 {
      if writer.isPrettyPrinted {
        writer.append(UInt8(ascii: "\n"))
        writer.appendNewline(indentLevel: level - 1)
      }
    } else if writer.isPrettyPrinted {
      writer.appendNewline(indentLevel: level - 1)
    }
    writer.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    if frame.isObject { members.removeLast(members.count - frame.memberBase) }
    if frame.hasFingerprintSet { fingerprintSets.removeLast() }
  }

  /// Rewrites the members of the object being closed: later duplicates
  /// replace earlier ones (keeping the first one's place), and with sorted
  /// keys the members are ordered by the UTF-8 bytes of their keys.
  private mutating func reorderMembers(from base: Int, indentLevel level: Int) {
    let separatorLength = 1 + (writer.isPrettyPrinted ? 1 + 2 * level : 0)
    let regionStart = members[base].start
    let regionEnd = writer.count
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(members.count - base)
    for index in base..<members.count {
      let end = index + 1 < members.count ? members[index + 1].start - separatorLength : regionEnd
      ranges.append(members[index].start..<end)
    }
    // Member positions in output order, each with the index of its value.
    var order: [(key: String, text: Int)] = []
    var positionOfKey: [String: Int] = [:]
    for (offset, member) in members[base...].enumerated() {
      if let position = positionOfKey[member.key] {
        order[position].text = offset
      } else {
        positionOfKey[member.key] = order.count
        order.append((member.key, offset))
      }
    }
    if writer.sortsKeys {
      order.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
    let region = writer.copyBytes(in: regionStart..<regionEnd)
    let separator = writer.copyBytes(
      in: (ranges[1].lowerBound - separatorLength)..<ranges[1].lowerBound)
    writer.truncate(to: regionStart)
    for (position, entry) in order.enumerated() {
      if position > 0 { writer.append(separator) }
      let range = ranges[entry.text]
      writer.append(region[(range.lowerBound - regionStart)..<(range.upperBound - regionStart)])
    }
  }

  /// Finishes streaming: closes every container. Returns false when the
  /// root value encoded nothing.
  mutating func finishStreaming() -> Bool {
    while frames.count > 1 { closeInnermost() }
    return !frames[0].awaitingValue
  }

  // MARK: - Coding paths

  // Foundation's paths: a value's encoder has the path of the encoder whose
  // container the value is encoded into, plus the value's key. A nested
  // container belongs to the encoder of the container that made it, so the
  // keys of nested containers are not in the paths of the values encoded
  // into them (`a.nestedContainer(forKey: "b").encode(x, forKey: "c")`
  // gives x the path of a's encoder plus "c"). A container's own path, and
  // the path a custom key strategy sees, do include them.

  /// The coding path of the value in `slot`: that of its encoder.
  mutating func codingPath(of slot: EncodingSlot) -> [any CodingKey] {
    if mode == .tree { return treeCodingPath(of: slot) }
    guard let index = frameIndex(slot.container), index >= 1 else { return [] }
    let frame = frames[index]
    let key =
      slot.member == frame.count - 1
      ? lastMemberKey(of: frame) : AnyCodingKey(intValue: slot.member)
    return encoderPath(ofLevel: index, key: key)
  }

  /// The coding path of a value encoded under `key` into the container of
  /// `frames[level]`.
  private func encoderPath(ofLevel level: Int, key: any CodingKey) -> [any CodingKey] {
    var reversedPath = [key]
    var level = level
    while true {
      // frames[0] holds only the root value, whose path is empty.
      while frames[level].isNested { level -= 1 }
      level -= 1
      guard level >= 1 else { break }
      reversedPath.append(lastMemberKey(of: frames[level]))
    }
    return reversedPath.reversed()
  }

  /// The coding path of the container of `frames[level]` itself.
  private func containerPath(ofLevel level: Int) -> [any CodingKey] {
    var nestedKeys: [any CodingKey] = []
    var level = level
    while frames[level].isNested {
      nestedKeys.append(lastMemberKey(of: frames[level - 1]))
      level -= 1
    }
    guard level >= 2 else { return nestedKeys.reversed() }
    return encoderPath(ofLevel: level - 1, key: lastMemberKey(of: frames[level - 1]))
      + nestedKeys.reversed()
  }

  /// The coding key of the last member begun in `frame`.
  private func lastMemberKey(of frame: Frame) -> any CodingKey {
    if let key = frame.currentKey { return key }
    if frame.isObject, frame.count > 0 {
      return AnyCodingKey(stringValue: members[frame.memberBase + frame.count - 1].key)
    }
    return AnyCodingKey(intValue: max(frame.count - 1, 0))
  }

  // MARK: - Keys

  /// The name a coding key is written under, after the key strategy.
  mutating func name(of key: any CodingKey, in container: Int) -> String {
    switch options.keyEncodingStrategy {
    case .useDefaultKeys:
      return key.stringValue
    case .convertToSnakeCase:
      let original = key.stringValue
      if let cached = snakeCaseKeys[original] {
        if Self.haveSameBytes(cached.key, original) { return cached.converted }
        return KeyConversion.snakeCased(original)
      }
      let converted = KeyConversion.snakeCased(original)
      snakeCaseKeys[original] = (original, converted)
      return converted
    case .custom(let transform):
      // When streaming gives up (or has), its output is discarded and its
      // paths may be wrong: the tree pass calls the transform.
      if mode == .streaming, needsTreeMode || frameIndex(container) == nil {
        return key.stringValue
      }
      let path = codingPath(ofContainer: container) + [key]
      return transform(path).stringValue
    @unknown default:
      return key.stringValue
    }
  }

  /// Whether two strings are the same scalars, not only canonically
  /// equivalent.
  private static func haveSameBytes(_ first: String, _ second: String) -> Bool {
    let same = first.utf8.withContiguousStorageIfAvailable { first in
      second.utf8.withContiguousStorageIfAvailable { second in
        first.count == second.count
          && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
      }
    }
    return (same ?? nil) ?? first.utf8.elementsEqual(second.utf8)
  }

  /// The coding path of the container `container` itself.
  mutating func codingPath(ofContainer container: Int) -> [any CodingKey] {
    if mode == .tree { return treeContainerPath(of: container) }
    guard let index = frameIndex(container) else { return [] }
    return containerPath(ofLevel: index)
  }

  // MARK: - Tree mode

  private enum TreeValue {
    case pending
    case scalar(Range<Int>)
    case node(Int)
    /// A member whose value failed to encode, after which other members
    /// were begun: it is left out of the output.
    case discarded
  }

  private struct TreeMember {
    var key: String?
    var codingKey: (any CodingKey)?
    var value: TreeValue
  }

  private struct TreeNode {
    let isObject: Bool
    let isNested: Bool
    let parentSlot: EncodingSlot?
    var members: [TreeMember] = []
    /// Each key's member, once an object is wide enough that searching its
    /// members for every key would be slow.
    var memberOfKey: [String: Int]?
    /// The members whose value is `.discarded`.
    var discardedCount = 0
    /// The member whose value was last replaced by a new one for the same
    /// key, with what it held: if the new value fails, the old one stays.
    var replaced: (member: Int, value: TreeValue, codingKey: (any CodingKey)?)?
  }

  /// The member count from which an object node indexes its keys.
  private static let keyIndexThreshold = 16

  private mutating func treeBeginMember(
    of container: Int, key: (any CodingKey)?, name: String?, keepingValue: Bool = false
  ) -> EncodingSlot {
    if let name, let existing = treeMember(named: name, in: container) {
      if keepingValue {
        // A nested container: it reuses the object or array already there.
        nodes[container].members[existing].codingKey = key
        return EncodingSlot(container: container, member: existing)
      }
      // The last value wins, in the first one's place.
      let old = nodes[container].members[existing]
      nodes[container].replaced = (existing, old.value, old.codingKey)
      treeSetValue(.pending, in: EncodingSlot(container: container, member: existing))
      nodes[container].members[existing].codingKey = key
      return EncodingSlot(container: container, member: existing)
    }
    let member = nodes[container].members.count
    nodes[container].members.append(TreeMember(key: name, codingKey: key, value: .pending))
    nodes[container].replaced = nil
    if let name, nodes[container].memberOfKey != nil {
      nodes[container].memberOfKey![name] = member
    }
    return EncodingSlot(container: container, member: member)
  }

  /// The member of the object `container` whose key is `name`, if any.
  private mutating func treeMember(named name: String, in container: Int) -> Int? {
    if nodes[container].memberOfKey == nil {
      guard nodes[container].members.count >= Self.keyIndexThreshold else {
        return nodes[container].members.firstIndex { $0.key == name }
      }
      var memberOfKey: [String: Int] = [:]
      for (member, entry) in nodes[container].members.enumerated() {
        if let key = entry.key { memberOfKey[key] = member }
      }
      nodes[container].memberOfKey = memberOfKey
    }
    return nodes[container].memberOfKey![name]
  }

  private mutating func treeWriteScalar(
    into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void
  )
    rethrows
  {
    let start = writer.count
    try write(&writer)
    treeSetValue(.scalar(start..<writer.count), in: slot)
  }

  /// Sets the value of a member, keeping count of discarded members.
  private mutating func treeSetValue(_ value: TreeValue, in slot: EncodingSlot) {
    if case .discarded = nodes[slot.container].members[slot.member].value {
      nodes[slot.container].discardedCount -= 1
    }
    if case .discarded = value { nodes[slot.container].discardedCount += 1 }
    nodes[slot.container].members[slot.member].value = value
  }

  private mutating func treeDiscardMember(_ slot: EncodingSlot) {
    let container = slot.container
    if let replaced = nodes[container].replaced, replaced.member == slot.member {
      treeSetValue(replaced.value, in: slot)
      nodes[container].members[slot.member].codingKey = replaced.codingKey
      nodes[container].replaced = nil
    } else if slot.member == nodes[container].members.count - 1 {
      let removed = nodes[container].members.removeLast()
      if let key = removed.key { nodes[container].memberOfKey?[key] = nil }
    } else {
      treeSetValue(.discarded, in: slot)
    }
  }

  private mutating func treeOpenContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool)
    -> Int
  {
    if case .node(let existing) = nodes[slot.container].members[slot.member].value,
      nodes[existing].isObject == isObject
    {
      return existing
    }
    nodes.append(TreeNode(isObject: isObject, isNested: isNested, parentSlot: slot))
    treeSetValue(.node(nodes.count - 1), in: slot)
    return nodes.count - 1
  }

  private func treeKey(of slot: EncodingSlot) -> any CodingKey {
    nodes[slot.container].members[slot.member].codingKey ?? AnyCodingKey(intValue: slot.member)
  }

  /// The coding path of the value in `slot`, as ``codingPath(of:)`` gives it.
  private func treeCodingPath(of slot: EncodingSlot) -> [any CodingKey] {
    var reversedPath: [any CodingKey] = []
    var current: EncodingSlot? = slot
    while let slot = current, slot.container != 0 {
      reversedPath.append(treeKey(of: slot))
      var owner = slot.container
      while nodes[owner].isNested, let parent = nodes[owner].parentSlot {
        owner = parent.container
      }
      current = nodes[owner].parentSlot
    }
    return reversedPath.reversed()
  }

  /// The coding path of the container `container` itself.
  private func treeContainerPath(of container: Int) -> [any CodingKey] {
    var nestedKeys: [any CodingKey] = []
    var node = container
    while nodes[node].isNested, let parent = nodes[node].parentSlot {
      nestedKeys.append(treeKey(of: parent))
      node = parent.container
    }
    guard let slot = nodes[node].parentSlot else { return nestedKeys.reversed() }
    return treeCodingPath(of: slot) + nestedKeys.reversed()
  }

  /// The finished streaming output; nothing may be written afterwards.
  mutating func takeOutput() -> ByteWriter {
    var output = ByteWriter(options: options.outputFormatting, capacity: 16)
    swap(&output, &writer)
    return output
  }

  /// Writes the recorded tree with the output formatting; nil when the root
  /// value encoded nothing.
  mutating func finishTree() -> ByteWriter? {
    guard case let root = nodes[0].members[0].value, !Self.isPending(root) else { return nil }
    var output = ByteWriter(options: options.outputFormatting, capacity: writer.count + 64)
    writeTree(root, depth: 0, into: &output)
    return output
  }

  private static func isPending(_ value: TreeValue) -> Bool {
    if case .pending = value { return true }
    return false
  }

  private mutating func writeTree(_ value: TreeValue, depth: Int, into output: inout ByteWriter) {
    switch value {
    case .pending:
      Self.writeEmptyObject(into: &output, indentLevel: depth)
    case .discarded:
      break
    case .scalar(let range):
      let text = writer.copyBytes(in: range)
      output.append(text[...])
    case .node(let index):
      let node = nodes[index]
      output.append(node.isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
      var order = Array(node.members.indices)
      if node.discardedCount > 0 {
        order.removeAll {
          if case .discarded = node.members[$0].value { return true }
          return false
        }
      }
      if node.isObject, output.sortsKeys {
        order.sort {
          node.members[$0].key!.utf8.lexicographicallyPrecedes(node.members[$1].key!.utf8)
        }
      }
      for (position, memberIndex) in order.enumerated() {
        let member = node.members[memberIndex]
        if position > 0 { output.append(UInt8(ascii: ",")) }
        if output.isPrettyPrinted { output.appendNewline(indentLevel: depth + 1) }
        if let key = member.key {
          output.writeQuoted(key)
          if let scalar = output.takeUnreadableScalar(), unreadableKeyError == nil {
            unreadableKeyError = UnreadableScalar(scalar, in: key).keyError(
              codingPath: treeCodingPath(of: EncodingSlot(container: index, member: memberIndex)))
          }
          if output.isPrettyPrinted {
            output.append(" : ")
          } else {
            output.append(UInt8(ascii: ":"))
          }
        }
        writeTree(member.value, depth: depth + 1, into: &output)
      }
      if output.isPrettyPrinted {
        if order.isEmpty { output.append(UInt8(ascii: "\n")) }
        output.appendNewline(indentLevel: depth)
      }
      output.append(node.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
  }
}
