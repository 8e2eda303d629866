import Foundation

/// A place a value is written to: the `member`-th member (or element)
/// begun in the container numbered `container`. Containers are numbered in
/// the order they are opened; 0 holds only the top-level value.
struct CBORSlot: Hashable {
  var container: Int
  var member: Int

  /// The top-level value.
  static let root = CBORSlot(container: 0, member: 0)
}

/// Where a container was opened: the slot it fills, and whether a
/// container opened it as a nested container.
struct CBORContainerRecord {
  var parent: CBORSlot
  var isNested: Bool
}

/// An array or map still open while streaming.
struct CBORFrame {
  /// The container's number.
  var serial: Int
  /// Where its head, one byte until it closes, was written.
  var start: Int
  /// The members (or elements) begun.
  var count: Int
  /// Where the key of the last member begun starts.
  var keyStart: Int
  /// A filter of the fingerprints of the keys begun: four words, one bit
  /// per key.
  var bloom: (UInt64, UInt64, UInt64, UInt64)
  /// Where this map's key fingerprints start in the session's list.
  var fingerprintBase: Int
  var isMap: Bool
  /// Whether a container opened it as a nested container, whose values'
  /// coding paths, as in Foundation, leave out its key.
  var isNested: Bool
  /// Whether the last member begun has no value yet.
  var awaitingValue: Bool
  /// Whether the session's `frameKeys` holds the coding key of the last
  /// member begun: one with an int value, or any under a key strategy
  /// (whose written name is not the key). Other keys are read back from
  /// the bytes written.
  var hasStoredKey = false
}

/// One `JKCBOREncoder.encode` call, shared by its encoders and containers.
///
/// It streams for as long as values come in the order they are written:
/// each array or map gets a one-byte head when it opens, patched with its
/// count when it closes (the content moved right when the count needs a
/// longer head), and it closes when a write goes to an enclosing container.
/// At the first write that streaming cannot honour (a container used after
/// a later sibling was begun, a key begun twice in one map, a second value
/// for one place, a value that failed), the session reads what is written
/// back into a tree (``CBOREncodingTree``) and carries on there; nothing
/// is encoded twice.
final class CBOREncodingSession {
  let userInfo: [CodingUserInfoKey: Any]
  let maxDepth: Int
  /// The limit named in the depth errors: the encoder's `maxDepth`, and
  /// the ceiling when it is above it (a shared instance's session, which
  /// has only the depth left, names its encoder's).
  let depthLimitText: String
  let keyStrategy: JKCBOREncoder.KeyEncodingStrategy
  /// The output's first bytes: tag 55799 when self-described, then tag
  /// 256 while strings are referenced in the session.
  private(set) var prefixCount: Int
  /// Whether keys are named by the strategy, and so need storing for
  /// coding paths: their written name does not tell them.
  let storesKeys: Bool
  /// The class instances met, when they are shared.
  let sharing: CBORInstanceSharing?
  /// The coding path of this session's top-level value: empty, except in
  /// the session of a shared instance.
  let pathPrefix: [any CodingKey]
  /// What the session was made with, for the sessions of shared instances.
  private let settings: JKCBOREncoder.Settings
  /// The entries of this encode's plain-data keys, by type and bits.
  @exclusivity(unchecked) private var plainKeys = CBORPlainKeys()
  /// The names members are written under (see ``MemberNaming``).
  @exclusivity(unchecked) private var naming: MemberNaming
  /// The key type of the standard library's dictionaries (``CBORDictionaryKey``).
  private let dictionaryKeyType = CBORDictionaryKey.type

  /// Whether the session writes the repeated strings of
  /// `.stringReferences` as references itself, in the order it writes
  /// them: without instance sharing or deterministic order, which move
  /// what is written, and until a hand-over, after which the tree writes
  /// in its own order and `JKCBOREncoder` numbers the strings in a pass
  /// over the output (``CBOROutputRewriter``).
  @exclusivity(unchecked) private(set) var referencesStrings = false
  /// The namespace's strings while ``referencesStrings``.
  @exclusivity(unchecked) private var stringTable: CBORStringTable

