import Foundation

/// The state of an ``EncodingSession`` while it streams: every value is
/// written straight into one byte buffer as it is encoded.
///
/// That works whenever values are encoded in the order they appear in the
/// output, which is what synthesized `encode(to:)` implementations (and
/// nearly every hand-written one) do. Sorted keys and keys encoded twice
/// are handled here too, by reordering an object's members in place when it
/// closes.
///
/// Each operation that streaming cannot honour (a write into a container
/// after a later sibling was written, a nested container asked again under
/// a key already written) returns nil or false and changes nothing; the
/// session then hands what is written over to ``TreeState``. For that, the
/// state keeps a small record of every container it opened (where its text
/// starts, and the key of the member it fills), and how each reordered
/// object's members moved.
struct StreamingState: ~Copyable {
  var writer: ByteWriter

  /// The open containers, outermost first; `frames[0]` is the root's
  /// pseudo-container.
  var frames: MovingStack<Frame>
  /// The members of the open objects, in the order they were begun.
  var members: MovingStack<Member>
  /// The names of the members the key cache does not keep (whose `cached`
  /// is nil), in the order they were begun; kept apart so that a member is
  /// plain bits, which copying and removing need not retain or release (see
  /// ``name(ofMember:)``).
  private var uncachedNames: [String] = []
  /// Whether a key being begun may repeat one of its object's (see
  /// ``DuplicateKeyTracker``).
  private var duplicateKeys = DuplicateKeyTracker()
  /// Every container opened, by number.
  var containers: [ContainerRecord] = []
  /// What else a hand-over needs to know of the text written (see
  /// ``HandOverLog``).
  var log = HandOverLog()
  /// The coding key of the member each container fills, by container
  /// number, when its member's name does not tell it (see
  /// `Frame.hasStoredKey`); kept apart so that a record stays a plain value.
  private(set) var slotKeys: [Int: any CodingKey] = [:]
  /// Under `.convertToSnakeCase` (empty otherwise), by container number:
  /// the key cache's entry for the member each container fills, when that
  /// member's coding key is not in `slotKeys`. The member's name is a
  /// conversion; the entry holds the key's string.
  private(set) var convertedKeys: [UnsafeMutablePointer<EncodedKeyCache.Entry>?] = []
  /// The buffer an object's text is copied into while its members are
  /// reordered, kept from one object to the next.
  var reorderScratch = ByteWriter(capacity: 16)
  /// Where each member of the object being reordered starts after it,
  /// kept from one object to the next.
  var newMemberStarts: [Int] = []
  /// The sorted order of the members of objects written before, by a hash
  /// of their keys' fingerprints in the order they were begun (see
  /// `sortedOrder(ofMembersFrom:)`).
  var sortedOrders: [UInt64: [Int]] = [:]

  /// The deepest nesting written (``JKEncoder/maxDepth``).
  private let maxDepth: Int
  /// Whether a container was nested deeper than `maxDepth` (anywhere,
  /// before or after a hand-over).
  var isTooDeep = false
  /// Where the text of the key `unreadableKeyError` is about begins: a
  /// member taken out from before there takes the error out too.
  private var unreadableKeyStart = 0

  /// The names members are written under (see ``MemberNaming``).
  var naming: MemberNaming
  /// Keeps every member's coding key, not only those with an int value:
  /// a key strategy makes member names differ from the keys' strings.
  private var keepsAllKeys: Bool { naming.keepsAllKeys }
  /// Whether keys are written converted to snake_case.
  var convertsToSnakeCase: Bool { naming.convertsToSnakeCase }
  /// Where the session keeps the first conflict met; `encode` throws it.
  let conflict: UnsafeMutablePointer<EncodingSession.Conflict?>
  /// The coding key of the last member begun in each open frame, when
  /// its `hasStoredKey` says so (other entries are stale); kept apart so
  /// that a frame stays a plain value, cheap to copy, and grown only when a
  /// key is stored.
  var frameKeys: [(any CodingKey)?] = []
  /// The error for the first object key holding a scalar JSONKit's reader
  /// rejects. A key is written where no error can be thrown (a nested
  /// container's key), so the encode call throws it once it is done.
  // Last: `EncodingError` is a resilient type, whose size is known only at
  // run time, so every stored property after it would be found through the
  // type's metadata on each access.
  var unreadableKeyError: EncodingError?

