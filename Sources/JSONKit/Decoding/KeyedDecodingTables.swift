/// What keyed decoding derives from one scan context's key cache, kept with
/// the context (in a ``DecodingContext``) so that it serves every decoder
/// that uses the context, document after document: per naming, the keys'
/// names and the names asked for.
///
/// Like the context, it is used by one decode at a time.
final class KeyedDecodingTables {
  // Unchecked: one decode at a time uses the tables (as it does the scan
  // context), and a lookup's one access to them, which runs for most keys
  // asked for, would otherwise cost more than the lookup itself.
  @exclusivity(unchecked) private var asWritten = Table(naming: .asWritten)
  @exclusivity(unchecked) private var fromSnakeCase = Table(naming: .fromSnakeCase)

  /// The key types keyed containers were asked for, with their makers.
  @exclusivity(unchecked) var keyTypes = CodingKeyTypes()

  /// The storage of a finished session's ``DecodingSession/keyedObjects``,
  /// emptied, for the next session to fill without growing it again.
  @exclusivity(unchecked) var spareKeyedObjects: [KeyedObjectState] = []

  /// The member tables of the large objects of the document being decoded.
  @exclusivity(unchecked) var memberTables = MemberTables()

  /// The shapes of the types decoded so far, which depend on the type alone.
  let typeShapes = TypeShapes()

  /// The storage of the lookup hints of the sessions that use these tables
  /// (see ``KeyedLookup/lookup(_:inObject:findsLast:)``), made once, so
  /// that a session over a small document (a JSON Lines record) clears only
  /// the few buckets its objects can reach.
  let hints: UnsafeMutablePointer<Int>
  static let hintBuckets = 256

  init() {
    hints = .allocate(capacity: 3 * Self.hintBuckets)
  }

  deinit {
    memberTables.deallocate()
    hints.deallocate()
  }

  private struct Table: ~Copyable {
    var names: KeyIDNames
    var asked = AskedKeyNames()

    init(naming: KeyIDNames.Naming) {
      names = KeyIDNames(naming: naming)
    }

    @inline(__always)
    mutating func nameID(of name: String, after previous: Int) -> (nameID: UInt32, entry: Int) {
      asked.nameID(of: name, after: previous, in: names)
    }

    @inline(__always)
    mutating func nameID(
      ofKeyValue value: UInt8, keyType: Int, type: ObjectIdentifier, name: () -> String
    ) -> (nameID: UInt32, entry: Int) {
      asked.nameID(ofKeyValue: value, keyType: keyType, type: type, in: names, name: name)
    }
  }

  /// The names of every key in `keys` under `naming`, naming the keys not
  /// named before.
  func names(_ naming: KeyIDNames.Naming, updatedFrom keys: KeyInterner) -> KeyIDNames {
    switch naming {
    case .asWritten:
      asWritten.names.update(from: keys)
      return asWritten.names
    case .fromSnakeCase:
      fromSnakeCase.names.update(from: keys)
      return fromSnakeCase.names
    }
  }

  /// The name id of `name` under `naming` (or ``KeyIDNames/none``), and what
  /// to pass as `previous` with the next name asked for in the same object.
  /// `previous` is that value from the name asked before, the start of the
  /// key type for an object's first name (``AskedKeyNames/start(forKeyType:)``),
  /// or -1 for no prediction; see ``AskedKeyNames``.
  @inline(__always)
  func nameID(of name: String, after previous: Int, _ naming: KeyIDNames.Naming) -> (
    nameID: UInt32, entry: Int
  ) {
    switch naming {
    case .asWritten: asWritten.nameID(of: name, after: previous)
    case .fromSnakeCase: fromSnakeCase.nameID(of: name, after: previous)
    }
  }

  /// ``nameID(of:after:_:)`` for a key whose values are at most one byte of
  /// plain data, `value` being its byte, of the key type at `keyType` in
  /// ``CodingKeyTypes`` (below ``CodingKeyTypes/namedByValueLimit``), whose
  /// identity is `type`: `name()` is called only for a key not met before,
  /// or whose name was then no member's (see ``AskedKeyNames``).
  @inline(__always)
  func nameID(
    ofKeyValue value: UInt8, keyType: Int, type: ObjectIdentifier, _ naming: KeyIDNames.Naming,
    name: () -> String
  ) -> (nameID: UInt32, entry: Int) {
    switch naming {
    case .asWritten:
      asWritten.nameID(ofKeyValue: value, keyType: keyType, type: type, name: name)
    case .fromSnakeCase:
      fromSnakeCase.nameID(ofKeyValue: value, keyType: keyType, type: type, name: name)
    }
  }
}