  /// The output, and after a hand-over the tree's scalars.
  @exclusivity(unchecked) var writer: ByteWriter
  /// The open containers, outermost (the top-level pseudo-container) first.
  @exclusivity(unchecked) var frames: UnsafeMutablePointer<CBORFrame>
  @exclusivity(unchecked) private var frameCapacity = 16
  /// The number of open frames; 0 once streaming handed over.
  @exclusivity(unchecked) var frameCount = 1
  /// The coding key of each open frame's last member, when the frame's
  /// `hasStoredKey` says so.
  @exclusivity(unchecked) var frameKeys: [(any CodingKey)?] = []
  /// The coding key of the member each container fills, by container
  /// number, when its member's name is not its key (see
  /// `CBORFrame.hasStoredKey`); kept apart so that a record stays a plain
  /// value.
  @exclusivity(unchecked) var containerKeys: [Int: any CodingKey] = [:]
  /// The fingerprints of the keys of the open maps, innermost last.
  @exclusivity(unchecked) private var fingerprints: [UInt64] = []
  /// Where each container was opened, by container number.
  @exclusivity(unchecked) var containers = [
    CBORContainerRecord(parent: CBORSlot(container: -1, member: 0), isNested: false)
  ]
  /// The maps of `[Int: V]` dictionaries, whose keys are integers.
  @exclusivity(unchecked) var integerKeyedMaps: Set<Int> = []
  /// The maps of `[String: V]` dictionaries encoded as values under a key
  /// strategy, whose keys are written as they are.
  @exclusivity(unchecked) var keptKeyMaps: Set<Int> = []
  /// The slot a single-value container is encoding a value into, if any.
  @exclusivity(unchecked) var singleValueSlot: CBORSlot?
  /// The type of the value whose `encode(to:)` was called last.
  @exclusivity(unchecked) var encodingType: Any.Type = Never.self
  /// The slots that got an empty map for want of a value while streaming,
  /// which a later write may still fill.
  @exclusivity(unchecked) var placeholders: Set<CBORSlot> = []
  /// Set at the hand-over.
  @exclusivity(unchecked) var tree: CBOREncodingTree?
  /// The first write where Foundation traps, which makes `encode` throw.
  @exclusivity(unchecked) var conflict: EncodingError.Context?
  /// Whether containers nest deeper than ``maxDepth``.
  @exclusivity(unchecked) var isTooDeep = false

  /// The makers of keyed containers, one per key type met.
  @exclusivity(unchecked) private var keyTypes = CodingKeyTypes()
  /// The container each keyed container writes, by the container's slot
  /// (see ``SpareKeyedContainer``).
  @exclusivity(unchecked) var keyedContainerMaps: [Int] = []
  @exclusivity(unchecked) private(set) var keepsSpareContainers = true

  convenience init(settings: JKCBOREncoder.Settings, capacity: Int) {
    let limit = EncodingDepth.effective(settings.maxDepth)
    self.init(
      settings: settings, capacity: capacity,
      sharing: settings.options.contains(.sharedReferences) ? CBORInstanceSharing() : nil,
      pathPrefix: [],
      depthLimitText: limit == settings.maxDepth
        ? "maxDepth (\(limit))"
        : "maxDepth (\(settings.maxDepth); arrays and maps nest at most \(limit) deep)")
  }

  /// A session for the shared instance that `parent` writes into `slot`,
  /// with the rest of `parent`'s depth and its coding path.
  convenience init(encodingInstanceIn parent: CBOREncodingSession, at slot: CBORSlot) {
    var settings = parent.settings
    settings.options.remove(.selfDescribed)
    settings.maxDepth = parent.maxDepth - parent.depth(ofContainer: slot.container)
    self.init(
      settings: settings, capacity: 256, sharing: parent.sharing,
      pathPrefix: parent.codingPath(of: slot), depthLimitText: parent.depthLimitText)
  }

  private init(
    settings: JKCBOREncoder.Settings, capacity: Int, sharing: CBORInstanceSharing?,
    pathPrefix: [any CodingKey], depthLimitText: String
  ) {
    self.depthLimitText = depthLimitText
    self.settings = settings
    self.sharing = sharing
    self.pathPrefix = pathPrefix
    userInfo = settings.userInfo.asCoderUserInfo
    maxDepth = EncodingDepth.effective(settings.maxDepth)
    keyStrategy = settings.keyEncodingStrategy
    naming = MemberNaming(keyStrategy: settings.keyEncodingStrategy)
    storesKeys = naming.keepsAllKeys
    writer = ByteWriter(capacity: capacity)
    if settings.options.contains(.selfDescribed) {
      writer.appendCBORHead(major: 6, CBORTags.selfDescribed)
    }
    referencesStrings =
      settings.options.contains(.stringReferences)
      && settings.options.isDisjoint(with: [.sharedReferences, .deterministic])
    if referencesStrings { writer.appendCBORHead(major: 6, CBORTags.stringNamespace) }
    stringTable = CBORStringTable(isUsed: referencesStrings)
    prefixCount = writer.count
    frames = .allocate(capacity: frameCapacity)
    frames.initialize(
      to: CBORFrame(
        serial: 0, start: -1, count: 1, keyStart: 0, bloom: (0, 0, 0, 0), fingerprintBase: 0,
        isMap: false,
        isNested: false, awaitingValue: true))
  }

