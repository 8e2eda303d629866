import Foundation

/// One `encode` call, shared by its encoders and containers.
///
/// It streams (``StreamingState``) for as long as values are encoded in
/// the order they appear in the output. When a write comes that streaming
/// cannot honour (a container used after a later sibling was written, a
/// nested container asked again under a key already written, a super
/// encoder used late), the session hands what is written so far over to
/// tree form (``TreeState``) and carries on there: each value's
/// `encode(to:)` runs exactly once.
///
/// The mutable state lives in memory the session allocates, reached through
/// pointers: every write is a mutation, and a class's stored properties
/// would pay a dynamic exclusivity check on each one.
final class EncodingSession: PooledContext {
  @exclusivity(unchecked) private(set) var options: JKEncoder.Options
  @exclusivity(unchecked) private(set) var userInfo: [CodingUserInfoKey: Any]
  /// The streaming state of the call under way; deinitialized between
  /// calls of a session kept in ``pool`` (see ``isStreaming``).
  private let streaming: UnsafeMutablePointer<StreamingState>
  /// Whether ``streaming`` holds a state: from ``begin(options:capacity:)``
  /// to ``readyForReuse()``.
  @exclusivity(unchecked) private var isStreaming: Bool
  /// The memory of the records of the last call's streaming state, for
  /// the next call's.
  @exclusivity(unchecked) private var recycled: StreamingState.Storage? = nil
  /// Whether the session names keys by calling the key strategy (a custom
  /// one): streaming names the others, from the process-wide key cache.
  @exclusivity(unchecked) private var namesKeysByStrategy: Bool
  /// Set at the hand-over; from then on it receives every write.
  private let handedOver: UnsafeMutablePointer<TreeState?>
  /// The write that makes `encode` throw (see ``Conflict``): the first
  /// write into a container being encoded into, else the first conflict
  /// the tree reports here.
  private let conflict: UnsafeMutablePointer<Conflict?>

  /// A write that makes `encode` throw once it is done, where Foundation
  /// would trap or write other output.
  struct Conflict {
    let context: EncodingError.Context
    /// Whether Foundation traps at the write (two containers, or a
    /// container and a single value, for one place), so that it went wrong
    /// before any error `encode(to:)` throws later. Where Foundation writes
    /// other output instead, it throws that later error, and so does
    /// `encode`.
    let trapsInFoundation: Bool

    /// The key `name` of the object at `codingPath` begun again after a
    /// super encoder was asked for under it.
    ///
    /// Foundation adds a super encoder's value when the encoder is
    /// released, replacing what was written under its key before that, and
    /// replaced by what is written after. Which of the two values it keeps
    /// depends on when the encoder is released; JSONKit cannot tell, so it
    /// keeps neither.
    static func superEncoderKeyBegunAgain(_ name: String, codingPath: [any CodingKey]) -> Self {
      Conflict(
        context: EncodingError.Context(
          codingPath: codingPath,
          debugDescription:
            "The key \"\(name)\" was written again after a super encoder was asked for under it. "
            + "Foundation adds a super encoder's value when the encoder is released, so which "
            + "value it keeps for the key depends on when that happens; JSONKit cannot tell."),
        trapsInFoundation: false)
    }
  }

  /// A session for ``pool``, which begins each call with
  /// ``begin(options:capacity:)``.
  init() {
    options = JKEncoder.Options()
    maxDepth = options.maxDepth
    containerDepthLimit = EncodingDepth.effective(options.maxDepth)
    userInfo = [:]
    namesKeysByStrategy = false
    isStreaming = false
    conflict = .allocate(capacity: 1)
    conflict.initialize(to: nil)
    streaming = .allocate(capacity: 1)
    handedOver = .allocate(capacity: 1)
    handedOver.initialize(to: nil)
  }

  /// The sessions that `encode` calls take and give back, so that a call
  /// does not make a session, its states' records and its keyed-container
  /// makers (with their run-time look-ups) again: one call at a time uses
  /// a session, and one that a kept encoder or container still holds is
  /// never given back.
  static let pool = ContextPool<EncodingSession>(limit: 4)

