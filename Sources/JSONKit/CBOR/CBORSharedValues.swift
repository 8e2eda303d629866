/// The classes decoded at the shared values of one CBOR document (tag 28)
/// and at the references to them (tag 29): `JKCBORDecoder` gives one to
/// the session of a document whose scan recorded shared values.
final class CBORSharedValues: SharedValueDecoding {
  /// The class instances decoded at shared values so far, by number.
  private var instances: [Int: AnyObject] = [:]
  /// The shared values whose class is being decoded, to refuse a cycle
  /// through a class that cannot be made before its members.
  private var inProgress: Set<Int> = []

  /// Decodes the class `type` from the value at `index`: where a shared
  /// value or a reference to one was scanned, the instance decoded at the
  /// first of its places is returned at every other, whichever the model
  /// reads first. A reference left in place of a copy is decoded, the
  /// first time, from the value it refers to.
  @inline(never)
  func instance<T: Decodable>(_ type: T.Type, at index: Int, in session: DecodingSession) throws
    -> T
  {
    let roots = session.context.state.sharedRoots
    let position = CBORTapeScanner.firstRoot(atOrAfter: index, in: roots)
    guard position < roots.count, roots[position].index == index else {
      return try session.initializeValue(type, at: index)
    }
    let number = roots[position].number
    // A value decoded as another class at another place is not this one.
    if let instance = instances[number] as? T { return instance }
    let entries = session.entries
    var value = index
    while entries[value].kind == .sharedReference { value = Int(entries[value].payload) }
    if let cyclic = type as? any JKCBORCyclicDecodable.Type {
      return try decodeCyclic(cyclic, number: number, at: value, in: session) as! T
    }
    guard !inProgress.contains(number) else {
      throw DecodingErrors.corrupted(
        "The shared value refers to itself: only a class that conforms to "
          + "JKCBORCyclicDecodable is decoded inside a cycle, not \(T.self).",
        path: session.codingPaths.path(to: index))
    }
    inProgress.insert(number)
    defer { inProgress.remove(number) }
    let instance = try session.initializeValue(type, at: value)
    if instances[number] == nil { instances[number] = instance as AnyObject }
    return instance
  }

  /// Makes an instance of `type` for shared value `number`, at `index`,
  /// before its members are read, so that the references inside it get it.
  private func decodeCyclic<C: JKCBORCyclicDecodable>(
    _ type: C.Type, number: Int, at index: Int, in session: DecodingSession
  ) throws -> C {
    let instance = type.init()
    if instances[number] == nil { instances[number] = instance }
    try session.checkingUnknownKeys(at: index) {
      try instance.decodeMembers(from: TapeDecoder(session: session, index: index))
    }
    return instance
  }

  func checkNoSharedReference(
    in index: Int, path: [any CodingKey], in session: DecodingSession
  ) throws {
    let entries = session.entries
    let end = entries[index].isContainer ? entries[index].containerEnd : index + 1
    let roots = session.context.state.sharedRoots
    var position = CBORTapeScanner.firstRoot(atOrAfter: index, in: roots)
    while position < roots.count, roots[position].index < end {
      let kind = entries[roots[position].index].kind
      if kind == .sharedReference {
        throw DecodingErrors.typeMismatch(
          JSONValue.self, found: session.found(kind), path: path)
      }
      position += 1
    }
  }
}