  /// The storage of the records a state keeps, emptied, for the state of
  /// a later `encode` call (see ``EncodingSession``), so that it does not
  /// allocate them again.
  struct Storage: ~Copyable {
    var frames = MovingStack<Frame>(capacity: 16)
    var members = MovingStack<Member>(capacity: 64)
    var containers: [ContainerRecord] = []
  }

  /// A state for an `encode` call, its records in `storage`'s memory.
  init(
    options: JKOutputFormatting, keyStrategy: JKEncoder.KeyEncodingStrategy, maxDepth: Int,
    capacity: Int, conflict: UnsafeMutablePointer<EncodingSession.Conflict?>,
    recycling storage: consuming Storage
  ) {
    writer = ByteWriter(options: options, capacity: capacity)
    self.conflict = conflict
    self.maxDepth = maxDepth
    naming = MemberNaming(keyStrategy: keyStrategy)
    swap(&containers, &storage.containers)
    frames = storage.frames
    members = storage.members
    if containers.capacity == 0 { containers.reserveCapacity(64) }
    frames.append(
      Frame(serial: 0, isObject: false, isNested: false, parentSlot: .root, memberBase: 0))
    frames[0].count = 1
    frames[0].awaitingValue = true
    containers.append(ContainerRecord(start: -1, isObject: false, isNested: false))
    if convertsToSnakeCase { convertedKeys.append(nil) }
  }

  /// An open container.
  struct Frame: BitwiseCopyable {
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
    /// kept in a set (see ``DuplicateKeyTracker``).
    var hasFingerprintSet = false
    /// The slot the container fills in its parent.
    let parentSlot: EncodingSlot
    /// Members (or elements) begun so far.
    var count = 0
    /// Where this object's members start in `members`.
    let memberBase: Int
    /// Whether `frameKeys` holds the coding key of the last member begun:
    /// one with an int value, or any under a key strategy but those whose
    /// conversion the key cache keeps. Other keys are their member's name,
    /// or the string the member's cache entry was found by.
    var hasStoredKey = false
    /// One bit per member fingerprint (its low 7 bits): a member whose bit
    /// is clear cannot repeat an earlier key, so most members skip the scan.
    var fingerprintBits: (UInt64, UInt64) = (0, 0)
  }

  /// One member of an open object: where its name is, a fingerprint of the
  /// name for finding duplicates cheaply, and where its text starts.
  struct Member: BitwiseCopyable {
    /// The written form of the member's name in the process-wide key
    /// cache, if it is kept there; the entry also holds the string of the
    /// coding key that the name is the name of.
    let cached: UnsafeMutablePointer<EncodedKeyCache.Entry>?
    /// How many names ``StreamingState/uncachedNames`` held when the member
    /// was begun: where its own name is there when `cached` is nil.
    let namesBefore: Int
    let fingerprint: UInt64
    /// With sorted keys, the key's first bytes (``ByteWriter/sortPrefix(ofKeyQuotedAt:name:)``),
    /// which order most pairs of members without comparing their keys.
    let sortPrefix: UInt64
    let start: Int
    /// The number of the first container opened inside it, if any.
    let firstContainer: Int
  }

  /// What a hand-over needs to know of a container opened while streaming.
  struct ContainerRecord {
    /// Where its `{` or `[` is in the output; -1 once its text was taken
    /// out (its member failed, or a later one for the same key replaced it).
    var start: Int
    let isObject: Bool
    let isNested: Bool
    /// Where the positions of its members are in `log.reorderedPositions`, if
    /// it was reordered.
    var reordering = -1
  }

  /// The name of `members[index]`: the string its key is written as.
  func name(ofMember index: Int) -> String {
    let member = members[index]
    if let cached = member.cached { return cached.pointee.name }
    return uncachedNames[member.namesBefore]
  }