  deinit {
    frames.deallocate()
    stringTable.deallocate()
    plainKeys.deallocate()
  }

  /// Ends the encode: the makers let go of the containers they keep to
  /// give out again, which hold this session, and keep no more.
  func dropSpareContainers() {
    keyTypes.dropSpareContainers()
    keepsSpareContainers = false
  }

  /// A keyed container writing the map `container`, made by the maker kept
  /// for `Key`.
  @inline(__always)
  func keyedContainer<Key: CodingKey>(_ container: Int, keyedBy key: Key.Type)
    -> KeyedEncodingContainer<Key>
  {
    let maker = keyTypes.keyType(key, CBORKeyedContainerMaker<Key>.make).maker
    return maker.container(self, container)
  }

  // MARK: - Streaming

  /// The index of the open frame of `container`.
  @inline(__always)
  private func frameIndex(_ container: Int) -> Int? {
    var index = frameCount &- 1
    while index >= 0 {
      if frames[index].serial == container { return index }
      index &-= 1
    }
    return nil
  }

  /// Closes every frame deeper than `index`.
  @inline(__always)
  func closeFrames(above index: Int) {
    while frameCount &- 1 > index { closeInnermost() }
  }

  /// Closes the innermost frame: an empty map for a member left without a
  /// value, then the head with the count.
  private func closeInnermost() {
    frameCount &-= 1
    let frame = frames[frameCount]
    if frame.awaitingValue {
      writePlaceholder(CBORSlot(container: frame.serial, member: frame.count &- 1))
    }
    if frame.isMap, fingerprints.count > frame.fingerprintBase {
      fingerprints.removeSubrange(frame.fingerprintBase...)
    }
    writer.patchCBORContainerHead(
      at: frame.start, major: frame.isMap ? 5 : 4, count: UInt64(frame.count))
  }

  /// Writes an empty map for `slot`, whose value may still come.
  private func writePlaceholder(_ slot: CBORSlot) {
    writer.append(0xA0)
    placeholders.insert(slot)
  }

  /// The frame of `container` made ready for a new member: deeper frames
  /// closed, an empty map written for a last member without a value.
  @inline(__always)
  private func frameForNewMember(_ container: Int) -> Int? {
    let top = frameCount &- 1
    var index = top
    if top < 0 || frames[top].serial != container {
      guard let found = frameIndex(container) else { return nil }
      index = found
    }
    return index
  }

  @inline(__always)
  private func finishBeginning(_ index: Int) -> CBORSlot {
    closeFrames(above: index)
    if frames[index].awaitingValue {
      writePlaceholder(CBORSlot(container: frames[index].serial, member: frames[index].count &- 1))
    }
    frames[index].count &+= 1
    frames[index].awaitingValue = true
    frames[index].hasStoredKey = false
    return CBORSlot(container: frames[index].serial, member: frames[index].count &- 1)
  }

  /// Whether the map of frame `index` has a key with `fingerprint`.
  private func hasFingerprint(_ fingerprint: UInt64, inFrame index: Int) -> Bool {
    let end = index &+ 1 < frameCount ? frames[index &+ 1].fingerprintBase : fingerprints.count
    var position = frames[index].fingerprintBase
    while position < end {
      if fingerprints[position] == fingerprint { return true }
      position &+= 1
    }
    return false
  }

  /// Begins a member of the map `container` under the text key `name`;
  /// nil when streaming cannot (the map is closed, or may have the key).
  @inline(__always)
  private func streamMember(
    of container: Int, name: UnsafeRawBufferPointer, fingerprint: UInt64?,
    isKeptName: Bool = true
  ) -> CBORSlot? {
    guard let index = frameForNewMember(container) else { return nil }
    if let fingerprint {
      // The top bits, which FNV-1a mixes best.
      let bit: UInt64 = 1 << ((fingerprint >> 56) & 63)
      let isNew: Bool
      switch fingerprint >> 62 {
      case 0:
        isNew = frames[index].bloom.0 & bit == 0
        frames[index].bloom.0 |= bit
      case 1:
        isNew = frames[index].bloom.1 & bit == 0
        frames[index].bloom.1 |= bit
      case 2:
        isNew = frames[index].bloom.2 & bit == 0
        frames[index].bloom.2 |= bit
      default:
        isNew = frames[index].bloom.3 & bit == 0
        frames[index].bloom.3 |= bit
      }
      if !isNew, hasFingerprint(fingerprint, inFrame: index) { return nil }
      closeFrames(above: index)
      fingerprints.append(fingerprint)
    }
    let slot = finishBeginning(index)
    frames[index].keyStart = writer.count
    if referencesStrings, let number = referenceNumber(ofKey: name, isKeptName: isKeptName) {
      writer.appendCBORStringReference(number)
    } else {
      writer.appendCBORHead(major: 3, UInt64(name.count))
      if let base = name.baseAddress { writer.append(base, count: name.count) }
    }
    return slot
  }

