/// Arrays, decoded straight from the tape with exactly the capacity they
/// need, as the standard library's `Array.init(from:)` would decode them.
protocol TapeDecodableArray {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
}

extension Array: TapeDecodableArray where Element: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    guard session[index].childCount > 0 else { return [] }
    // Code called through a conformance is not specialised for the element
    // type: element by element it would go through every check `unwrap`
    // makes, and look up the generic metadata of each array it builds. So
    // arrays of leaves are read by code written for their element type, and
    // arrays of arrays look up their elements' conformance once.
    if let leaves = try session.leafArray(of: Element.self, at: index) { return leaves }
    if session[index + 1].kind == .array {
      if let rows = try session.leafRows(of: Element.self, at: index) { return rows }
      if let nested = session.arrayConformance(of: Element.self) {
        return try decodeArrays(nested, from: session, at: index)
      }
    }
    let shape = session.shape(of: Element.self)
    if case .optional(let optional) = shape {
      return try decodeOptionals(optional, from: session, at: index)
    }
    if case .leaf(let kind) = shape,
      let leaves = try session.specialLeafArray(kind, of: Element.self, at: index)
    {
      return leaves
    }
    if case .initializerOnly = shape {
      // What `unwrap` comes to for such a type, without its checks.
      return try decodeElements(from: session, at: index) { position, _ in
        try session.initialize(Element.self, at: position)
      }
    }
    return try decodeElements(from: session, at: index) { position, path in
      try session.unwrap(Element.self, at: position, path: path())
    }
  }

  /// The array at `index` whose elements are arrays of type `nested`
  /// (`Element` itself), decoded as ``DecodingSession/unwrap(_:at:path:)``
  /// decodes them, without its checks for the types an array is not.
  private static func decodeArrays<Nested: TapeDecodableArray>(
    _ nested: Nested.Type, from session: DecodingSession, at index: Int
  ) throws -> Self {
    try decodeElements(from: session, at: index) { position, path in
      guard session[position].kind == .array else {
        // The error for a value of another kind, as `unwrap` gives it.
        return try session.unwrap(Element.self, at: position, path: path())
      }
      return session.reinterpret(try Nested.decode(from: session, at: position), as: Element.self)
    }
  }

  /// The array at `index` whose elements are optionals of type `optional`
  /// (`Element` itself), each read as `Optional.init(from:)` reads it.
  private static func decodeOptionals<Optional: TapeDecodableOptional>(
    _ optional: Optional.Type, from session: DecodingSession, at index: Int
  ) throws -> Self {
    session.reinterpret(try Optional.decodeArray(from: session, at: index), as: Self.self)
  }

  /// The elements of the array at `index`, each read by `read` as in
  /// ``DecodingSession/elements(at:_:)``, for code not specialised for the
  /// element type: reserving and appending looks up the array's generic
  /// metadata once, where `init(unsafeUninitializedCapacity:)` does twice.
  @inline(__always)
  private static func decodeElements(
    from session: DecodingSession, at index: Int,
    _ read: (Int, () -> [any CodingKey]) throws -> Element
  ) throws -> Self {
    let array = session[index]
    var result: Self = []
    result.reserveCapacity(array.childCount)
    var position = index + 1
    while position < array.containerEnd {
      result.append(
        try read(position) {
          session.codingPaths.path(to: index) + [AnyCodingKey(intValue: result.count)]
        })
      position = session.indexAfter(position)
    }
    return result
  }
}

