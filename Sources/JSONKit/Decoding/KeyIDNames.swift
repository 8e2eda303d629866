/// Per key id of one key cache: the name that keyed lookups compare with
/// `CodingKey.stringValue` (the key as written, or as a key strategy converts
/// it), and which ids share a name.
///
/// Names are compared as Swift compares Strings, so keys spelled with other
/// bytes can share a name: canonically equivalent spellings ("é" and
/// "e\u{301}", "K" and U+212A KELVIN SIGN) and, under `.convertFromSnakeCase`,
/// keys that convert alike (`a_b` and `aB`). Each name gets a *name id*, the
/// id of the first key given it, so that a lookup compares integers, never
/// Strings, and finds every spelling of the name it asks for.
///
/// The ids are the key cache's, so the names grow with it (each key is named
/// once, whatever number of documents hold it) and must be dropped whenever
/// it is emptied.
struct KeyIDNames {
  /// How a key's name is made from the key as written.
  enum Naming {
    /// The key as written (`.useDefaultKeys`, and `.custom`, whose names are
    /// made per object).
    case asWritten
    /// Foundation's `.convertFromSnakeCase` conversion.
    case fromSnakeCase
  }

  /// No name id: a name that no key has.
  static let none = UInt32.max

  let naming: Naming
  /// Per key id: its name.
  private(set) var names: [String] = []
  /// Per key id: its name id.
  private(set) var nameIDs: [UInt32] = []
  /// Per key id that is a name id: whether keys that are not equal as
  /// written were given the name, so that an object without duplicate keys
  /// may still hold the name twice. Empty while no name is shared.
  private(set) var nameIsShared: [Bool] = []
  /// Per key id that is a name id: the id of the first key, as written, that
  /// was given the name.
  private var owners: [UInt32] = []
  /// The name id of each name.
  private var idsByName: [String: UInt32] = [:]

  init(naming: Naming) {
    self.naming = naming
  }

  /// The number of key ids named.
  var count: Int { names.count }

  /// Whether some name is shared by keys not equal as written.
  var hasSharedNames: Bool { !nameIsShared.isEmpty }

  /// Whether the name of key `id` is shared by keys not equal as written.
  @inline(__always)
  func isShared(_ id: UInt32) -> Bool {
    !nameIsShared.isEmpty && nameIsShared[Int(nameIDs[Int(id)])]
  }

  /// The name id of `name`, or ``none`` if no key has that name; exact, by
  /// String equality (a hash table of Strings), for the names not yet asked
  /// for (see ``AskedKeyNames``).
  func nameID(ofName name: String) -> UInt32 {
    idsByName[name] ?? Self.none
  }

  /// Names every key `keys` holds that is not named yet.
  mutating func update(from keys: KeyInterner) {
    if keys.count < names.count {
      // The cache was emptied since, so the ids mean other keys now.
      self = KeyIDNames(naming: naming)
    }
    guard names.count < keys.count else { return }
    names.reserveCapacity(keys.count)
    nameIDs.reserveCapacity(keys.count)
    owners.reserveCapacity(keys.count)
    var newlyShared: [UInt32] = []
    for id in names.count..<keys.count {
      let written = keys.strings[id]
      let name =
        switch naming {
        case .asWritten: written
        case .fromSnakeCase: KeyConversion.camelCased(written)
        }
      let owner = keys.canonicalIDs[id]
      let nameID: UInt32
      if let known = idsByName[name] {
        nameID = known
        if owners[Int(known)] != owner { newlyShared.append(known) }
      } else {
        nameID = UInt32(id)
        idsByName[name] = nameID
      }
      names.append(name)
      nameIDs.append(nameID)
      owners.append(owner)
    }
    if !nameIsShared.isEmpty || !newlyShared.isEmpty {
      if nameIsShared.count < names.count {
        nameIsShared.append(
          contentsOf: repeatElement(false, count: names.count - nameIsShared.count))
      }
      for id in newlyShared { nameIsShared[Int(id)] = true }
    }
  }
}
