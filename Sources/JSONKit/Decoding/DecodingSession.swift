import Foundation

/// Everything one `decode` call shares: the scanned tape, the strategies in
/// force, and the bookkeeping that makes keyed lookups fast.
///
/// Decoders and containers are small structs that point at a session and a
/// tape index, so descending into a nested value allocates nothing. The
/// coding path is not tracked as decoding descends: when an error (or a
/// caller) asks for it, it is rebuilt from the tape by walking from the root
/// to the index, which costs nothing on the success path.
final class DecodingSession {
  // The fields that describe the document are unchecked: one decode at a
  // time uses a session, and they change only between documents (a
  // stream's records share one session, see ``beginDocument(_:)``).

  /// The scanned document. Its input pointer is replaced by an owned copy
  /// if a decoder outlives the `decode` call (see ``detach()``).
  @exclusivity(unchecked) private(set) var tape: Tape
  @exclusivity(unchecked) private(set) var entries: UnsafePointer<TapeEntry>
  /// The key types, type shapes and lookup storage kept with the scan
  /// context.
  private let keyTables: KeyedDecodingTables
  /// The shapes of the types decoded with this session's scan context.
  private let typeShapes: TypeShapes
  @exclusivity(unchecked) private(set) var options: DecodingOptions
  @exclusivity(unchecked) private(set) var userInfo: [CodingUserInfoKey: Any]
  /// How the key strategy the session was made with names keys, when it
  /// has no closure: what a later call's strategy must be for the session
  /// to serve it (see ``restart(_:recordRoots:options:sharedValues:)``); nil for
  /// `.custom`, whose session is never kept.
  private let keyNaming: KeyIDNames.Naming?
  /// The scan context the tape lives in; kept alive as long as the session.
  let context: ScanContext
  /// What `context` is pooled in, with the key tables made from its keys.
  let owner: DecodingContext
  /// The index of the scan's end entry, a `null` past the document (past
  /// the last record of a stream's batch), read by decoders of absent
  /// values (`superDecoder(forKey:)` for a missing key).
  @exclusivity(unchecked) private(set) var absentIndex: Int
  private var ownedInput: UnsafeMutableRawBufferPointer?
  /// What the models asked about in each object, when unknown keys are
  /// rejected; nil when they are ignored.
  @exclusivity(unchecked) private(set) var unknownKeys: UnknownKeyCheck?
  /// Finds the members of objects by key.
  let keyedLookup: KeyedLookup
  /// Rebuilds the coding paths of values, with the keys that led to them.
  @exclusivity(unchecked) var codingPaths: CodingPaths
  /// What decodes the classes at the document's shared values (CBOR's
  /// tag 28), a class decoded at which, or at a reference to it, is one
  /// instance: given by the format that scanned them, for a document that
  /// has some; nil for any other.
  @exclusivity(unchecked) private(set) var sharedValues: (any SharedValueDecoding)?
  /// Whether something other than a class read a shared reference left in
  /// place of a copy (``TapeEntry/Kind/sharedReference``): what it decoded
  /// is not the value, and the document must be scanned again with copies.
  @exclusivity(unchecked) var needsSharedCopies = false

  /// A session over `document`, on the tape of `owner`'s scan context: one
  /// document, or a batch of records whose roots are `recordRoots`; when
  /// the document has shared values, `sharedValues` decodes them.
  init(
    owner: DecodingContext, document: Tape, recordRoots: [Int] = [], options: DecodingOptions,
    sharedValues: (any SharedValueDecoding)? = nil
  ) {
    self.owner = owner
    let context = owner.scan
    self.context = context
    tape = document
    absentIndex = tape.count
    entries = tape.entries
    self.options = options
    userInfo = options.userInfo.asCoderUserInfo
    keyNaming = Self.keyNaming(of: options.keyDecodingStrategy)
    unknownKeys = Self.unknownKeyCheck(options, count: absentIndex + 1)
    keyTables = owner.keyTables
    typeShapes = keyTables.typeShapes
    keyedLookup = KeyedLookup(
      entries: entries, count: absentIndex, context: context,
      strategy: options.keyDecodingStrategy, tables: keyTables)
    codingPaths = CodingPaths(
      tape: tape, keyedLookup: keyedLookup, strategy: options.keyDecodingStrategy)
    if !recordRoots.isEmpty { codingPaths.beginDocument(tape: tape, recordRoots: recordRoots) }
    keyedObjects = keyTables.spareKeyedObjects
    keyTables.spareKeyedObjects = []
    self.sharedValues = sharedValues
  }

