/// What ``JKDecoder/UnknownKeyStrategy/reject`` takes: which members of
/// each object a model asked about, and the check that it asked about all
/// of them once its `init(from:)` has returned.
///
/// Only a session that rejects unknown keys has one. Keyed containers note
/// the member every lookup finds (every way of asking about a key looks it
/// up: `decode`, `contains`, `decodeNil`, nested containers, super
/// decoders) and the objects whose `allKeys` was read; a member is known
/// when its value was found, or where members share a name, a member of its
/// name was. Ignoring unknown keys costs a test of a nil reference per
/// lookup, per keyed container, and per dictionary or ``JSONValue`` decoded
/// from an object.
///
/// An object is checked when the decode of the value that holds it
/// succeeds: the `init(from:)` of the object itself, or of the nearest value
/// around it that the decoder decoded (a nested keyed container, or a
/// superclass's object behind `superDecoder()`, is read by its parent's
/// `init(from:)`). An object whose `init(from:)` returns without reading
/// it (an empty struct's, one that ignores its decoder), or that a super
/// decoder was given out for, counts as read with nothing asked: each of
/// its members that no other decode asked about is unknown. Objects inside a value whose decode failed are forgotten,
/// so that a model that swallows an element's error with `try?` is not told
/// about keys of the element it dropped.
final class UnknownKeyCheck {
  /// The words of the four sets below.
  private let words: UnsafeMutablePointer<UInt64>
  /// The values that lookups in keyed containers found, by tape index.
  private let found: TapeIndexSet
  /// The objects read through keyed containers, by tape index.
  private let read: TapeIndexSet
  /// The objects whose `allKeys` was read, every member of which is known.
  private let readAll: TapeIndexSet
  /// The values whose decode is running, each checked when its outermost
  /// decode returns.
  private let running: TapeIndexSet
  /// The objects read through keyed containers and not checked yet.
  // Unchecked exclusivity: a session decodes on one thread, and no access
  // to the list overlaps another (none calls out while it holds it).
  @exclusivity(unchecked) private var pending: [Int] = []

  /// A check for a tape of `count` entries.
  init(count: Int) {
    let size = TapeIndexSet.wordCount(count)
    words = .allocate(capacity: 4 * size)
    words.initialize(repeating: 0, count: 4 * size)
    found = TapeIndexSet(words: words)
    read = TapeIndexSet(words: words + size)
    readAll = TapeIndexSet(words: words + 2 * size)
    running = TapeIndexSet(words: words + 3 * size)
  }

  deinit {
    words.deallocate()
  }

  /// Notes that a keyed container reads the object at `object`.
  func reads(_ object: Int) {
    if read.insert(object) {
      pending.append(object)
    }
  }

  /// Notes that a lookup found the member value at `value`.
  @inline(__always)
  func found(_ value: Int) {
    _ = found.insert(value)
  }

  /// Notes that every member of the object at `object` was asked for.
  func readsAll(_ object: Int) {
    _ = readAll.insert(object)
  }

  /// Notes that the object at `object` is read whole, by a decode that
  /// takes any key (a `[String: V]`, a ``JSONValue``) rather than by a
  /// keyed container.
  func readsWhole(_ object: Int) {
    reads(object)
    readsAll(object)
  }

  /// Notes that the decode of the value at `index` begins: the mark to
  /// give ``succeeded(_:mark:in:)`` or ``failed(_:mark:in:)`` when it ends,
  /// or nil when a decode of the same value is running already, which
  /// checks what this one reads when it returns.
  @inline(__always)
  func begins(_ index: Int) -> Int? {
    running.insert(index) ? pending.count : nil
  }

  /// Checks the objects read since `mark`, when the decode of the value at
  /// `index` has succeeded.
  func succeeded(_ index: Int, mark: Int, in session: DecodingSession) throws {
    running.remove(index)
    try check(from: mark, in: session)
  }

  /// Forgets what was read and found since `mark`, when the decode of the
  /// value at `index` has failed.
  func failed(_ index: Int, mark: Int, in session: DecodingSession) {
    running.remove(index)
    for object in pending[mark...] {
      read.remove(object)
      readAll.remove(object)
      for member in session.keyedLookup.members(ofObject: object) {
        found.remove(member.value)
      }
    }
    pending.removeSubrange(mark...)
  }

  /// Checks every object still unchecked, when the whole decode succeeded.
  func checkRest(in session: DecodingSession) throws {
    try check(from: 0, in: session)
  }

  /// Checks the objects read since `mark` (those that the decode that
  /// began then read, directly or through decodes that had no check of
  /// their own), and reports the first unknown member among them in the
  /// document's order.
  private func check(from mark: Int, in session: DecodingSession) throws {
    guard mark < pending.count else { return }
    var unknown: (key: Int, object: Int)?
    for object in pending[mark...] {
      read.remove(object)
      if readAll.remove(object) { continue }
      if let key = session.firstUnknownMember(ofObject: object, found: found),
        key < unknown?.key ?? .max
      {
        unknown = (key, object)
      }
    }
    pending.removeSubrange(mark...)
    if let (key, object) = unknown {
      throw DecodingErrors.unknownKey(
        session.rawKey(session[key]), path: session.codingPaths.path(to: object), keyAt: key)
    }
  }

}