  @exclusivity(unchecked) var poolGeneration = 0

  /// Readies the session, taken from ``pool`` (new, or readied for reuse
  /// when given back), for a call with `options` whose output is expected
  /// near `capacity` bytes.
  func begin(options: JKEncoder.Options, capacity: Int) {
    self.options = options
    maxDepth = options.maxDepth
    containerDepthLimit = EncodingDepth.effective(options.maxDepth)
    userInfo = options.userInfo.asCoderUserInfo
    namesKeysByStrategy = Self.namesKeysByStrategy(options)
    let storage = recycled.take() ?? StreamingState.Storage()
    streaming.initialize(
      to: StreamingState(
        options: options.outputFormatting, keyStrategy: options.keyEncodingStrategy,
        maxDepth: maxDepth, capacity: capacity, conflict: conflict, recycling: storage))
    isStreaming = true
    keepsSpareContainers = true
  }

  /// Ends the call, whose output was taken, for the session to go back to
  /// ``pool``: nothing of the caller's is kept (options, keys, values in a
  /// tree), and only the records' memory of a small document.
  func readyForReuse() {
    guard isStreaming else { return }
    recycled = streaming.move().recycledStorage(limit: Self.keptRecords)
    isStreaming = false
    handedOver.pointee = nil
    conflict.pointee = nil
    options = JKEncoder.Options()
    userInfo = [:]
    keyedContainerObjects.empty(keepingCapacityUpTo: Self.keptRecords)
  }

  /// The most records of each kind whose memory a session keeps between
  /// calls.
  private static let keptRecords = 1024

  /// Whether a call with `options` names keys by calling the key strategy.
  private static func namesKeysByStrategy(_ options: JKEncoder.Options) -> Bool {
    switch options.keyEncodingStrategy {
    case .useDefaultKeys, .convertToSnakeCase: return false
    default: return true
    }
  }

  /// The makers of keyed containers, one per key type met in this
  /// session's encodes (see ``KeyedEncodingContainerMaker``): a session
  /// from ``pool`` keeps them from one call to the next, each without its
  /// spare container once its call has ended.
  @exclusivity(unchecked) private var keyTypes = CodingKeyTypes()

  /// The object each keyed container writes, and the index of its key type
  /// in ``keyTypes``, by the container's slot (see ``SpareKeyedContainer``).
  @exclusivity(unchecked) var keyedContainerObjects: [KeyedObject] = []

  /// What a keyed container writes: the object's number, and its key type's
  /// index in ``keyTypes``.
  struct KeyedObject {
    let container: Int
    let keyType: Int
  }

  /// Per key type (among the first ``CodingKeyTypes/namedByValueLimit`` in
  /// ``keyTypes``) whose values are at most one byte of plain data, the key
  /// cache's entry for the name each key is written under, by the key's
  /// byte: slot `2 * index` for names as they are, `2 * index + 1` converted
  /// to snake_case, so that a session used with both keeps both. An entry is
  /// never changed or freed, so one found in any call before stays right.
  @exclusivity(unchecked) private var entriesByKeyValue = KeyValueTable<
    UnsafeMutablePointer<EncodedKeyCache.Entry>
  >()

  /// Whether the makers may keep containers of this session to give out
  /// again: until its `encode` call ends.
  @exclusivity(unchecked) private(set) var keepsSpareContainers = true

  /// Lets go of the containers the makers keep to give out again (see
  /// ``SpareKeyedContainer``), which hold this session, and keeps none from
  /// now on: called when an encode ends, so that the session is freed (a
  /// container kept past it must not make a cycle).
  func dropSpareContainers() {
    keepsSpareContainers = false
    keyTypes.dropSpareContainers()
  }

  /// A keyed container writing the object `container`, by keys of type `Key`.
  @inline(__always)
  func keyedContainer<Key: CodingKey>(_ container: Int, keyedBy key: Key.Type)
    -> KeyedEncodingContainer<Key>
  {
    let (index, maker) = keyTypes.keyType(key) { EncoderKeyedContainer<Key>.maker() }
    return maker.container(self, KeyedObject(container: container, keyType: index))
  }