  /// Removes the members from `members[first]` on, with their names.
  @inline(__always)
  private mutating func removeMembers(from first: Int) {
    guard first < members.count else { return }
    let namesKept = members[first].namesBefore
    if namesKept < uncachedNames.count {
      uncachedNames.removeLast(uncachedNames.count &- namesKept)
    }
    members.removeLast(members.count &- first)
  }

  @inline(__always)
  func frameIndex(_ serial: Int) -> Int? {
    var index = frames.count - 1
    while index >= 0 {
      if frames[index].serial == serial { return index }
      index -= 1
    }
    return nil
  }

  /// Makes `slot` the place where the next bytes go: its container becomes
  /// the innermost open one (finishing any deeper ones), and the slot must be
  /// the container's last member, still without a value. False when it
  /// cannot be.
  @inline(__always)
  private mutating func prepare(_ slot: EncodingSlot) -> Bool {
    guard let index = frameIndex(slot.container),
      frames[index].count - 1 == slot.member, frames[index].awaitingValue
    else { return false }
    while frames.count - 1 > index { closeInnermost() }
    return true
  }

  private var indentLevel: Int { frames.count - 1 }

  // MARK: - Members

  /// Begins a member of the object `container` (or an element of the array)
  /// and returns the slot for its value and where the member's text starts
  /// (its separator included); nil when the container is closed.
  @inline(__always)
  mutating func beginMember<Key: CodingKey>(of container: Int, key: Key, name: MemberName)
    -> (slot: EncodingSlot, start: Int)?
  {
    guard let begun = begin(of: container, name: name.uncachedText, cached: name.cached) else {
      return nil
    }
    store(key, cached: name.cached != nil)
    if writer.unreadableScalar != nil { noteUnreadableKey(name.string, of: begun.slot) }
    return (begun.slot, begun.start)
  }

  /// Keeps the error for the key `name` of the member just begun in `slot`,
  /// which holds a scalar JSONKit's reader rejects, unless an earlier key's
  /// error is kept.
  @inline(never)
  private mutating func noteUnreadableKey(_ name: String, of slot: EncodingSlot) {
    guard let scalar = writer.takeUnreadableScalar(), unreadableKeyError == nil else { return }
    unreadableKeyStart = members.last?.start ?? writer.count
    unreadableKeyError = UnreadableScalar(scalar, in: name).keyError(
      codingPath: codingPath(of: slot) ?? [])
  }

  /// Notes that a super encoder was asked for the member in `slot`, and
  /// keeps its coding key when its name does not tell it.
  mutating func rememberSuperEncoderMember<Key: CodingKey>(_ key: Key, of slot: EncodingSlot) {
    log.superEncoderSlots.insert(slot)
    if keepsAllKeys || key.intValue != nil { log.superEncoderKeys[slot] = key }
  }

  /// Keeps the coding key of the member just begun in the innermost frame,
  /// when neither its name nor its cache entry (`cached` says whether it
  /// has one) tells it.
  @inline(__always)
  private mutating func store<Key: CodingKey>(_ key: Key, cached: Bool) {
    let index = frames.count - 1
    if (keepsAllKeys && !cached) || key.intValue != nil {
      if frameKeys.count <= index {
        frameKeys.append(contentsOf: repeatElement(nil, count: index + 1 - frameKeys.count))
      }
      frameKeys[index] = key
      frames[index].hasStoredKey = true
    } else {
      frames[index].hasStoredKey = false
    }
  }

  /// ``beginMember(of:key:name:)`` for an element of the array `container`,
  /// made separately so that elements pay for no key.
  @inline(__always)
  mutating func beginElement(of container: Int) -> (slot: EncodingSlot, start: Int)? {
    guard let begun = begin(of: container, name: nil, cached: nil) else { return nil }
    return (begun.slot, begun.start)
  }