  /// Begins an element of the array `container`; nil when it is closed.
  @inline(__always)
  private func streamElement(of container: Int) -> CBORSlot? {
    guard let index = frameForNewMember(container) else { return nil }
    return finishBeginning(index)
  }

  /// Makes `slot` ready for its value; false when streaming cannot write
  /// it there.
  @inline(__always)
  private func prepareValue(_ slot: CBORSlot) -> Bool {
    let top = frameCount &- 1
    if top >= 0, frames[top].serial == slot.container, frames[top].awaitingValue,
      frames[top].count &- 1 == slot.member
    {
      frames[top].awaitingValue = false
      return true
    }
    return prepareValueDeeper(slot)
  }

  private func prepareValueDeeper(_ slot: CBORSlot) -> Bool {
    guard let index = frameIndex(slot.container), frames[index].awaitingValue,
      frames[index].count &- 1 == slot.member
    else { return false }
    closeFrames(above: index)
    frames[index].awaitingValue = false
    return true
  }

  // MARK: - Members

  /// Begins the member `key` of the map `container`: an integer key for a
  /// dictionary's integer keys, the key as it is for a dictionary's string
  /// keys, else the strategy's name for it. A key begun before in the map
  /// hands over to the tree, where the later value replaces the earlier
  /// one, or with `keepingValue` (a nested container) shares it.
  @inline(__always)
  func beginMember<Key: CodingKey>(of container: Int, key: Key, keepingValue: Bool = false)
    -> CBORSlot
  {
    if !storesKeys, ObjectIdentifier(Key.self) != dictionaryKeyType {
      let entry: UnsafeMutablePointer<EncodedKeyCache.Entry>?
      if CBORPlainKeys.keeps(Key.self) {
        let identity = CBORPlainKeys.identity(of: key)
        entry = plainKeys.entry(of: identity) ?? plainKeyEntry(key, identity)
      } else {
        entry = cachedEntry(of: key)
      }
      if let entry, let slot = streamMember(of: container, cached: entry) { return slot }
    }
    return beginMemberSlowly(of: container, key: key, keepingValue: keepingValue)
  }

  /// Begins a member under the key cache's `entry`; nil when streaming
  /// cannot.
  @inline(__always)
  private func streamMember(
    of container: Int, cached entry: UnsafeMutablePointer<EncodedKeyCache.Entry>
  ) -> CBORSlot? {
    let name = UnsafeRawBufferPointer(
      start: entry.pointee.quoted + 1, count: entry.pointee.quotedCount &- 2)
    return streamMember(of: container, name: name, fingerprint: entry.pointee.fingerprint)
  }

  /// The key cache's entry for `key`, a plain-data key met for the first
  /// time in this encode (or displaced), kept in ``plainKeys`` when it has
  /// no int value (one with an int value takes the slow path, which stores
  /// it for paths); nil when the cache has none.
  @inline(never)
  private func plainKeyEntry<Key: CodingKey>(
    _ key: Key, _ identity: (type: UInt, bits: UInt64)
  ) -> UnsafeMutablePointer<EncodedKeyCache.Entry>? {
    guard let entry = cachedEntry(of: key) else { return nil }
    plainKeys.keep(entry, for: identity)
    return entry
  }

  /// The key cache's entry for `key`, found by its string, when it has no
  /// int value: a key with one keeps it in paths, through the slow path,
  /// which stores it (the cache is found by the key's string alone).
  @inline(__always)
  private func cachedEntry<Key: CodingKey>(of key: Key)
    -> UnsafeMutablePointer<EncodedKeyCache.Entry>?
  {
    guard key.intValue == nil else { return nil }
    return naming.cachedEntry(ofKey: key.stringValue)
  }