  deinit {
    if isStreaming { streaming.deinitialize(count: 1) }
    streaming.deallocate()
    handedOver.deinitialize(count: 1)
    handedOver.deallocate()
    conflict.deinitialize(count: 1)
    conflict.deallocate()
  }

  /// The tree, once streaming has handed over to it. The fast paths do not
  /// look at it: once streaming has handed over, every streaming operation
  /// fails, and the slow path finds the tree.
  private var tree: TreeState? { handedOver.pointee }

  /// Hands what streaming wrote over to a tree, which receives every write
  /// from now on.
  private func handOver() -> TreeState {
    if let tree { return tree }
    return startTree()
  }

  /// Makes the tree, once: kept out of line, so that the frames of the
  /// functions that may hand over (some of which a nested value's encoding
  /// runs inside, level after level) hold none of its work.
  @inline(never)
  private func startTree() -> TreeState {
    let tree = TreeState.takingOver(
      &streaming.pointee, formatting: options.outputFormatting, conflict: conflict)
    handedOver.pointee = tree
    return tree
  }

  // MARK: - Members

  @inline(__always)
  func beginMember<Key: CodingKey>(of container: Int, key: Key, name: MemberName) -> EncodingSlot {
    beginDiscardableMember(of: container, key: key, name: name).slot
  }

  /// ``beginMember(of:key:name:)``, also returning where the member's text
  /// starts, which ``discardMember(_:startingAt:)`` needs.
  @inline(__always)
  func beginDiscardableMember<Key: CodingKey>(of container: Int, key: Key, name: MemberName)
    -> (slot: EncodingSlot, start: Int)
  {
    if let begun = streaming.pointee.beginMember(of: container, key: key, name: name) {
      return begun
    }
    return (handOver().beginMember(of: container, key: key, name: name.string), 0)
  }

  /// Begins the member `name` of the object `container` for a super
  /// encoder, which may be used after later members were begun. Its key may
  /// not be begun again in the object (see
  /// ``Conflict/superEncoderKeyBegunAgain(_:codingPath:)``): that is
  /// checked where duplicate keys are resolved, so other members pay
  /// nothing for it.
  func beginSuperEncoderMember<Key: CodingKey>(of container: Int, key: Key, name: MemberName)
    -> EncodingSlot
  {
    if let begun = streaming.pointee.beginMember(of: container, key: key, name: name) {
      streaming.pointee.rememberSuperEncoderMember(key, of: begun.slot)
      return begun.slot
    }
    return handOver().beginSuperEncoderMember(of: container, key: key, name: name.string)
  }

  /// Begins the member `name` of the object `container` for a nested
  /// container, which shares an object or array already written there.
  func beginContainerMember<Key: CodingKey>(of container: Int, key: Key, name: MemberName)
    -> EncodingSlot
  {
    if let slot = streaming.pointee.beginContainerMember(of: container, key: key, name: name) {
      return slot
    }
    return handOver().beginMember(of: container, key: key, name: name.string, keepingValue: true)
  }

  /// Begins the next element of the array `container`; returns its slot and
  /// where its text starts.
  @inline(__always)
  func beginElement(of container: Int) -> (slot: EncodingSlot, start: Int) {
    if let begun = streaming.pointee.beginElement(of: container) { return begun }
    return (handOver().beginMember(of: container, key: nil, name: nil), 0)
  }

  /// Where to look for the container of a member just begun, for
  /// ``isLastMember(_:inFrame:)``: streaming's innermost frame.
  @inline(__always)
  var innermostFrame: Int { streaming.pointee.openDepth - 1 }

  /// Whether no member (or element) was begun in the container of `slot`
  /// after it, a key begun again counting as a new member; `frame` is
  /// ``innermostFrame`` as the member was begun.
  @inline(__always)
  func isLastMember(_ slot: EncodingSlot, inFrame frame: Int) -> Bool {
    if let isLast = streaming.pointee.isLastMember(slot, inFrame: frame) { return isLast }
    return handOver().slotCount(of: slot.container) == slot.member + 1
  }