extension DecodingSession {
  /// The tape index of the key of the first member of the object at
  /// `object` that no lookup found: neither its value, nor (where members
  /// share a name, so that lookups find the last) a member of its name.
  fileprivate func firstUnknownMember(ofObject object: Int, found: TapeIndexSet) -> Int? {
    let isCustom = if case .custom = options.keyDecodingStrategy { true } else { false }
    if !isCustom, entries[object].flags & TapeEntry.hasDuplicateKeys == 0,
      !keyedLookup.hasSharedNames
    {
      return keyedLookup.members(ofObject: object).first { !found[$0.value] }?.key
    }
    // Members may share a name (the custom strategy's closure may give
    // two keys one): a lookup finds one of them, and the name is known.
    let named = keyedLookup.memberNames(ofObject: object, path: codingPaths.path(to: object))
    let known = Set(
      zip(keyedLookup.members(ofObject: object), named).filter { found[$0.0.value] }.map(\.1))
    return zip(keyedLookup.members(ofObject: object), named).first { !known.contains($1) }?.0.key
  }

  /// Decodes `type` by its `init(from:)` from the value at `index`, and
  /// when unknown keys are rejected, checks the objects read inside it. A
  /// class at a shared value of CBOR is decoded once for all the places
  /// that refer to it (see ``SharedValueDecoding``).
  @inline(__always)
  func initialize<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    // The test for shared values first: where `T` is not known at compile
    // time, the cast is a call into the runtime.
    if let sharedValues, T.self is AnyObject.Type {
      return try sharedValues.instance(type, at: index, in: self)
    }
    return try initializeValue(type, at: index)
  }

  /// ``initialize(_:at:)`` without the look-up of shared instances.
  @inline(__always)
  func initializeValue<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    guard let unknownKeys else {
      return try type.init(from: TapeDecoder(session: self, index: index))
    }
    return try initialize(type, at: index, checking: unknownKeys)
  }

  /// ``initialize(_:at:)`` when unknown keys are rejected; out of line, so
  /// that decoding that ignores them runs the code it ran without it.
  @inline(never)
  private func initialize<T: Decodable>(
    _ type: T.Type, at index: Int, checking unknownKeys: UnknownKeyCheck
  ) throws -> T {
    try checkingUnknownKeys(at: index, with: unknownKeys) {
      try type.init(from: TapeDecoder(session: self, index: index))
    }
  }

  /// Runs `decode`, which decodes the value at `index`, and when unknown
  /// keys are rejected, checks the objects read inside it once it returns.
  func checkingUnknownKeys<R>(at index: Int, _ decode: () throws -> R) throws -> R {
    guard let unknownKeys else { return try decode() }
    return try checkingUnknownKeys(at: index, with: unknownKeys, decode)
  }

  private func checkingUnknownKeys<R>(
    at index: Int, with unknownKeys: UnknownKeyCheck, _ decode: () throws -> R
  ) throws -> R {
    guard let mark = unknownKeys.begins(index) else {
      return try decode()
    }
    let value: R
    do {
      value = try decode()
    } catch {
      unknownKeys.failed(index, mark: mark, in: self)
      throw error
    }
    // A decode that returned without reading its object asked about none
    // of its members.
    if entries[index].kind == .object { unknownKeys.reads(index) }
    try unknownKeys.succeeded(index, mark: mark, in: self)
    return value
  }

}

/// A set of tape indexes, one bit each, in words that its owner allocates
/// and frees (``UnknownKeyCheck``): setting a bit costs no check of
/// uniqueness, as an array's would. Every index given is below the count
/// the words were allocated for.
struct TapeIndexSet {
  private let words: UnsafeMutablePointer<UInt64>

  /// The number of words a set of indexes below `count` needs.
  static func wordCount(_ count: Int) -> Int { (count + 63) / 64 }

  /// A set in `words`, which are zero (the empty set).
  init(words: UnsafeMutablePointer<UInt64>) {
    self.words = words
  }

  subscript(index: Int) -> Bool {
    words[index >> 6] & (1 << UInt64(index & 63)) != 0
  }

  /// Inserts `index`; whether it was not in the set before.
  @inline(__always)
  func insert(_ index: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(index & 63)
    let word = words[index >> 6]
    words[index >> 6] = word | bit
    return word & bit == 0
  }

  /// Removes `index`; whether it was in the set.
  @discardableResult
  func remove(_ index: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(index & 63)
    let word = words[index >> 6]
    words[index >> 6] = word & ~bit
    return word & bit != 0
  }
}
