/// What every keyed-container maker (the decoder's ``KeyedContainerMaker``
/// and the encoder's ``KeyedEncodingContainerMaker``) is, whatever its key
/// type: it keeps the last container it made, to give out again once no
/// other code holds it.
///
/// A `KeyedDecodingContainer` or `KeyedEncodingContainer` holds its
/// container in a box of the standard library's, and making one costs a
/// runtime look-up of the box type's generic metadata and an allocation: for
/// an array of small objects, more than reading or writing their members.
/// A model's `init(from:)` or `encode(to:)` drops its container when it
/// returns, and the next value of its type takes it over: the container
/// reads which object it is over from its state's index in the session, which the
/// maker sets, so that pointing it at another object changes nothing anyone
/// else can see. A container still held is never given out again.
///
/// The spare is kept as the one strong reference to its box that such a
/// container is, in memory of its own, so that the box's uniqueness can be
/// checked without any generic operation on the container type. Giving the
/// container out copies it as that type, which the standard library keeps
/// resilient, through the type's metadata: ``TypedSpareKeyedContainer``
/// has the container type as its own generic parameter, so that the
/// metadata is read from the maker's class, where code generic over the key
/// type alone would look it up in the runtime's table for every container
/// (65–85 instructions each: 9% of decoding or encoding citm_catalog).
///
/// A session's makers outlive it or belong to it, and a spare container
/// holds its session: the session has every maker let go of its spare when
/// its `decode` or `encode` call ends (``CodingKeyTypes/dropSpareContainers()``),
/// unless it is free and stays, spares and all, with its scan context for
/// the context's next call or record (``DecodingSession/endCall(_:pool:)``,
/// ``DecodingSession/endRecord(_:)``): then the spares go when the session
/// does, and a new session over the context is made only once they have
/// gone, since a free spare is given out to whichever session asks.
class SpareKeyedContainer {
  /// The box of the container last made, or nil.
  fileprivate let spare: UnsafeMutablePointer<AnyObject?>
  /// The index of the spare container's state in its session, or -1.
  @exclusivity(unchecked) fileprivate var spareIndex = -1
  /// The session the spare container holds (whose state it reads), by
  /// identity.
  @exclusivity(unchecked) fileprivate var spareOwner: ObjectIdentifier?
  /// Whether a container was made since the spare was last let go of:
  /// only a second one of its key type in one session is kept, since
  /// keeping one costs a look-up of the container type's metadata, which
  /// a key type met once in a document would pay for nothing.
  @exclusivity(unchecked) fileprivate var hasMadeOne = false
  /// Whether ``CodingKeyTypes`` lists this maker as asked for a container
  /// since it last let go of its spare: only such a maker may hold a spare,
  /// or count one made.
  @exclusivity(unchecked) var isActive = false
  /// The number of the last call (``CodingKeyTypes``) that asked it for a
  /// container.
  @exclusivity(unchecked) var lastCall = -1

  init() {
    spare = .allocate(capacity: 1)
    spare.initialize(to: nil)
  }

  deinit {
    spare.deinitialize(count: 1)
    spare.deallocate()
  }

  /// Whether the standard library's keyed containers are, as in every one
  /// so far, one strong reference to their box (whatever their key type);
  /// if not, no container is given out twice. Worked out once: asked of a
  /// generic type, it would cost a metadata look-up each time.
  fileprivate static let canTellIfHeld =
    MemoryLayout<KeyedDecodingContainer<AnyCodingKey>>.size == MemoryLayout<AnyObject?>.size
    && MemoryLayout<KeyedEncodingContainer<AnyCodingKey>>.size == MemoryLayout<AnyObject?>.size
    && MemoryLayout<KeyedDecodingContainer<AnyCodingKey>>.alignment
      == MemoryLayout<AnyObject>.alignment
    && MemoryLayout<KeyedEncodingContainer<AnyCodingKey>>.alignment
      == MemoryLayout<AnyObject>.alignment

