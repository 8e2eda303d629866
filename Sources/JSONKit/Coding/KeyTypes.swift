/// The kinds of coding key that keyed containers were asked for, each with
/// a small index of its own and the means to make its containers.
///
/// A keyed container of a key type the decoder meets for the first time
/// costs the runtime two look-ups of generic metadata and one of a
/// conformance (`TapeKeyedContainer<Key>` and its conformance to
/// `KeyedDecodingContainerProtocol`), each a hash and compare in a shared
/// table. Made once per key type, an object that holds both makes every
/// later container without them (see ``KeyedContainerMaker``). The index names the key type in
/// ``AskedNames`` (the name asked for first in its objects), exactly:
/// unlike a hash of the type's address, it cannot collide.
///
/// The decoder's is kept with a scan context (in ``KeyTables``) and so used
/// by one decode at a time; the encoder's, with ``KeyedEncodingContainerMaker``s,
/// belongs to one encode's session.
struct KeyTypes {
  /// Per key type, in the order met: its identity and its maker.
  private var types: [ObjectIdentifier] = []
  private var makers: [AnyObject] = []
  /// Open addressed, at most half full: an index into `types` plus one, or
  /// 0 when empty.
  private var slots = [Int](repeating: 0, count: 64)

  /// Beyond this many key types they are forgotten before one more is
  /// added; a program has a bounded number of key types, so this only
  /// bounds the table against code that makes key types without end.
  static let typeLimit = 1 << 12

  /// The number of key types known.
  var count: Int { types.count }

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
    let mask = slots.count - 1
    var slot = Self.slot(of: identifier, mask: mask)
    while true {
      let stored = slots[slot]
      if stored == 0 { break }
      if types[stored - 1] == identifier {
        // Only a maker for `Key` is ever kept under its identity.
        return (stored - 1, unsafeDowncast(makers[stored - 1], to: Maker.self))
      }
      slot = (slot + 1) & mask
    }
    let maker = newMaker()
    return (add(identifier, maker), maker)
  }

  /// Has every maker, each a ``SpareKeyedContainer``, let go of the
  /// container it keeps to give out again.
  ///
  /// Mutating, so that its owner calls it in place rather than on a copy.
  mutating func dropSpareContainers() {
    for index in makers.indices {
      unsafeDowncast(makers[index], to: SpareKeyedContainer.self).dropSpare()
    }
  }

  /// The number of spare containers the makers keep, and the slot after
  /// the highest of theirs, when every one is free and belongs to `owner`
  /// (see ``SpareKeyedContainer/freeSpare(of:)``); nil otherwise.
  ///
  /// Mutating, so that its owner calls it in place rather than on a copy.
  mutating func freeSpares(of owner: ObjectIdentifier) -> (count: Int, slotsEnd: Int)? {
    var count = 0
    var slotsEnd = 0
    for index in makers.indices {
      guard
        let slot = unsafeDowncast(makers[index], to: SpareKeyedContainer.self).freeSpare(
          of: owner)
      else { return nil }
      if slot >= 0 {
        count += 1
        slotsEnd = Swift.max(slotsEnd, slot + 1)
      }
    }
    return (count, slotsEnd)
  }

  /// Adds a key type not known, returning its index.
  @inline(never)
  private mutating func add(_ identifier: ObjectIdentifier, _ maker: AnyObject) -> Int {
    if types.count >= Self.typeLimit { self = KeyTypes() }
    types.append(identifier)
    makers.append(maker)
    if 2 * types.count > slots.count {
      slots = [Int](repeating: 0, count: 2 * slots.count)
      for (index, type) in types.enumerated() { insert(type, index) }
    } else {
      insert(identifier, types.count - 1)
    }
    return types.count - 1
  }

  private mutating func insert(_ identifier: ObjectIdentifier, _ index: Int) {
    let mask = slots.count - 1
    var slot = Self.slot(of: identifier, mask: mask)
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = index + 1
  }

  /// The home slot of a type (a key type here, any type in
  /// ``TypeShapes``): the addresses of a module's type metadata differ in a
  /// few middle bits only, so they are mixed (MurmurHash3's finalizer)
  /// before they are masked.
  @inline(__always)
  static func slot(of identifier: ObjectIdentifier, mask: Int) -> Int {
    var bits = UInt64(UInt(bitPattern: identifier))
    bits = (bits ^ bits >> 33) &* 0xFF51_AFD7_ED55_8CCD
    bits = (bits ^ bits >> 33) &* 0xC4CE_B9FE_1A85_EC53
    bits ^= bits >> 33
    return Int(truncatingIfNeeded: bits) & mask
  }
}