  /// Readies the session for the next document scanned into its context
  /// from `input` (a stream's next record), once the decode of the one
  /// before has ended and no decoder or container of it is left: what it
  /// knew of that document is forgotten, and the containers its makers
  /// keep are given out again.
  func beginDocument(_ document: Tape, recordRoots: [Int] = []) {
    tape = document
    absentIndex = tape.count
    entries = tape.entries
    unknownKeys = Self.unknownKeyCheck(options, count: absentIndex + 1)
    keyedLookup.beginDocument(
      entries: entries, count: absentIndex, context: context)
    codingPaths.beginDocument(tape: tape, recordRoots: recordRoots)
    sharedValues = nil
    needsSharedCopies = false
    // The states of the spare containers kept from the document before stay,
    // each set again when its container is given out.
    keyedObjects.removeSubrange(Swift.min(spareStatesEnd, keyedObjects.count)...)
    keepsSpareContainers = true
  }

  /// Readies this session, which its context kept when the `decode` call
  /// before ended (``endCall(_:pool:)``), for a new call: `document` decoded
  /// with `options`, which ``canRestart(with:)`` accepts (the roots of a
  /// batch's records being `recordRoots`), and with `sharedValues` decoding
  /// the document's shared values, if it has some.
  func restart(
    _ document: Tape, recordRoots: [Int] = [], options: DecodingOptions,
    sharedValues: (any SharedValueDecoding)?
  ) {
    self.options = options
    userInfo = options.userInfo.asCoderUserInfo
    documentRoot = 0
    documentStart = 0
    beginDocument(document, recordRoots: recordRoots)
    self.sharedValues = sharedValues
  }

  /// Whether the session can be restarted for a call with `other`: the
  /// lookups and paths it made keep the names of its key strategy.
  func canRestart(with other: DecodingOptions) -> Bool {
    keyNaming != nil && keyNaming == Self.keyNaming(of: other.keyDecodingStrategy)
  }

  /// How `strategy` names keys, or nil for `.custom`.
  private static func keyNaming(of strategy: JSONDecoder.KeyDecodingStrategy)
    -> KeyIDNames.Naming?
  {
    switch strategy {
    case .useDefaultKeys: return .asWritten
    case .convertFromSnakeCase: return .fromSnakeCase
    default: return nil
    }
  }

  /// The most states of keyed containers a session kept between calls may
  /// hold room for: a document that needed more gives its room back.
  private static let keptStatesLimit = 256

  /// Ends a `decode` call of a single document (see ``endRecord(_:)``):
  /// when the session is free, it stays with its context, its spare
  /// containers with it, for the context's next call, and the context goes
  /// back to `pool`. A session of a `.custom` key strategy, or one that grew
  /// room for many containers, lets its context go without it. Nothing of
  /// the caller's (`userInfo`, strategies, shared values) is kept.
  static func endCall(_ session: inout DecodingSession, pool: ContextPool<DecodingContext>) {
    guard endRecord(&session) else { return }
    guard session.keyNaming != nil, session.keyedObjects.capacity <= keptStatesLimit else {
      session.giveBack(to: pool)
      return
    }
    if session.options.holdsCallersReferences {
      session.options = DecodingOptions()
      session.userInfo = [:]
    }
    if session.sharedValues != nil { session.sharedValues = nil }
    if session.unknownKeys != nil { session.unknownKeys = nil }
    session.codingPaths.beginDocument(tape: session.tape)
    session.owner.keep(session)
    pool.give(session.owner)
  }