extension DecodingSession {
  /// The elements of the array at `index`, each read by `read` from its tape
  /// index, with its coding path for errors: into storage of exactly the
  /// array's size, without growing it.
  @inline(__always)
  func elements<Element>(
    at index: Int, _ read: (Int, () -> [any CodingKey]) throws -> Element
  ) throws -> [Element] {
    let count = self[index].childCount
    return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      var position = index + 1
      while initialized < count {
        let element = try read(position) {
          self.codingPaths.path(to: index) + [AnyCodingKey(intValue: initialized)]
        }
        (buffer.baseAddress.unsafelyUnwrapped + initialized).initialize(to: element)
        initialized += 1
        position = indexAfter(position)
      }
    }
  }

  /// The elements of the array at `index` as ``elements(at:_:)`` reads
  /// them, each of type `Leaf`, seen as `[Element]` (which `[Leaf]` is),
  /// for code that knows the one type through the other.
  @inline(__always)
  func elements<Leaf, Element>(
    at index: Int, as type: Element.Type, _ read: (Int, () -> [any CodingKey]) throws -> Leaf
  ) throws -> [Element] {
    reinterpret(try elements(at: index, read), as: [Element].self)
  }

  /// The elements of the array at `index` as ``elements(at:_:)`` reads
  /// them, for elements that are plain bits. A short array is read onto the
  /// stack and then copied into an array: unlike reserving storage, making
  /// an array from a buffer is inlined and specialised here, so its storage
  /// type is not looked up at run time, and the many short arrays of a
  /// document (coordinates, pairs) cost a copy of a few words instead.
  @inline(__always)
  func leafElements<Element: BitwiseCopyable>(
    at index: Int, _ read: (Int, () -> [any CodingKey]) throws -> Element
  ) throws -> [Element] {
    let count = self[index].childCount
    guard count <= Self.shortArrayLimit else { return try elements(at: index, read) }
    return try withUnsafeTemporaryAllocation(of: Element.self, capacity: count) { buffer in
      var position = index + 1
      for offset in 0..<count {
        let element = try read(position) {
          self.codingPaths.path(to: index) + [AnyCodingKey(intValue: offset)]
        }
        buffer.initializeElement(at: offset, to: element)
        position = indexAfter(position)
      }
      return Array(UnsafeBufferPointer(buffer))
    }
  }

  /// The most elements ``leafElements(at:_:)`` reads onto the stack.
  static let shortArrayLimit = 32

  /// The array at `index` as `[Element]` when `Element` is one of the leaf
  /// types `unwrap` reads without `init(from:)` (a number, `String` or
  /// `Bool`), each element read as `unwrap` reads it; nil for other types.
  @inline(__always)
  func leafArray<Element>(of type: Element.Type, at index: Int) throws -> [Element]? {
    switch LeafKind.scalar(Element.self) {
    case .double: return reinterpret(try doubles(at: index), as: [Element].self)
    case .int: return try integerArray(Int.self, at: index, as: [Element].self)
    case .string: return reinterpret(try strings(at: index), as: [Element].self)
    case .bool:
      return reinterpret(
        try leafElements(at: index) { try bool(at: $0, path: $1()) }, as: [Element].self)
    case .float:
      return reinterpret(
        try leafElements(at: index) { try float(at: $0, path: $1()) }, as: [Element].self)
    case .int64: return try integerArray(Int64.self, at: index, as: [Element].self)
    case .int32: return try integerArray(Int32.self, at: index, as: [Element].self)
    case .uint64: return try integerArray(UInt64.self, at: index, as: [Element].self)
    case .uint: return try integerArray(UInt.self, at: index, as: [Element].self)
    case .uint32: return try integerArray(UInt32.self, at: index, as: [Element].self)
    case .int16: return try integerArray(Int16.self, at: index, as: [Element].self)
    case .uint16: return try integerArray(UInt16.self, at: index, as: [Element].self)
    case .int8: return try integerArray(Int8.self, at: index, as: [Element].self)
    case .uint8: return try integerArray(UInt8.self, at: index, as: [Element].self)
    default: return nil
    }
  }

  /// The array at `index` as `[Element]` when `Element` is an array of the
  /// numbers most often nested (coordinates, matrices), read without going
  /// through the inner arrays' conformance; nil for other types.
  @inline(__always)
  func leafRows<Element>(of type: Element.Type, at index: Int) throws -> [Element]? {
    if Element.self == [Double].self {
      return reinterpret(try rows(at: index) { try doubles(at: $0) }, as: [Element].self)
    }
    if Element.self == [Int].self {
      return reinterpret(
        try rows(at: index) { row in
          try leafElements(at: row) { try integer(Int.self, at: $0, path: $1()) }
        }, as: [Element].self)
    }
    if Element.self == [Float].self {
      return reinterpret(
        try rows(at: index) { row in try leafElements(at: row) { try float(at: $0, path: $1()) } },
        as: [Element].self)
    }
    if Element.self == [Int64].self {
      return reinterpret(
        try rows(at: index) { row in
          try leafElements(at: row) { try integer(Int64.self, at: $0, path: $1()) }
        }, as: [Element].self)
    }
    return nil
  }

  /// The elements of the array at `index`, each an array of leaves that
  /// `readRow` reads from its tape index; an element that is not an array
  /// is decoded as `unwrap` decodes it (which throws).
  @inline(__always)
  private func rows<Leaf: Decodable>(at index: Int, _ readRow: (Int) throws -> [Leaf]) throws
    -> [[Leaf]]
  {
    try elements(at: index) { position, path in
      guard self[position].kind == .array else {
        return try unwrap([Leaf].self, at: position, path: path())
      }
      return try readRow(position)
    }
  }

  /// The array of Doubles at `index`, as ``leafElements(at:_:)`` reads it.
  /// When every element is a number, which cannot fail, it is copied from
  /// a collection over the tape, which makes the array in one inlined pass.
  @inline(__always)
  func doubles(at index: Int) throws -> [Double] {
    let count = self[index].childCount
    let first = entries + index + 1
    var offset = 0
    // Each element checked is a scalar, so the next one is the next entry.
    while offset < count, first[offset].isNumber { offset += 1 }
    guard offset == count else {
      return try leafElements(at: index) { try double(at: $0, path: $1()) }
    }
    return Array(TapeNumbersAsDoubles(entries: first, count: count))
  }

  /// The array of Strings at `index`, each element read as `unwrap` reads
  /// it. When every element is a string, which cannot fail, it is copied
  /// from a collection over the tape: making an array from a collection is
  /// inlined here, so its storage type is not looked up at run time, where
  /// reserving an array's storage looks up two types' metadata (about 330
  /// instructions, more than reading a record's two tags).
  @inline(__always)
  func strings(at index: Int) throws -> [String] {
    let count = self[index].childCount
    let first = entries + index + 1
    var offset = 0
    // Each element checked is a scalar, so the next one is the next entry.
    while offset < count, first[offset].kind == .string { offset += 1 }
    guard offset == count else {
      return try elements(at: index) { try string(at: $0, path: $1()) }
    }
    return Array(TapeStrings(tape: tape, entries: first, count: count))
  }

  /// The array at `index` as `[T]`, seen as `Result` (which is `[T]`).
  ///
  /// Inlined, so that each caller's `T` is concrete in it: a copy generic
  /// over `Result` as well is not specialised, and reads every element
  /// through `FixedWidthInteger`'s witnesses and `Optional<T>`'s metadata.
  @inline(__always)
  private func integerArray<T: FixedWidthInteger & BitwiseCopyable, Result>(
    _ type: T.Type, at index: Int, as result: Result.Type
  ) throws -> Result {
    reinterpret(try integers(T.self, at: index), as: Result.self)
  }

  /// The array of `T` at `index`, each element read as `unwrap` reads it.
  private func integers<T: FixedWidthInteger & BitwiseCopyable>(
    _ type: T.Type, at index: Int
  ) throws -> [T] {
    try leafElements(at: index) { (position, path) -> T in
      try integer(T.self, at: position, path: path())
    }
  }
}

/// Tape entries that are all numbers (`int`, `uint` or `double`), seen as
/// the Doubles ``DecodingSession/double(at:path:)`` reads from them.
struct TapeNumbersAsDoubles: RandomAccessCollection {
  let entries: UnsafePointer<TapeEntry>
  let count: Int

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> Double {
    let entry = entries[position]
    switch entry.kind {
    case .double: return Double(bitPattern: entry.payload)
    case .int: return Double(Int64(bitPattern: entry.payload))
    default: return Double(entry.payload)
    }
  }
}

/// Tape entries that are all strings, seen as the `String`s
/// ``DecodingSession/string(at:path:)`` reads from them.
struct TapeStrings: RandomAccessCollection {
  /// The tape, which holds no reference that is counted.
  let tape: Tape
  let entries: UnsafePointer<TapeEntry>
  let count: Int

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> String {
    tape.string(entries[position])
  }
}

extension TapeEntry {
  /// Whether the entry is a number that fits 64 bits: `int`, `uint` or
  /// `double` (3, 4 and 5).
  fileprivate var isNumber: Bool {
    (header & 0xF) &- UInt64(Kind.int.rawValue) < 3
  }
}
