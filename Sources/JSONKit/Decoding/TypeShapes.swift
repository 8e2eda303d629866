/// The ``DecodingSession/TypeShape`` of each type decoded with one scan
/// context, kept with the context (in its ``KeyTables``) so that it serves
/// every document decoded with it: a JSON Lines stream decodes the same
/// types record after record, and a conformance lookup costs more than a
/// small record's decode.
///
/// Like the context, it is used by one decode at a time, so its accesses
/// need no run-time exclusivity checks.
final class TypeShapes {
  /// Types already asked about, with their shape: a conformance lookup
  /// costs far more than scanning this short list, and a program decodes
  /// few distinct types.
  @exclusivity(unchecked)
  private var shapes: [(type: ObjectIdentifier, shape: DecodingSession.TypeShape)] = []

  /// The shapes found last, by a hash of the type's metadata address: a
  /// model's `init(from:)` asks for each of its nested types, over and over,
  /// and one probe here costs a fraction of scanning ``shapes``.
  @exclusivity(unchecked)
  private var recentShapes = [(type: ObjectIdentifier?, shape: DecodingSession.TypeShape)](
    repeating: (nil, .initializerOnly), count: TypeShapes.recentSlots)
  private static let recentSlots = 32

  /// The shape of `type`.
  @inline(__always)
  func shape(of type: Any.Type) -> DecodingSession.TypeShape {
    let identifier = ObjectIdentifier(type)
    let address = UInt(bitPattern: identifier)
    let slot = Int(truncatingIfNeeded: (address >> 4 ^ address >> 10)) & (Self.recentSlots - 1)
    let recent = recentShapes[slot]
    if recent.type == identifier { return recent.shape }
    let shape = lookUpShape(of: type)
    recentShapes[slot] = (identifier, shape)
    return shape
  }

  /// The shape of `type` from ``shapes``, found there or by its conformances.
  @inline(never)
  private func lookUpShape(of type: Any.Type) -> DecodingSession.TypeShape {
    let identifier = ObjectIdentifier(type)
    for known in shapes where known.type == identifier {
      return known.shape
    }
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
    shapes.append((identifier, shape))
    return shape
  }
}
