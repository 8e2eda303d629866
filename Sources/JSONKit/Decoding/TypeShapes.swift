/// The ``DecodingSession/TypeShape`` of each type decoded with one scan
/// context, kept with the context (in its ``KeyedDecodingTables``) so that it serves
/// every document decoded with it: a JSON Lines stream decodes the same
/// types record after record, and a conformance lookup costs more than a
/// small record's decode.
///
/// Like the context, it is used by one decode at a time, so its accesses
/// need no run-time exclusivity checks.
final class TypeShapes {
  /// The types already asked about, numbered in the order met, and their
  /// shapes by number.
  @exclusivity(unchecked) private var types = TypeIndex()
  @exclusivity(unchecked) private var shapes: [DecodingSession.TypeShape] = []

  /// The shapes found last, direct-mapped by a multiplicative hash of the
  /// type's metadata address: one probe and one comparison, for the types a
  /// model's `init(from:)` asks for over and over. A type that shares its
  /// bucket with another is found in ``types`` instead.
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

  /// The shape of `type` by its number in ``types``, or found and added.
  @inline(never)
  private func knownShape(of type: Any.Type) -> DecodingSession.TypeShape {
    if let number = types.number(of: ObjectIdentifier(type)) { return shapes[number] }
    let shape: DecodingSession.TypeShape
    if let kind = LeafKind(type) {
      shape = .leaf(kind)
    } else if let array = type as? any TapeDecodableArray.Type {
      shape = .array(array)
    } else if let dictionary = type as? any StringKeyedDictionary.Type {
      shape = .dictionary(dictionary)
    } else if let optional = type as? any TapeDecodableOptional.Type {
      shape = .optional(optional)
    } else if let set = type as? any TapeDecodableSet.Type {
      shape = .set(set)
    } else {
      shape = .initializerOnly
    }
    _ = types.add(ObjectIdentifier(type))
    shapes.append(shape)
    return shape
  }
}