  /// Begins the member `name` of the object `container` for a nested
  /// container. Foundation hands a nested container asked for under a key
  /// that already holds an object (or array) that same object, so that both
  /// containers write into it; streaming cannot reopen a value it has
  /// written, so it returns nil for such a request, having written nothing.
  mutating func beginContainerMember<Key: CodingKey>(
    of container: Int, key: Key, name: MemberName
  ) -> EncodingSlot? {
    guard let begun = begin(of: container, name: name.uncachedText, cached: name.cached) else {
      return nil
    }
    if begun.mayRepeat, repeatsEarlierMember(begun.slot) {
      // Take the member out again before its key replaces the frame's
      // stored key (that of the member before); its name is an earlier
      // member's, already checked.
      _ = writer.takeUnreadableScalar()
      removeLastMember(begun.slot, startingAt: begun.start)
      return nil
    }
    store(key, cached: name.cached != nil)
    if writer.unreadableScalar != nil { noteUnreadableKey(name.string, of: begun.slot) }
    return begun.slot
  }

  /// Whether the member in `slot`, just begun, has the key of an earlier
  /// member of its object.
  private func repeatsEarlierMember(_ slot: EncodingSlot) -> Bool {
    guard let index = frameIndex(slot.container), let last = members.last else { return false }
    var other = frames[index].memberBase
    while other < members.count - 1 {
      if members[other].fingerprint == last.fingerprint,
        name(ofMember: other) == name(ofMember: members.count - 1)
      {
        return true
      }
      other += 1
    }
    return false
  }

  /// Begins a member (or element); also says whether an earlier member of
  /// the object may have the same key.
  @inline(__always)
  private mutating func begin(
    of container: Int, name: String?, cached: UnsafeMutablePointer<EncodedKeyCache.Entry>?
  ) -> (slot: EncodingSlot, start: Int, mayRepeat: Bool)? {
    guard let index = frameIndex(container) else { return nil }
    while frames.count - 1 > index { closeInnermost() }
    if frames[index].awaitingValue { writeEmptyObject() }
    let memberStart = writer.count
    var mayRepeat = false
    writer.beginMember(isFirst: frames[index].count == 0, indentLevel: indentLevel)
    if let name {
      let start = writer.count
      let fingerprint: UInt64
      let sortPrefix: UInt64
      if let cached {
        writer.append(cached.pointee.quoted, count: cached.pointee.quotedCount)
        fingerprint = cached.pointee.fingerprint
        sortPrefix = cached.pointee.sortPrefix
      } else {
        writer.writeQuoted(name)
        fingerprint = writer.fingerprint(ofKey: name, quotedFrom: start)
        sortPrefix = writer.sortsKeys ? writer.sortPrefix(ofKeyQuotedAt: start, name: name) : 0
      }
      mayRepeat = duplicateKeys.note(fingerprint, in: &frames[index], members: members)
      members.append(
        Member(
          cached: cached, namesBefore: uncachedNames.count, fingerprint: fingerprint,
          sortPrefix: sortPrefix, start: start, firstContainer: containers.count))
      if cached == nil { uncachedNames.append(name) }
      writer.writeKeySeparator()
    }
    frames[index].count += 1
    frames[index].awaitingValue = true
    return (
      EncodingSlot(container: container, member: frames[index].count - 1), memberStart, mayRepeat
    )
  }

  // MARK: - Values

  /// Writes a scalar into `slot`; false when streaming cannot.
  @inline(__always)
  mutating func writeScalar(into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void)
    rethrows -> Bool
  {
    guard prepare(slot) else { return false }
    try write(&writer)
    frames[frames.count - 1].awaitingValue = false
    return true
  }

  /// Writes a whole value's text into `slot`, as ``writeScalar(into:_:)``
  /// does, telling `write` how deeply the value's line is indented.
  mutating func writeIndented(
    into slot: EncodingSlot, _ write: (inout ByteWriter, Int) throws -> Void
  ) rethrows -> Bool {
    guard prepare(slot) else { return false }
    try write(&writer, indentLevel)
    frames[frames.count - 1].awaitingValue = false
    return true
  }

