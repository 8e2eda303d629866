/// What keyed decoding derives from one scan context's key cache, kept with
/// the context (in ``ScanState/derivedKeyTables``) so that it serves every
/// decoder that uses the context, document after document: per naming, the
/// keys' names and the names asked for.
///
/// Like the context, it is used by one decode at a time.
final class KeyTables {
  // Unchecked: one decode at a time uses the tables (as it does the scan
  // context), and a lookup's one access to them, which runs for most keys
  // asked for, would otherwise cost more than the lookup itself.
  @exclusivity(unchecked) private var asWritten = Table(naming: .asWritten)
  @exclusivity(unchecked) private var fromSnakeCase = Table(naming: .fromSnakeCase)

  private struct Table {
    var names: KeyNames
    var asked = AskedNames()

    init(naming: KeyNames.Naming) {
      names = KeyNames(naming: naming)
    }

    @inline(__always)
    mutating func nameID(of name: String) -> UInt32 {
      asked.nameID(of: name, in: names)
    }
  }

  /// The tables of `context`, made on first use.
  static func of(_ context: ScanContext) -> KeyTables {
    if let tables = context.state.derivedKeyTables as? KeyTables { return tables }
    let tables = KeyTables()
    context.state.derivedKeyTables = tables
    return tables
  }

  /// The names of every key in `keys` under `naming`, naming the keys not
  /// named before.
  func names(_ naming: KeyNames.Naming, updatedFrom keys: KeyCache) -> KeyNames {
    switch naming {
    case .asWritten:
      asWritten.names.update(from: keys)
      return asWritten.names
    case .fromSnakeCase:
      fromSnakeCase.names.update(from: keys)
      return fromSnakeCase.names
    }
  }

  /// The name id of `name` under `naming`, or ``KeyNames/none``.
  @inline(__always)
  func nameID(of name: String, _ naming: KeyNames.Naming) -> UInt32 {
    switch naming {
    case .asWritten: asWritten.nameID(of: name)
    case .fromSnakeCase: fromSnakeCase.nameID(of: name)
    }
  }
}