  /// The states in ``keyedObjects`` below this are read by the spare
  /// containers that ``endRecord(_:)`` kept for the next document.
  @exclusivity(unchecked) private var spareStatesEnd = 0

  /// Lets go, between a stream's records, of what the session shares with
  /// its scan context's key cache (under `.custom`, the array of keys as
  /// written): a record that brings new keys then adds them in place, where
  /// a shared array would be copied whole, which would make a stream of
  /// records with ever new keys take quadratic time.
  /// ``beginDocument(_:)`` takes it again (and lets go of the key names
  /// before naming new keys, for the same reason). The tape and the coding
  /// paths read the keys from the context, and share nothing.
  private func setAsideDocument() {
    keyedLookup.setAsideDocument()
  }

  /// The check of unknown keys for a document of `count` entries, when
  /// `options` reject them.
  private static func unknownKeyCheck(_ options: DecodingOptions, count: Int)
    -> UnknownKeyCheck?
  {
    options.unknownKeyStrategy == .reject ? UnknownKeyCheck(count: count) : nil
  }

  deinit {
    codingPaths.deallocate()
    ownedInput?.deallocate()
  }

  /// Makes the session independent of the caller's input, for a decoder that
  /// a decoded value kept: the input is copied (the scan context already
  /// belongs to the session, which its pool never sees again).
  func detach() {
    guard ownedInput == nil else { return }
    let input = tape.input
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 8)
    copy.copyMemory(from: input)
    ownedInput = copy
    tape = tape.reading(UnsafeRawBufferPointer(rebasing: copy[0..<input.count]))
  }

  // MARK: - Tape access

  @inline(__always)
  subscript(index: Int) -> TapeEntry {
    tape[index]
  }

  @inline(__always)
  func indexAfter(_ index: Int) -> Int {
    tape.indexAfter(index)
  }

  @inline(__always)
  func string(_ entry: TapeEntry) -> String {
    tape.string(entry)
  }

  /// The tape index of element `position` of the array at `array`, which
  /// has more elements than that.
  func elementIndex(_ position: Int, inArray array: Int) -> Int {
    var element = array + 1
    for _ in 0..<position {
      element = indexAfter(element)
    }
    return element
  }

  /// The raw key (as written in the JSON) of a key entry.
  func rawKey(_ entry: TapeEntry) -> String {
    tape.key(entry)
  }

  /// The text of a number entry as written.
  func numberText(_ entry: TapeEntry) -> String {
    if options.binaryTape { return binaryNumberText(entry) }
    return String(decoding: numberBytes(entry), as: UTF8.self)
  }

  /// A number of a binary tape, which has no literal, in decimal: an
  /// integer, a float as it prints, or a bignum's digits.
  @inline(never)
  private func binaryNumberText(_ entry: TapeEntry) -> String {
    switch entry.kind {
    case .int: return String(Int64(bitPattern: entry.payload))
    case .uint: return String(entry.payload)
    case .double: return "\(Double(bitPattern: entry.payload))"
    case .bytes:
      let negative = entry.flags & TapeEntry.negativeBignum != 0
      return BignumText.decimal(tape.stringBytes(entry), negative: negative)
        ?? "a bignum of \(entry.payload) bytes"
    default: return "?"
    }
  }

  /// `kind`, found where a value of another kind was expected, noting a
  /// shared reference left in place of a copy, which only a class reads
  /// (see ``needsSharedCopies``).
  func found(_ kind: TapeEntry.Kind) -> TapeEntry.Kind {
    if kind == .sharedReference { needsSharedCopies = true }
    return kind
  }

  /// The bytes of a number entry as written.
  func numberBytes(_ entry: TapeEntry) -> UnsafeRawBufferPointer {
    Tape.numberText(of: entry, in: tape.input)
  }

  /// `body` applied to the number entry's text in JSON's grammar: as
  /// written, or a JSON5 literal rewritten (`.5` as `0.5`). Nil for
  /// hexadecimal integers, `Infinity` and `NaN`, which JSON cannot spell.
  func withJSONNumberBytes<R>(_ entry: TapeEntry, _ body: (UnsafeRawBufferPointer) -> R?) -> R? {
    let bytes = numberBytes(entry)
    guard entry.flags & TapeEntry.json5Number != 0 else { return body(bytes) }
    guard let text = JSON5NumberText.jsonText(bytes) else { return nil }
    return text.withUnsafeBytes(body)
  }

  // MARK: - Conformances

  /// What ``unwrap(_:at:path:)`` does with a type, beyond reading the
  /// leaves and the types Foundation reads specially.
  enum TypeShape {
    /// An array, decoded straight from the tape.
    case array(any TapeDecodableArray.Type)
    /// A dictionary with `String` keys, decoded member by member.
    case dictionary(any StringKeyedDictionary.Type)
    /// A leaf or a type Foundation reads specially, of the kind given.
    case leaf(LeafKind)
    /// An optional, decoded as `Optional.init(from:)` decodes it.
    case optional(any TapeDecodableOptional.Type)
    /// A set, decoded straight from the tape.
    case set(any TapeDecodableSet.Type)
    /// A type decoded by its `init(from:)` alone.
    case initializerOnly
  }

  /// The shape of `type`, looked up once per scan context (see
  /// ``TypeShapes``).
  @inline(__always)
  func shape(of type: Any.Type) -> TypeShape {
    typeShapes.shape(of: type)
  }

  /// Whether ``unwrap(_:at:path:)`` comes to `initialize` for `T`, as for
  /// most models: a caller decoding many values of `T` asks once, then
  /// calls ``initialize(_:at:)`` for each.
  func decodesByInitializer<T: Decodable>(_ type: T.Type) -> Bool {
    guard LeafKind.scalar(T.self) == nil, case .initializerOnly = shape(of: T.self) else {
      return false
    }
    return true
  }

  /// `type` as an array type that decodes straight from the tape, if it is one.
  func arrayConformance(of type: Any.Type) -> (any TapeDecodableArray.Type)? {
    if case .array(let array) = shape(of: type) { return array }
    return nil
  }

  // MARK: - Keyed containers

  /// The object each keyed container reads and how it finds members, by
  /// the index of the container's state (see ``SpareKeyedContainer``).
  @exclusivity(unchecked) var keyedObjects: [KeyedObjectState] = []

  /// Whether the makers may keep containers of this session to give out
  /// again: until its `decode` call ends, or, for a session kept for the
  /// next call or record, until it is dropped.
  @exclusivity(unchecked) private(set) var keepsSpareContainers = true

  /// Lets go of the containers the makers keep to give out again (see
  /// ``SpareKeyedContainer``), which hold this session, and keeps none from
  /// now on: called when a decode ends without keeping the session, before
  /// asking whether a decoder outlives it (a container kept past it must not
  /// make a cycle), and when a kept session is dropped.
  func dropSpareContainers() {
    keepsSpareContainers = false
    keyTables.keyTypes.dropSpareContainers()
  }

  /// The root of the document being decoded: 0, or a record's in a batch.
  @exclusivity(unchecked) private(set) var documentRoot = 0
  /// Where the text of the document being decoded starts in the tape's
  /// input: 0, or a record's offset in a batch.
  @exclusivity(unchecked) private(set) var documentStart = 0

  /// Runs `body` with a decoder for the root value of the session's
  /// document, read from `text`, and checks the unknown keys left when the
  /// options reject them; a `DecodingError` comes out placed in `text`. In
  /// a batch of records, the document is the record whose root is the
  /// entry at `root` and whose text starts at offset `start` of the input.
  func decodeDocument<R>(
    _ text: InputText, root: Int = 0, start: Int = 0, _ body: (TapeDecoder) throws -> R
  ) throws -> R {
    documentRoot = root
    documentStart = start
    do {
      let value = try body(TapeDecoder(session: self, index: root))
      try unknownKeys?.checkRest(in: self)
      return value
    } catch let error as DecodingError {
      throw locating(error, in: text)
    }
  }

  /// Ends the decode of `session`'s document, and says whether the session
  /// and its scan context are free for another document: when no decoder
  /// or container of it is left. If a decoded value kept one, the session
  /// copies its input and keeps its scan context for good (see
  /// ``detach()``).
  static func endDecode(_ session: inout DecodingSession) -> Bool {
    session.dropSpareContainers()
    if isKnownUniquelyReferenced(&session) { return true }
    session.detach()
    return false
  }

  /// Ends the decode of a stream's record as ``endDecode(_:)`` does, but
  /// keeps the containers the makers give out again for the next record
  /// when the session is free: so that a record's keyed containers are
  /// made once per stream, not once per record.
  ///
  /// The session is free when nothing holds it but `session` and the spare
  /// containers, each of which, held by nothing but its maker, holds it
  /// exactly once (``CodingKeyTypes/freeSpares(of:)``): with those references
  /// set aside for a moment (the caller's keeps it alive), it must be
  /// uniquely referenced. Otherwise a decoder or container of the record
  /// is still held, and the session ends as after any decode.
  static func endRecord(_ session: inout DecodingSession) -> Bool {
    let owner = ObjectIdentifier(session)
    if session.keepsSpareContainers,
      let spares = session.keyTables.keyTypes.freeSpares(of: owner)
    {
      let unmanaged = Unmanaged.passUnretained(session)
      for _ in 0..<spares.count { unmanaged.release() }
      let isFree = isKnownUniquelyReferenced(&session)
      for _ in 0..<spares.count { _ = unmanaged.retain() }
      if isFree {
        session.spareStatesEnd = spares.statesEnd
        session.setAsideDocument()
        return true
      }
    }
    session.spareStatesEnd = 0
    return endDecode(&session)
  }

  /// Gives the session's scan context back to `pool`, with the storage of
  /// ``keyedObjects`` for the context's next session, once the session is
  /// free (``endDecode(_:)`` or ``endRecord(_:)`` said so); the containers
  /// kept for a stream's next record are let go of first.
  func giveBack(to pool: ContextPool<DecodingContext>) {
    if keepsSpareContainers { dropSpareContainers() }
    spareStatesEnd = 0
    keyedObjects.removeAll(keepingCapacity: true)
    swap(&keyedObjects, &keyTables.spareKeyedObjects)
    pool.give(owner)
  }

  /// A keyed container by `Key` over the object of `decoder`, made by the
  /// maker kept for `Key` (see ``CodingKeyTypes``).
  @inline(__always)
  func keyedContainer<Key: CodingKey>(_ decoder: TapeDecoder, keyedBy key: Key.Type)
    -> KeyedDecodingContainer<Key>
  {
    let (index, maker) = keyTables.keyTypes.keyType(key) { TapeKeyedContainer<Key>.maker() }
    unknownKeys?.reads(decoder.index)
    return maker.container(decoder, keyType: index)
  }

  // MARK: - Member values

  /// Decodes `T` from the member value at `index` of an object, which a
  /// keyed container was asked for by `key`: as ``unwrap(_:at:path:)``, with
  /// `key` in the coding paths of whatever decodes the value.
  func unwrap<T: Decodable, K: CodingKey>(
    _ type: T.Type, at index: Int, key: K, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    try withUnsafePointer(to: key) { key in
      // The key stays where it is while the value decodes, so the stack
      // points at it rather than copying it.
      codingPaths.push(key, forValue: index)
      defer { codingPaths.pop() }
      return try unwrap(type, at: index, path: path())
    }
  }
}