  /// Notes a write into the container of `slot` from inside the encoding
  /// of its value (its `encode(to:)`, or a custom date or data strategy),
  /// which has returned or thrown: a member begun in the container after
  /// `slot`, which was its last. `frame` is ``innermostFrame`` as the
  /// value's encoding began.
  ///
  /// A value that throws is checked too: a caller that catches the error
  /// keeps what was written into its container, as Foundation does.
  @inline(__always)
  func noteWritesIntoContainer(of slot: EncodingSlot, inFrame frame: Int) {
    if !isLastMember(slot, inFrame: frame) { noteWriteIntoOwnContainer(slot) }
  }

  /// Notes that members were begun in the container of `slot` while the
  /// value of its member in `slot` was being encoded, unless an earlier
  /// such write was.
  ///
  /// Foundation adds a member (or element) only once its value is encoded,
  /// so a value that writes into the container it is being encoded into
  /// comes out before, or is replaced by, its own member. JSONKit writes a
  /// member's key and place first and cannot give that order, so `encode`
  /// throws. The write replaces a conflict the tree met: that one may be
  /// its consequence (a member written again under the key being encoded
  /// shares one place with it).
  @inline(never)
  private func noteWriteIntoOwnContainer(_ slot: EncodingSlot) {
    if let earlier = conflict.pointee, !earlier.trapsInFoundation { return }
    conflict.pointee = Conflict(
      context: EncodingError.Context(
        codingPath: codingPath(ofContainer: slot.container),
        debugDescription:
          "A value wrote into the container it is being encoded into, from inside its own "
          + "encode(to:) or a custom date or data strategy. Foundation adds a member only "
          + "once its value is encoded; JSONKit cannot order such writes as Foundation does."),
      trapsInFoundation: false)
  }

  /// Takes out the member in `slot`, whose value failed to encode, with all
  /// that was written for it: Foundation adds a member only once its value
  /// is encoded, so an error caught inside `encode(to:)` leaves no trace.
  func discardMember(_ slot: EncodingSlot, startingAt start: Int) {
    if streaming.pointee.discardMember(slot, startingAt: start) { return }
    handOver().discardMember(slot)
  }

  /// ``discardMember(_:startingAt:)`` for a member whose value was given an
  /// encoder (its own `encode(to:)`, or a custom strategy), which it may
  /// have kept. Streaming would give the member's number to the next
  /// member, and a write through the kept encoder would land there; so
  /// after streaming takes the member's text out, the tree takes over with
  /// the member in its place, where such a write goes nowhere, as in
  /// Foundation. Only an error path pays for the hand-over.
  func discardMemberOfEncodedValue(_ slot: EncodingSlot, startingAt start: Int) {
    let key = streaming.pointee.codingPath(of: slot)?.last
    if streaming.pointee.discardMember(slot, startingAt: start) {
      handOver().addDiscardedMember(slot, codingKey: key)
    } else {
      handOver().discardMember(slot)
    }
  }

  /// Where the text of the value of `slot` will start, for
  /// ``discardValue(of:startingAt:)``: its offset while streaming, -1 in
  /// tree form; nil when something is written there already, which a
  /// failed value then leaves as it is.
  func unwrittenValueStart(of slot: EncodingSlot) -> Int? {
    if let start = streaming.pointee.unwrittenValueStart(of: slot) { return start }
    let isUnwritten = tree?.isUnwritten(slot) ?? streaming.pointee.isUnwritten(slot)
    return isUnwritten ? -1 : nil
  }

  /// Takes out what was written for the value of `slot`, whose encoding
  /// failed, from `start` (``unwrittenValueStart(of:)``) on, keeping the
  /// slot: as if the value had not been encoded, so that another can be.
  func discardValue(of slot: EncodingSlot, startingAt start: Int) {
    if start >= 0, streaming.pointee.discardValue(of: slot, startingAt: start) { return }
    handOver().discardValue(of: slot)
  }

  func count(of container: Int) -> Int {
    if let count = streaming.pointee.count(of: container) { return count }
    return handOver().count(of: container)
  }

  // MARK: - Values

