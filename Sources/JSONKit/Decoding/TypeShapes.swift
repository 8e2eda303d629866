/// The ``DecodingSession/TypeShape`` of each type decoded with one scan
/// context, kept with the context (in its ``KeyTables``) so that it serves
/// every document decoded with it: a JSON Lines stream decodes the same
/// types record after record, and a conformance lookup costs more than a
/// small record's decode.
///
/// Like the context, it is used by one decode at a time, so its accesses
/// need no run-time exclusivity checks.
final class TypeShapes {
  /// Types already asked about, with their shape, in the order met.
  @exclusivity(unchecked)
  private var shapes: [(type: ObjectIdentifier, shape: DecodingSession.TypeShape)] = []

  /// Open addressed by a hash of the type's metadata address, at most half
  /// full: an index into ``shapes`` plus one, or 0 when empty. Every type
  /// met is found here in a probe or two, whatever the addresses of the
  /// program's types.
  @exclusivity(unchecked)
  private var slots = [Int](repeating: 0, count: 64)

  /// The shapes found last, direct-mapped by a multiplicative hash of the
  /// type's metadata address: one probe and one comparison, for the types a
  /// model's `init(from:)` asks for over and over. A type that shares its
  /// slot with another is found in ``slots`` instead.
  @exclusivity(unchecked)
  private var recentShapes = [(type: ObjectIdentifier?, shape: DecodingSession.TypeShape)](
    repeating: (nil, .initializerOnly), count: 1 << TypeShapes.recentBits)
  private static let recentBits = 6

  /// The shape of `type`.
  @inline(__always)
  func shape(of type: Any.Type) -> DecodingSession.TypeShape {
    let identifier = ObjectIdentifier(type)
    let address = UInt64(UInt(bitPattern: identifier))
    let recent = Int(
      truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.recentBits))
    let cached = recentShapes[recent]
    if cached.type == identifier { return cached.shape }
    let shape = knownShape(of: type)
    recentShapes[recent] = (identifier, shape)
    return shape
  }

  /// The shape of `type` from ``slots``, or found and added.
  @inline(never)
  private func knownShape(of type: Any.Type) -> DecodingSession.TypeShape {
    let identifier = ObjectIdentifier(type)
    let mask = slots.count - 1
    var slot = KeyTypes.slot(of: identifier, mask: mask)
    while true {
      let stored = slots[slot]
      if stored == 0 { break }
      let known = shapes[stored - 1]
      if known.type == identifier { return known.shape }
      slot = (slot + 1) & mask
    }
    return addShape(of: type)
  }

  /// The shape of `type`, not asked about before, found by its
  /// conformances and added.
  private func addShape(of type: Any.Type) -> DecodingSession.TypeShape {
    let shape: DecodingSession.TypeShape
    if let kind = LeafKind(type) {
      shape = .leaf(kind)
    } else if let array = type as? any TapeDecodableArray.Type {
      shape = .array(array)
    } else if let dictionary = type as? any StringKeyedDictionary.Type {
      shape = .dictionary(dictionary)
    } else {
      shape = .initializerOnly
    }
    shapes.append((ObjectIdentifier(type), shape))
    if shapes.count * 2 > slots.count {
      slots = [Int](repeating: 0, count: slots.count * 2)
      for index in shapes.indices { place(index) }
    } else {
      place(shapes.count - 1)
    }
    return shape
  }

  /// Puts the type at `index` of ``shapes`` in the first free slot from its
  /// hash on.
  private func place(_ index: Int) {
    let mask = slots.count - 1
    var slot = KeyTypes.slot(of: shapes[index].type, mask: mask)
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = index + 1
  }
}