  @inline(never)
  private func beginMemberSlowly<Key: CodingKey>(
    of container: Int, key: Key, keepingValue: Bool
  ) -> CBORSlot {
    if ObjectIdentifier(Key.self) == dictionaryKeyType {
      if !integerKeyedMaps.isEmpty, integerKeyedMaps.contains(container),
        let integer = key.intValue
      {
        return beginIntegerMember(of: container, Int64(integer))
      }
      if case .useDefaultKeys = keyStrategy {
        // A key that reads as an integer keeps its int value in paths.
        return beginTextMember(
          of: container, key.stringValue, codingKey: key.intValue != nil ? key : nil,
          isUnique: true)
      }
      if !keptKeyMaps.isEmpty, keptKeyMaps.contains(container) {
        return beginTextMember(of: container, key.stringValue, codingKey: nil, isUnique: true)
      }
      // Under a key strategy, the keys of a dictionary that encodes itself
      // (its `encode(to:)` called with an encoder) are converted as any
      // other key, as Foundation does.
    }
    let keepsKey = storesKeys || key.intValue != nil
    let name: String
    var entry: UnsafeMutablePointer<EncodedKeyCache.Entry>?
    if case .custom(let transform) = keyStrategy {
      name = transform(codingPath(ofContainer: container) + [key]).stringValue
    } else {
      let named = naming.name(of: key)
      name = named.string
      entry = named.cached
    }
    if let entry {
      let bytes = UnsafeRawBufferPointer(
        start: entry.pointee.quoted + 1, count: entry.pointee.quotedCount &- 2)
      if let slot = streamMember(of: container, name: bytes, fingerprint: entry.pointee.fingerprint)
      {
        if keepsKey { storeKey(key, ofFrame: frameIndex(container)) }
        return slot
      }
    }
    return beginTextMember(
      of: container, name, codingKey: keepsKey ? key : nil, isUnique: false,
      keepingValue: keepingValue)
  }

  /// Begins a member under the text key `name`; `isUnique` says that no
  /// other member of the map can have it (a dictionary's key).
  func beginTextMember(
    of container: Int, _ name: String, codingKey: (any CodingKey)?, isUnique: Bool,
    keepingValue: Bool = false
  ) -> CBORSlot {
    let fingerprint = isUnique ? nil : Self.fingerprint(ofName: name)
    var bytes = name
    let slot = bytes.withUTF8 {
      streamMember(
        of: container, name: UnsafeRawBufferPointer($0), fingerprint: fingerprint,
        isKeptName: false)
    }
    if let slot {
      if let codingKey { storeKey(codingKey, ofFrame: frameIndex(container)) }
      return slot
    }
    return handOver().beginMember(
      of: container, key: .text(name), codingKey: codingKey, keepingValue: keepingValue)
  }

  /// Begins a member under an integer key.
  func beginIntegerMember(of container: Int, _ integer: Int64) -> CBORSlot {
    if let index = frameForNewMember(container) {
      let slot = finishBeginning(index)
      frames[index].keyStart = writer.count
      writer.appendCBORInteger(integer)
      return slot
    }
    return handOver().beginMember(
      of: container, key: CBORTreeKey(integer), codingKey: nil, keepingValue: false)
  }

  /// Keeps the stored key of the innermost frame's last member as that of
  /// `container`, just opened in it.
  @inline(never)
  private func keepKey(ofContainer container: Int) {
    containerKeys[container] = frameKeys[frameCount &- 1]
  }

  private func storeKey(_ key: any CodingKey, ofFrame index: Int?) {
    guard let index else { return }
    while frameKeys.count <= index { frameKeys.append(nil) }
    frameKeys[index] = key
    frames[index].hasStoredKey = true
  }

