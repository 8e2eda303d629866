/// The kinds of coding key that keyed containers were asked for, each with
/// a small index of its own and the means to make its containers.
///
/// A keyed container of a key type the decoder meets for the first time
/// costs the runtime two look-ups of generic metadata and one of a
/// conformance (`TapeKeyedContainer<Key>` and its conformance to
/// `KeyedDecodingContainerProtocol`), each a hash and compare in a shared
/// table. Made once per key type, an object that holds both makes every
/// later container without them (see ``KeyedContainerMaker``). The index names the key type in
/// ``AskedKeyNames`` (the name asked for first in its objects), exactly:
/// unlike a hash of the type's address, it cannot collide.
///
/// The decoder's is kept with a scan context (in ``KeyedDecodingTables``) and so used
/// by one decode at a time; the encoder's, with ``KeyedEncodingContainerMaker``s,
/// belongs to one encode's session.
struct CodingKeyTypes {
  /// The key types, numbered in the order met.
  private var types = TypeIndex()
  /// Per key type, by number: its maker.
  private var makers: [AnyObject] = []
  /// The numbers of the makers asked for a container since they last let
  /// go of their spare (``SpareKeyedContainer/isActive``): the only ones
  /// that may keep one, so that ending a call costs what the call used,
  /// not every key type a long-lived table has met.
  private var active: [Int] = []
  /// The number of the call (a decode, or a stream's batch) under way,
  /// which the makers asked for a container note
  /// (``SpareKeyedContainer/lastCall``).
  private var call = 0
  /// How many calls in a row a maker may go unasked before it lets go of
  /// its spare: enough for the optional members and the few models that
  /// take turns on one decoder, few enough that ending a call checks only
  /// what recent calls used.
  static let idleCalls = 8

  /// Beyond this many key types they are forgotten before one more is
  /// added; a program has a bounded number of key types, so this only
  /// bounds the table against code that makes key types without end.
  static let typeLimit = 1 << 12

  /// The number of key types known.
  var count: Int { types.count }

  /// How many key types (the first met, by index) a coder names by their
  /// keys' values (``valueByte(of:)``): a table of 256 entries each, bounded
  /// for a program that makes key types without end.
  static let namedByValueLimit = 512

  /// The byte that `key` is, when its type's values are at most one byte of
  /// plain data (an enum without payloads, as synthesized coding keys are;
  /// 0 for an enum of one case): it tells the type's keys apart, and so
  /// their names, which depend on the key alone. Nil for any other type.
  @inline(__always)
  static func valueByte<Key: CodingKey>(of key: Key) -> UInt8? {
    guard _isPOD(Key.self) else { return nil }
    switch MemoryLayout<Key>.size {
    case 0: return 0
    case 1: return unsafeBitCast(key, to: UInt8.self)
    default: return nil
    }
  }

  /// The index of key type `Key` and the maker of its containers;
  /// `newMaker` makes the maker for a key type not met before.
  ///
  /// One table holds one kind of maker for every key type (the decoder's
  /// ``KeyedContainerMaker`` or the encoder's
  /// ``KeyedEncodingContainerMaker``), so the maker kept for `Key` is always
  /// a `Maker`.
  @inline(__always)
  mutating func keyType<Key: CodingKey, Maker: AnyObject>(
    _ key: Key.Type, _ newMaker: () -> Maker
  ) -> (index: Int, maker: Maker) {
    let identifier = ObjectIdentifier(key)
    if let index = types.number(of: identifier) {
      // Only a maker for `Key` is ever kept under its identity.
      let maker = unsafeDowncast(makers[index], to: Maker.self)
      if unsafeDowncast(maker, to: SpareKeyedContainer.self).lastCall != call { note(index) }
      return (index, maker)
    }
    let maker = newMaker()
    let index = add(identifier, maker)
    note(index)
    return (index, maker)
  }

  /// Notes that the maker at `index` was asked for a container in this
  /// call, and lists it among the ``active`` ones.
  @inline(never)
  private mutating func note(_ index: Int) {
    let maker = unsafeDowncast(makers[index], to: SpareKeyedContainer.self)
    maker.lastCall = call
    if !maker.isActive {
      maker.isActive = true
      active.append(index)
    }
  }

  /// Has every maker, each a ``SpareKeyedContainer``, let go of the
  /// container it keeps to give out again.
  ///
  /// Mutating, so that its owner calls it in place rather than on a copy.
  mutating func dropSpareContainers() {
    for index in active {
      let maker = unsafeDowncast(makers[index], to: SpareKeyedContainer.self)
      maker.dropSpare()
      maker.isActive = false
    }
    active.removeAll(keepingCapacity: true)
    call &+= 1
  }

  /// Ends a call whose session may stay for the next one: the makers not
  /// asked for a container in the last ``idleCalls`` calls let go of their
  /// spare and leave the list of active ones, so that what a call costs to
  /// end follows what recent calls used. Then the number of spare
  /// containers the makers keep, and the state index after the highest of
  /// theirs, when every one is free and belongs to `owner` (see
  /// ``SpareKeyedContainer/freeSpare(of:)``); nil otherwise.
  ///
  /// Mutating, so that its owner calls it in place rather than on a copy.
  mutating func freeSpares(of owner: ObjectIdentifier) -> (count: Int, statesEnd: Int)? {
    let ended = call
    call &+= 1
    active.removeAll { index in
      let maker = unsafeDowncast(makers[index], to: SpareKeyedContainer.self)
      guard ended &- maker.lastCall >= Self.idleCalls else { return false }
      maker.dropSpare()
      maker.isActive = false
      return true
    }
    var count = 0
    var statesEnd = 0
    for index in active {
      guard
        let index = unsafeDowncast(makers[index], to: SpareKeyedContainer.self).freeSpare(
          of: owner)
      else { return nil }
      if index >= 0 {
        count += 1
        statesEnd = Swift.max(statesEnd, index + 1)
      }
    }
    return (count, statesEnd)
  }

  /// Adds a key type not known, returning its index.
  @inline(never)
  private mutating func add(_ identifier: ObjectIdentifier, _ maker: AnyObject) -> Int {
    if types.count >= Self.typeLimit { self = CodingKeyTypes() }
    makers.append(maker)
    return types.add(identifier)
  }
}