  /// Lets go of the spare container.
  final func dropSpare() {
    spare.pointee = nil
    spareIndex = -1
    spareOwner = nil
    hasMadeOne = false
  }

  /// The index of the spare container's state, -1 for none, or nil when code other
  /// than this holds it or it belongs to a session other than `owner`: a
  /// spare that this answers for holds `owner` exactly once (a container
  /// holds its session and its state's index, nothing else).
  final func freeSpare(of owner: ObjectIdentifier) -> Int? {
    guard spareIndex >= 0 else { return -1 }
    guard Self.canTellIfHeld, spareOwner == owner, isKnownUniquelyReferenced(&spare.pointee)
    else { return nil }
    return spareIndex
  }
}

/// A ``SpareKeyedContainer`` that gives out containers of type `Container`
/// (a `KeyedDecodingContainer` or `KeyedEncodingContainer` of one key
/// type): the makers of containers are its subclasses.
class TypedSpareKeyedContainer<Container>: SpareKeyedContainer {
  /// A container of type `Container` over the object that `state` gives:
  /// the spare, its state in `states` set to `state`, when no code but this
  /// holds it; otherwise a new one, made by `make` for a new state in
  /// `states` of the session `owner`, and kept as the spare when `keeps`.
  ///
  /// The container is copied or made out of line, where `Container` is this
  /// class's parameter: inlined into a maker generic over the key type, the
  /// container type would be looked up from the key type again.
  @inline(__always)
  final func container<State>(
    for state: State, in states: inout [State], of owner: AnyObject, keeps: Bool,
    make: (_ stateIndex: Int) -> Container
  ) -> Container {
    if let index = freeSpareIndex() {
      states[index] = state
      return spareContainer()
    }
    let index = states.count
    // Room for a typical document's key types at once, not grown one by one.
    if states.capacity == 0 { states.reserveCapacity(16) }
    states.append(state)
    return newContainer(stateIndex: index, keeps: keeps, owner: owner, make: make)
  }

  /// A new container made by `make` for the state at `stateIndex`, kept as the spare when
  /// `keeps` and it is the second made since the spare was let go of.
  @inline(never)
  private func newContainer(
    stateIndex: Int, keeps: Bool, owner: AnyObject, make: (_ stateIndex: Int) -> Container
  ) -> Container {
    let made = make(stateIndex)
    if keeps && hasMadeOne { keep(made, stateIndex: stateIndex, owner: ObjectIdentifier(owner)) }
    hasMadeOne = true
    return made
  }

  /// The index of the spare container's state when no code but this holds it, so
  /// that it may be pointed at another object and given out again.
  @inline(__always)
  private func freeSpareIndex() -> Int? {
    guard SpareKeyedContainer.canTellIfHeld, spareIndex >= 0,
      isKnownUniquelyReferenced(&spare.pointee)
    else {
      return nil
    }
    return spareIndex
  }

  /// The spare container, of the type it was kept as: the memory holds that
  /// container's one reference, which is what it is bound to.
  @inline(never)
  private func spareContainer() -> Container {
    UnsafeRawPointer(spare).assumingMemoryBound(to: Container.self).pointee
  }

  /// Keeps `container`, a keyed container of the standard library's whose
  /// container reads its object from the state at `stateIndex`, as the spare.
  ///
  /// The old spare is moved out before the memory is bound to the
  /// container's type and written, and released only after, so that no
  /// store through one type can be ordered around one through the other;
  /// the memory is then bound back to the reference it is read as.
  private func keep(_ container: Container, stateIndex: Int, owner: ObjectIdentifier) {
    guard SpareKeyedContainer.canTellIfHeld else { return }
    let old = spare.move()
    UnsafeMutableRawPointer(spare).bindMemory(to: Container.self, capacity: 1)
      .initialize(to: container)
    UnsafeMutableRawPointer(spare).bindMemory(to: AnyObject?.self, capacity: 1)
    spareIndex = stateIndex
    spareOwner = owner
    withExtendedLifetime(old) {}
  }
}