  /// The fingerprint streaming finds repeated keys by, as the key cache
  /// makes it: equal for names Swift's strings hold equal.
  static func fingerprint(ofName name: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    let quote = UInt64(UInt8(ascii: "\""))
    hash = (hash ^ quote) &* 0x0000_0100_0000_01B3
    for byte in name.utf8 {
      guard byte < 0x80 else {
        return ByteWriter(capacity: 16).fingerprint(ofNonASCIIKey: name)
      }
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return (hash ^ quote) &* 0x0000_0100_0000_01B3
  }

  /// Begins the next element of the array `container`.
  @inline(__always)
  func beginElement(of container: Int) -> CBORSlot {
    if let slot = streamElement(of: container) { return slot }
    return handOver().beginMember(of: container, key: nil, codingKey: nil, keepingValue: false)
  }

  // MARK: - Values

  /// Writes one whole item into `slot`. `holdsNoStrings` says that it is
  /// made of numbers, simple values and tags alone, which string
  /// references need not look through.
  @inline(__always)
  func writeItem(
    into slot: CBORSlot, holdsNoStrings: Bool = false, _ write: (inout ByteWriter) -> Void
  ) {
    if prepareValue(slot) {
      guard !holdsNoStrings, referencesStrings else { return write(&writer) }
      let start = writer.count
      write(&writer)
      return writer.referenceCBORStrings(from: start, in: &stringTable)
    }
    handOver().writeItem(into: slot, write)
  }

  /// The number of the key `name` in the string table, which adds it when
  /// it is new and long enough. `isKeptName` says that its bytes are
  /// ``EncodedKeyCache``'s, kept for the whole process, and found by address.
  @inline(never)
  private func referenceNumber(ofKey name: UnsafeRawBufferPointer, isKeptName: Bool) -> Int? {
    isKeptName ? stringTable.reference(name: name) : stringTable.reference(name, isText: true)
  }

  /// Opens an array or a map in `slot` and returns its number; asked again
  /// for the one open there, returns that one.
  func openContainer(in slot: CBORSlot, isMap: Bool, isNested: Bool = false) -> Int {
    if prepareValue(slot) {
      let serial = containers.count
      containers.append(CBORContainerRecord(parent: slot, isNested: isNested))
      // A member whose name is not its key: the key is kept for the paths
      // through the container once it is closed and read back.
      if frames[frameCount &- 1].hasStoredKey { keepKey(ofContainer: serial) }
      if frameCount == frameCapacity { growFrames() }
      frames[frameCount] = CBORFrame(
        serial: serial, start: writer.count, count: 0, keyStart: 0, bloom: (0, 0, 0, 0),
        fingerprintBase: fingerprints.count, isMap: isMap, isNested: isNested, awaitingValue: false)
      writer.append(isMap ? 0xA0 : 0x80)
      if frameCount > maxDepth { isTooDeep = true }
      frameCount &+= 1
      return serial
    }
    if let index = frameIndex(slot.container), index &+ 1 < frameCount,
      containers[frames[index &+ 1].serial].parent == slot, frames[index &+ 1].isMap == isMap
    {
      closeFrames(above: index &+ 1)
      return frames[index &+ 1].serial
    }
    return handOver().openContainer(in: slot, isMap: isMap, isNested: isNested)
  }

  /// Opens the map of a keyed container by keys of type `Key`.
  @inline(__always)
  func openMap<Key: CodingKey>(in slot: CBORSlot, keyedBy type: Key.Type) -> Int {
    guard ObjectIdentifier(Key.self) == dictionaryKeyType else {
      return openContainer(in: slot, isMap: true)
    }
    return openDictionaryMap(in: slot)
  }

  /// Opens the map of a dictionary, noting that of an `[Int: V]`, whose
  /// keys are integers, and, under a key strategy, that of a `[String: V]`
  /// encoded as a value, whose keys are written as they are.
  @inline(never)
  private func openDictionaryMap(in slot: CBORSlot) -> Int {
    // The type of the value being encoded tells a dictionary encoded as a
    // value from one whose `encode(to:)` a later value calls with an
    // encoder: it is used once.
    let type = encodingType
    encodingType = Never.self
    if type is any CBORIntegerKeyedDictionary.Type {
      let container = openContainer(in: slot, isMap: true)
      integerKeyedMaps.insert(container)
      return container
    }
    if storesKeys, type is any CBORStringKeyedDictionary.Type {
      // Foundation writes these keys as they are, whatever the strategy,
      // through the encoder that encodes the dictionary: its values get
      // that encoder's path and their keys, which leaves out the
      // dictionary's own key when a container encodes it (rather than the
      // slot's own single-value container, or such a dictionary, which
      // encodes each value with an encoder of its own).
      let byOwnEncoder =
        slot == singleValueSlot || (!keptKeyMaps.isEmpty && keptKeyMaps.contains(slot.container))
      let container = openContainer(in: slot, isMap: true, isNested: !byOwnEncoder)
      keptKeyMaps.insert(container)
      return container
    }
    return openContainer(in: slot, isMap: true)
  }

  @inline(never)
  private func growFrames() {
    let larger = UnsafeMutablePointer<CBORFrame>.allocate(capacity: 2 * frameCapacity)
    larger.moveInitialize(from: frames, count: frameCount)
    frames.deallocate()
    frames = larger
    frameCapacity *= 2
  }

  /// Whether nothing is written in `slot` yet.
  func isUnwritten(_ slot: CBORSlot) -> Bool {
    if let tree { return tree.isUnwritten(slot) }
    guard let index = frameIndex(slot.container) else { return false }
    return frames[index].awaitingValue && frames[index].count &- 1 == slot.member
  }

  /// Writes an empty map in `slot` unless something is written there: what
  /// Foundation writes for a nested value that encodes nothing.
  func writeEmptyMapUnlessWritten(_ slot: CBORSlot) {
    if isUnwritten(slot) { _ = openContainer(in: slot, isMap: true) }
  }

  /// Takes out the member in `slot`, whose value failed.
  func discardMember(_ slot: CBORSlot) {
    handOver().discard(slot, keepingSlot: false)
  }

  /// Takes out what was written for the value of `slot`, whose encoding
  /// failed, keeping the slot for another value.
  func discardValue(of slot: CBORSlot) {
    handOver().discard(slot, keepingSlot: true)
  }

  /// The number of elements begun in the array `container`.
  func count(of container: Int) -> Int {
    if let index = frameIndex(container) { return frames[index].count }
    return handOver().count(of: container)
  }

  // MARK: - Coding paths

  func codingPath(of slot: CBORSlot) -> [any CodingKey] {
    if let index = frameIndex(slot.container), frames[index].count &- 1 == slot.member {
      return pathPrefix + valuePath(key: lastKey(ofFrame: index), in: index)
    }
    return handOver().codingPath(of: slot)
  }

  func codingPath(ofContainer container: Int) -> [any CodingKey] {
    if let index = frameIndex(container) {
      return pathPrefix + containerPath(index)
    }
    return handOver().codingPath(ofContainer: container)
  }

  /// The coding key of the last member begun in frame `index`.
  private func lastKey(ofFrame index: Int) -> any CodingKey {
    let frame = frames[index]
    guard frame.isMap else { return AnyCodingKey(intValue: frame.count &- 1) }
    if frame.hasStoredKey, index < frameKeys.count, let key = frameKeys[index] { return key }
    return writer.withBytes { bytes in
      if referencesStrings, bytes[frame.keyStart] == 0xD8,
        let string = stringTable.string(
          CBORItemWalker.head(at: frame.keyStart &+ 2, in: bytes).argument)
      {
        return AnyCodingKey(stringValue: String(decoding: string.bytes, as: UTF8.self))
      }
      return CBORTreeKey(readingAt: frame.keyStart, in: bytes).codingKey
    }
  }

  // MARK: - Hand-over

  /// The tree, made from what is written now on the first call.
  func handOver() -> CBOREncodingTree {
    if let tree { return tree }
    return startTree()
  }

  @inline(never)
  private func startTree() -> CBOREncodingTree {
    if referencesStrings { writeStringsWhole() }
    let tree = CBOREncodingTree(readingFramesOf: self)
    frameCount = 0
    self.tree = tree
    return tree
  }

  /// Writes the string references written so far as the strings they
  /// stand for, and drops the namespace's tag, moving the open frames'
  /// offsets with their bytes: the tree then holds what the session would
  /// have written without references.
  private func writeStringsWhole() {
    referencesStrings = false
    let table = stringTable
    let namespaceStart = prefixCount &- 3
    var output = ByteWriter(capacity: 2 &* writer.count)
    // Where the bytes from each position on moved by: (position, shift).
    var shifts = [(prefixCount, -3)]
    writer.withBytes { bytes in
      output.append(bytes.baseAddress!, count: namespaceStart)
      var position = prefixCount
      var copied = prefixCount
      var shift = -3
      while position < bytes.count {
        let initial = bytes[position]
        if initial == 0xD8, bytes[position &+ 1] == UInt8(CBORTags.stringReference) {
          let number = CBORItemWalker.head(at: position &+ 2, in: bytes)
          if let string = table.string(number.argument) {
            output.append(bytes.baseAddress! + copied, count: position &- copied)
            let stringStart = output.count
            output.appendCBORHead(major: string.isText ? 3 : 2, UInt64(string.bytes.count))
            output.append(string.bytes.baseAddress!, count: string.bytes.count)
            shift &+= (output.count &- stringStart) &- (number.end &- position)
            shifts.append((number.end, shift))
            copied = number.end
          }
          position = number.end
          continue
        }
        switch initial >> 5 {
        case 2, 3:
          let head = CBORItemWalker.head(at: position, in: bytes)
          position = head.end &+ Int(head.argument)
        default:
          position &+= CBORItemWalker.headSize(initial)
        }
      }
      output.append(bytes.baseAddress! + copied, count: bytes.count &- copied)
    }
    func moved(_ offset: Int) -> Int {
      // The last shift from a position at or before `offset`.
      var low = 0
      var high = shifts.count
      while low < high {
        let middle = (low &+ high) / 2
        if shifts[middle].0 <= offset { low = middle &+ 1 } else { high = middle }
      }
      return low == 0 ? offset : offset &+ shifts[low &- 1].1
    }
    for index in 1..<max(frameCount, 1) {
      frames[index].start = moved(frames[index].start)
      frames[index].keyStart = moved(frames[index].keyStart)
    }
    prefixCount = namespaceStart
    swap(&output, &writer)
  }

  // MARK: - Finishing

  /// Notes a write where Foundation traps, unless one was noted before.
  func noteConflict(at codingPath: [any CodingKey], _ description: String) {
    guard conflict == nil else { return }
    conflict = EncodingError.Context(codingPath: codingPath, debugDescription: description)
  }

  /// Throws the conflict met, if any.
  func throwConflict(_ value: Any) throws {
    if let conflict { throw EncodingError.invalidValue(value, conflict) }
  }

  /// The depth of `container`: 1 for the top-level array or map.
  func depth(ofContainer container: Int) -> Int {
    if let index = frameIndex(container) { return index }
    return handOver().depth(ofContainer: container)
  }

  /// Throws when the container of `slot` is nested deeper than
  /// ``maxDepth``, so that `value`, which would nest deeper still, is not
  /// encoded.
  func checkDepth<T>(of slot: CBORSlot, _ value: T) throws {
    guard depth(ofContainer: slot.container) > maxDepth else { return }
    isTooDeep = true
    throw depthError(value, at: codingPath(of: slot), underlying: NestedTooDeep())
  }

  /// Marks the error ``checkDepth(of:_:)`` throws.
  private struct NestedTooDeep: Error {}

  /// The error for nesting past ``maxDepth``: at the top level (an empty
  /// path) with the error thrown where encoding stopped, if it did, as
  /// `underlying`; there, with a ``NestedTooDeep`` marker.
  private func depthError(_ value: Any, at path: [any CodingKey], underlying: any Error)
    -> EncodingError
  {
    let what = path.isEmpty ? "the given top-level value" : "the value"
    return EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: path,
        debugDescription: "Unable to encode \(what) to CBOR: it nests arrays and maps deeper "
          + "than \(depthLimitText).",
        underlyingError: underlying))
  }

  /// The error `encode` throws for `error`, which encoding `value` threw.
  func errorToThrow(_ error: any Error, encoding value: Any) -> any Error {
    if case EncodingError.invalidValue(_, let context) = error,
      context.underlyingError is NestedTooDeep
    {
      return depthError(value, at: [], underlying: error)
    }
    return error
  }

  /// The output.
  func finish(_ value: Any) throws -> ByteWriter {
    var hasValue: Bool
    if let tree {
      hasValue = tree.hasTopLevelValue
    } else {
      closeFrames(above: 0)
      hasValue = !frames[0].awaitingValue
    }
    try throwConflict(value)
    if isTooDeep { throw depthError(value, at: [], underlying: NestedTooDeep()) }
    guard hasValue else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "Top-level \(type(of: value)) did not encode any values."))
    }
    if let tree {
      var output = ByteWriter(capacity: writer.count + 16)
      tree.write(into: &output)
      return output
    }
    var output = ByteWriter(capacity: 16)
    swap(&output, &writer)
    return output
  }
}