  /// Writes a scalar into `slot`; a string JSONKit could not read back
  /// throws with the slot's coding path.
  @inline(__always)
  func writeScalar(into slot: EncodingSlot, _ write: (inout ByteWriter) throws -> Void) rethrows {
    do {
      if try streaming.pointee.writeScalar(into: slot, write) { return }
      try handOver().writeScalar(into: slot, write)
    } catch let unreadable as UnreadableScalar {
      throw unreadable.valueError(codingPath: codingPath(of: slot))
    }
  }

  /// Writes a whole value's text into `slot` at once; `write` gets the
  /// indentation level of the line the value starts on.
  func writeIndented(
    into slot: EncodingSlot, _ write: (inout ByteWriter, _ indentLevel: Int) throws -> Void
  ) rethrows {
    if try streaming.pointee.writeIndented(into: slot, write) { return }
    try handOver().writeIndented(into: slot, write)
  }

  /// Opens an array or object in `slot`; `isNested` says that a container
  /// opens it as a nested container, rather than the encoder of `slot`.
  func openContainer(in slot: EncodingSlot, isObject: Bool, isNested: Bool = false) -> Int {
    if let container = streaming.pointee.openContainer(
      in: slot, isObject: isObject, isNested: isNested)
    {
      return container
    }
    return handOver().openContainer(in: slot, isObject: isObject, isNested: isNested)
  }

  /// Writes `{}` into `slot` unless something was written there: what
  /// Foundation writes for a custom date or data strategy that encodes nothing.
  func writeEmptyObjectUnlessWritten(_ slot: EncodingSlot) {
    let isUnwritten = tree?.isUnwritten(slot) ?? streaming.pointee.isUnwritten(slot)
    if isUnwritten { _ = openContainer(in: slot, isObject: true) }
  }

  // MARK: - Coding paths and keys

  func codingPath(of slot: EncodingSlot) -> [any CodingKey] {
    if let path = streaming.pointee.codingPath(of: slot) { return path }
    return handOver().codingPath(of: slot)
  }

  func codingPath(ofContainer container: Int) -> [any CodingKey] {
    if let path = streaming.pointee.codingPath(ofContainer: container) { return path }
    return handOver().codingPath(ofContainer: container)
  }

  /// The name a coding key is written under in `container`, after the key
  /// strategy.
  @inline(__always)
  func name<Key: CodingKey>(of key: Key, in container: Int) -> MemberName {
    if namesKeysByStrategy { return MemberName(strategyName(of: key, in: container)) }
    return streaming.pointee.naming.name(of: key)
  }

  /// ``name(of:in:)`` for a key of the key type at `keyType` in ``keyTypes``:
  /// a key whose values are at most one byte of plain data, of one of the
  /// first ``CodingKeyTypes/namedByValueLimit`` key types, is named by its
  /// value once its name is in the key cache.
  @inline(__always)
  func name<Key: CodingKey>(of key: Key, keyType: Int, in container: Int) -> MemberName {
    guard !namesKeysByStrategy, keyType < CodingKeyTypes.namedByValueLimit,
      let value = CodingKeyTypes.valueByte(of: key)
    else {
      return name(of: key, in: container)
    }
    let slot = keyType &* 2 &+ (streaming.pointee.naming.convertsToSnakeCase ? 1 : 0)
    let type = ObjectIdentifier(Key.self)
    if let entry = entriesByKeyValue.payload(slot: slot, type: type, value: value) {
      return MemberName(cached: entry)
    }
    let name = streaming.pointee.naming.name(of: key)
    if let entry = name.cached {
      entriesByKeyValue.keep(entry, slot: slot, type: type, value: value)
    }
    return name
  }

  /// The name a custom key strategy gives `key`, which depends on the path
  /// of `container`.
  private func strategyName(of key: any CodingKey, in container: Int) -> String {
    switch options.keyEncodingStrategy {
    case .custom(let transform):
      return transform(codingPath(ofContainer: container) + [key]).stringValue
    default:
      return key.stringValue
    }
  }

  // MARK: - Finishing

  /// The deepest nesting written: ``JKEncoder/maxDepth``.
  @exclusivity(unchecked) private(set) var maxDepth: Int

