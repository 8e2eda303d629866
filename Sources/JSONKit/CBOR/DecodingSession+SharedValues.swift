extension DecodingSession {
  /// Decodes the class `type` from the value at `index` of a document with
  /// shared values: where a shared value (CBOR's tag 28) or a reference to
  /// one (tag 29) was scanned, the instance decoded at the first of its
  /// places is returned at every other, whichever the model reads first.
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
    let value = try initializeValue(type, at: index)
    if sharedInstances[number] == nil { sharedInstances[number] = value as AnyObject }
    return value
  }
}
