extension DecodingSession {
  /// Decodes the class `type` from the value at `index` of a document with
  /// shared values: where a shared value (CBOR's tag 28) or a reference to
  /// one (tag 29) was scanned, the instance decoded at the first of its
  /// places is returned at every other, whichever the model reads first.
  /// A reference left in place of a copy is decoded, the first time, from
  /// the value it refers to.
  @inline(never)
  func sharedInstance<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    let roots = context.state.sharedRoots
    let position = CBORTapeScanner.firstRoot(atOrAfter: index, in: roots)
    guard position < roots.count, roots[position].index == index else {
      return try initializeValue(type, at: index)
    }
    let number = roots[position].number
    // A value decoded as another class at another place is not this one.
    if let instance = sharedInstances[number] as? T { return instance }
    var value = index
    while entries[value].kind == .sharedReference { value = Int(entries[value].payload) }
    if let cyclic = type as? any JKCBORCyclicDecodable.Type {
      return try decodeCyclic(cyclic, number: number, at: value) as! T
    }
    guard !sharedInProgress.contains(number) else {
      throw DecodingErrors.corrupted(
        "The shared value refers to itself: only a class that conforms to "
          + "JKCBORCyclicDecodable is decoded inside a cycle, not \(T.self).",
        path: codingPaths.path(to: index))
    }
    sharedInProgress.insert(number)
    defer { sharedInProgress.remove(number) }
    let instance = try initializeValue(type, at: value)
    if sharedInstances[number] == nil { sharedInstances[number] = instance as AnyObject }
    return instance
  }

  /// Makes an instance of `type` for shared value `number`, at `index`,
  /// before its members are read, so that the references inside it get it.
  private func decodeCyclic<C: JKCBORCyclicDecodable>(
    _ type: C.Type, number: Int, at index: Int
  ) throws -> C {
    let instance = type.init()
    if sharedInstances[number] == nil { sharedInstances[number] = instance }
    try checkingUnknownKeys(at: index) {
      try instance.decodeMembers(from: TapeDecoder(session: self, index: index))
    }
    return instance
  }

  /// Notes, before a `JSONValue` is built from the value at `index`, any
  /// shared reference left inside it in place of a copy (see
  /// ``needsSharedCopies``), and throws for it.
  func checkNoSharedReference(in index: Int, path: [any CodingKey]) throws {
    let end = entries[index].isContainer ? entries[index].containerEnd : index + 1
    let roots = context.state.sharedRoots
    var position = CBORTapeScanner.firstRoot(atOrAfter: index, in: roots)
    while position < roots.count, roots[position].index < end {
      let kind = entries[roots[position].index].kind
      if kind == .sharedReference {
        throw DecodingErrors.typeMismatch(JSONValue.self, found: found(kind), path: path)
      }
      position += 1
    }
  }
}
