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
    if let index = types.number(of: identifier) {
      // Only a maker for `Key` is ever kept under its identity.
      return (index, unsafeDowncast(makers[index], to: Maker.self))
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

  /// The number of spare containers the makers keep, and the state index after
  /// the highest of theirs, when every one is free and belongs to `owner`
  /// (see ``SpareKeyedContainer/freeSpare(of:)``); nil otherwise.
  ///
  /// Mutating, so that its owner calls it in place rather than on a copy.
  mutating func freeSpares(of owner: ObjectIdentifier) -> (count: Int, statesEnd: Int)? {
    var count = 0
    var statesEnd = 0
    for index in makers.indices {
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