/// The key type of the standard library's dictionaries, whose keyed
/// containers hold a dictionary's keys: `[Int: V]` gives its keys integer
/// values, `[String: V]` string ones.
enum CBORDictionaryKey {
  static let type: ObjectIdentifier = {
    let probe = KeyTypeProbe()
    try? [0: 0].encode(to: probe)
    return probe.keyType ?? ObjectIdentifier(Never.self)
  }()

  /// An encoder that notes the key type of the first keyed container asked
  /// of it.
  private final class KeyTypeProbe: Encoder {
    var keyType: ObjectIdentifier?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      if keyType == nil { keyType = ObjectIdentifier(type) }
      return KeyedEncodingContainer(Nothing<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("not asked for") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("not asked for") }
  }

  /// A keyed container that writes nothing.
  private struct Nothing<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      throw CancellationError()
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Nothing<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      fatalError("not asked for")
    }
    mutating func superEncoder() -> any Encoder { KeyTypeProbe() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { KeyTypeProbe() }
  }
}

/// The paths of the open frames: a frame's container holds a member of the
/// one before it (see ``EncoderCodingPaths``).
extension CBOREncodingSession: EncoderCodingPaths {
  func pathParent(of index: Int) -> Int? { index > 0 ? index &- 1 : nil }
  func pathIsNested(_ index: Int) -> Bool { frames[index].isNested }
  func pathKey(of index: Int) -> any CodingKey { lastKey(ofFrame: index &- 1) }
}