  /// The deepest container a value's `encode(to:)` is called in:
  /// ``maxDepth``, at most ``EncodingDepth/limit``. A `JSONValue`, written
  /// without a call-stack frame per level, may nest as deep as
  /// ``maxDepth``.
  @exclusivity(unchecked) private(set) var containerDepthLimit: Int

  /// The limit named in the depth errors.
  private var depthLimitText: String {
    containerDepthLimit == maxDepth
      ? "maxDepth (\(maxDepth))"
      : "maxDepth (\(maxDepth); the containers of a model nest at most \(containerDepthLimit) deep)"
  }

  /// Notes that a value nests deeper than ``maxDepth``.
  func noteTooDeep() {
    streaming.pointee.isTooDeep = true
  }

  /// Throws when the container of `slot` is nested deeper than
  /// ``containerDepthLimit``, so that `value`, which would nest deeper still, is not
  /// encoded: a recursive model (a linked list, an indirect enum) stops at
  /// the limit instead of overflowing the stack first. The container was
  /// opened (a container cannot refuse), so `encode` throws in any case.
  func checkDepth<T>(of slot: EncodingSlot, _ value: T) throws {
    let depth =
      streaming.pointee.depth(ofContainer: slot.container)
      ?? tree?.depth(ofContainer: slot.container) ?? 0
    guard depth > containerDepthLimit else { return }
    noteTooDeep()
    throw EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath(of: slot),
        debugDescription:
          "Unable to encode the value to JSON: its container nests deeper than "
          + "\(depthLimitText).",
        underlyingError: NestedTooDeep()))
  }

  /// Marks the error ``checkDepth(of:_:)`` throws, so that `encode` tells
  /// it from an error of `encode(to:)`.
  private struct NestedTooDeep: Error {}

  /// The error `encode` throws for arrays and objects nested deeper than
  /// ``maxDepth``: at the top level, with an empty coding path, as
  /// Foundation's; `underlying`, when the value stopped early, is the error
  /// thrown where it went too deep, whose coding path leads there.
  private func tooDeepError(_ value: Any, underlying: (any Error)? = nil) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: [],
        debugDescription:
          "Unable to encode the given top-level value to JSON: its arrays and objects nest "
          + "deeper than \(depthLimitText).",
        underlyingError: underlying))
  }

  /// The error `encode` throws for `error`, which encoding `value` threw:
  /// `error` itself, but for the one ``checkDepth(of:_:)`` throws, which
  /// becomes the top-level error for a value nested too deep.
  func errorToThrow(_ error: any Error, encoding value: Any) -> any Error {
    if case EncodingError.invalidValue(_, let context) = error,
      context.underlyingError is NestedTooDeep
    {
      return tooDeepError(value, underlying: error)
    }
    return error
  }

  /// The output; nil when the root value encoded nothing.
  ///
  /// - Throws: `EncodingError.invalidValue` for a ``Conflict``, for the
  ///   first key holding a scalar JSONKit's reader rejects (so could not
  ///   read back), or when containers nest deeper than ``maxDepth``, with
  ///   `value` as the invalid value.
  func finish(_ value: Any) throws -> ByteWriter? {
    // Closing the containers still open resolves their duplicate keys,
    // which may meet a conflict.
    let hasStreamedOutput = tree == nil && streaming.pointee.finish()
    try throwConflict(value)
    if let error = streaming.pointee.unreadableKeyError { throw error }
    let output: ByteWriter?
    if let tree {
      output = tree.finish(maxDepth: maxDepth)
      if let error = tree.unreadableKeyError { throw error }
      if tree.isTooDeep { noteTooDeep() }
    } else {
      output = hasStreamedOutput ? streaming.pointee.takeWriter() : nil
    }
    if streaming.pointee.isTooDeep { throw tooDeepError(value) }
    return output
  }

  /// Throws the conflict met while encoding `value`, if any; when the
  /// encoding threw (`afterError`), only one at which Foundation traps.
  func throwConflict(_ value: Any, afterError: Bool = false) throws {
    guard let conflict = conflict.pointee, conflict.trapsInFoundation || !afterError else {
      return
    }
    throw EncodingError.invalidValue(value, conflict.context)
  }
}