  /// Opens an array or object in `slot`, or returns the one already there
  /// (an encoder may ask for its container more than once); nil when
  /// streaming cannot.
  mutating func openContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool) -> Int? {
    if let index = frameIndex(slot.container), index + 1 < frames.count,
      frames[index + 1].parentSlot == slot, frames[index + 1].isObject == isObject
    {
      while frames.count - 1 > index + 1 { closeInnermost() }
      return frames[index + 1].serial
    }
    guard prepare(slot) else { return nil }
    let parent = frames.count - 1
    frames[parent].awaitingValue = false
    let serial = containers.count
    if frames[parent].hasStoredKey, let key = frameKeys[parent] { slotKeys[serial] = key }
    if convertsToSnakeCase {
      // The container's member was begun last (`prepare`).
      convertedKeys.append(
        frames[parent].isObject && !frames[parent].hasStoredKey ? members.last?.cached : nil)
    }
    containers.append(
      ContainerRecord(start: writer.count, isObject: isObject, isNested: isNested))
    writer.openContainer(isObject: isObject)
    frames.append(
      Frame(
        serial: serial, isObject: isObject, isNested: isNested, parentSlot: slot,
        memberBase: members.count))
    if frames.count - 1 > maxDepth { isTooDeep = true }
    return serial
  }

  /// Takes out the member in `slot`, whose text starts at `start`, and all
  /// that was written for it; false when members were begun after it, which
  /// only the tree can take it out from between.
  @discardableResult
  mutating func discardMember(_ slot: EncodingSlot, startingAt start: Int) -> Bool {
    guard let index = frameIndex(slot.container), frames[index].count - 1 == slot.member,
      // The frame keeps only its last member's coding key: once that member
      // is gone, only the tree knows the key of the one before (whose name
      // does not tell it under a key strategy).
      !(frames[index].hasStoredKey || (keepsAllKeys && frames[index].isObject))
        || slot.member == 0
    else {
      return false
    }
    removeLastMember(slot, startingAt: start)
    return true
  }

  /// Takes out the member in `slot`, the last one begun in its container,
  /// whose text starts at `start`, and all that was written for it.
  private mutating func removeLastMember(_ slot: EncodingSlot, startingAt start: Int) {
    guard let index = frameIndex(slot.container) else { return }
    takeOutText(from: start, after: index)
    if frames[index].isObject { removeMembers(from: members.count - 1) }
    frames[index].count -= 1
    frames[index].awaitingValue = false
    if frames[index].count == 0 { frames[index].hasStoredKey = false }
  }

  /// Takes out the text from `start` on, which belongs to the last member
  /// of the frame `index`, with the frames inside it and the containers
  /// opened there.
  private mutating func takeOutText(from start: Int, after index: Int) {
    if index + 1 < frames.count {
      removeMembers(from: frames[index + 1].memberBase)
      for inner in (index + 1)..<frames.count { duplicateKeys.leave(frames[inner]) }
      frames.removeLast(frames.count - (index + 1))
    }
    // The containers opened for the member come last, and their text lies
    // after its start.
    var serial = containers.count - 1
    while serial > 0, containers[serial].start >= start || containers[serial].start < 0 {
      containers[serial].start = -1
      serial -= 1
    }
    writer.truncate(to: start)
    if let last = log.placeholderStarts.last, last >= start {
      log.placeholderStarts.removeAll { $0 >= start }
    }
    // Every key written after `start` belonged to the member, so no error
    // for a later key was passed over.
    if unreadableKeyError != nil, unreadableKeyStart >= start { unreadableKeyError = nil }
  }

  /// Where the value of `slot` will start, when nothing is written there
  /// yet and its container is the innermost (so the value comes next); nil
  /// otherwise.
  func unwrittenValueStart(of slot: EncodingSlot) -> Int? {
    let index = frames.count - 1
    guard index >= 0, frames[index].serial == slot.container,
      frames[index].count - 1 == slot.member, frames[index].awaitingValue
    else { return nil }
    return writer.count
  }

  /// Takes out all that was written for the value of `slot` from `start`
  /// (``unwrittenValueStart(of:)``), leaving the slot to be written again;
  /// false when members were begun after it in its container, which only
  /// the tree can take it out from between.
  mutating func discardValue(of slot: EncodingSlot, startingAt start: Int) -> Bool {
    guard let index = frameIndex(slot.container), frames[index].count - 1 == slot.member,
      start <= writer.count
    else { return false }
    takeOutText(from: start, after: index)
    frames[index].awaitingValue = true
    return true
  }

  /// How deep the open container `container` nests: 1 for the root
  /// value's; nil when it is closed.
  func depth(ofContainer container: Int) -> Int? {
    frameIndex(container)
  }

  /// Whether nothing has been written into `slot` yet.
  func isUnwritten(_ slot: EncodingSlot) -> Bool {
    guard let index = frameIndex(slot.container) else { return false }
    return frames[index].count - 1 == slot.member && frames[index].awaitingValue
  }

  /// The number of members begun in `container`; nil when it is closed.
  func count(of container: Int) -> Int? {
    guard let index = frameIndex(container) else { return nil }
    return frames[index].count
  }

  /// The number of open frames: the innermost open container is the
  /// frame `openDepth - 1`.
  @inline(__always)
  var openDepth: Int { frames.count }

  /// Whether no member was begun in the container of `slot` after it, when
  /// that container was the frame `frame` as the member was begun; nil when
  /// the container is closed.
  @inline(__always)
  func isLastMember(_ slot: EncodingSlot, inFrame frame: Int) -> Bool? {
    if frame >= 0, frame < frames.count, frames[frame].serial == slot.container {
      return frames[frame].count == slot.member + 1
    }
    guard let index = frameIndex(slot.container) else { return nil }
    return frames[index].count == slot.member + 1
  }

  /// Foundation writes `{}` for a value that encoded nothing. Its place
  /// is noted: the value may still come, through an encoder kept for it.
  private mutating func writeEmptyObject() {
    log.placeholderStarts.append(writer.count)
    writer.writeEmptyContainer(isObject: true, indentLevel: indentLevel)
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
      reorderMembers(of: frame, indentLevel: level)
    }
    writer.closeContainer(
      isObject: frame.isObject, isEmpty: frame.count == 0, indentLevel: level - 1)
    if frame.isObject { removeMembers(from: frame.memberBase) }
    duplicateKeys.leave(frame)
  }

  /// Finishes streaming: closes every container. Returns false when the
  /// root value encoded nothing.
  mutating func finish() -> Bool {
    while frames.count > 1 { closeInnermost() }
    return !frames[0].awaitingValue
  }

  /// Ends streaming after a hand-over: with no open container, every
  /// operation fails from now on.
  mutating func stop() {
    frames.removeAll()
    frameKeys.removeAll()
    members.removeAll()
    uncachedNames.removeAll()
  }

  /// Ends the state, giving the memory of its records back emptied, unless
  /// a record grew past `limit` entries (a large document's, which is not
  /// kept idle).
  consuming func recycledStorage(limit: Int) -> Storage {
    var storage = Storage(frames: frames, members: members, containers: [])
    swap(&storage.containers, &containers)
    storage.frames.empty(keepingCapacityUpTo: limit)
    storage.members.empty(keepingCapacityUpTo: limit)
    storage.containers.empty(keepingCapacityUpTo: limit)
    return storage
  }

  /// The output, or the text written so far for a hand-over; nothing may
  /// be written afterwards.
  mutating func takeWriter() -> ByteWriter {
    var output = ByteWriter(options: [], capacity: 16)
    swap(&output, &writer)
    return output
  }

}

extension Array {
  /// Removes every element, keeping the memory for reuse unless it has
  /// room for more than `limit` elements (a large document's, which is not
  /// kept idle).
  mutating func empty(keepingCapacityUpTo limit: Int) {
    if capacity > limit { self = [] } else { removeAll(keepingCapacity: true) }
  }
}
