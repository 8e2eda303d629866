/// Builds `JSONValue` trees from the tape.
///
/// Iterative, so that a document as deep as the caller's nesting limit allows
/// never overflows the call stack: finished values (and finished object
/// members) wait on stacks until their container closes, and then move into
/// an array made with exactly the capacity the tape recorded for it. A
/// container whose children are all scalars is made straight from its
/// entries.
enum JSONValueBuilder {
  /// An integer literal beyond 64 bits, which `JSONValue` cannot hold; only
  /// possible on tapes scanned for Codable, where such literals are kept.
  struct BigInteger: Error {
    let index: Int
  }

  /// A container whose children are being built.
  struct Frame {
    /// The container's own entry.
    let start: Int
    /// The index just past its last entry.
    let end: Int
    let isObject: Bool
  }

  /// The value whose entry is at `root`.
  ///
  /// With `convert`, each object's keys are converted by it (given the
  /// object's entry and the key) after duplicates are resolved; keys that
  /// convert alike then keep the first one's value, as a keyed decoding
  /// container under a key strategy does.
  ///
  /// Unless `mayHoldBigIntegers` is false (the tape was scanned with
  /// `allowsBigIntegers` off, so that the scanner rejected such literals),
  /// each container of scalars is first checked for one.
  static func value(
    at root: Int, in tape: Tape, mayHoldBigIntegers: Bool = true,
    convertingKeys convert: ((_ object: Int, _ key: String) -> String)? = nil
  ) throws(BigInteger) -> JSONValue {
    let rootEntry = tape[root]
    guard rootEntry.isContainer else { return try scalar(rootEntry, at: root, in: tape) }
    var workspace = Workspace()
    return try value(
      at: root, in: tape, mayHoldBigIntegers: mayHoldBigIntegers, convertingKeys: convert,
      using: &workspace)
  }

  /// The stacks a build keeps its unfinished values on. A build that
  /// succeeds leaves them empty, so that the values of many documents (a
  /// stream's batch of records) are built with one set.
  struct Workspace: ~Copyable {
    var elements = MovingStack<JSONValue>(capacity: 64)
    var members = MovingStack<JSONObject.Member>(capacity: 64)
    var keyIDs = MovingStack<UInt32>(capacity: 16)
    var frames = MovingStack<Frame>(capacity: 16)
  }

  /// The value whose entry is at `root`, built on the stacks of
  /// `workspace`, as ``value(at:in:mayHoldBigIntegers:convertingKeys:)``
  /// builds it.
  static func value(
    at root: Int, in tape: Tape, mayHoldBigIntegers: Bool = true,
    convertingKeys convert: ((_ object: Int, _ key: String) -> String)? = nil,
    using workspace: inout Workspace
  ) throws(BigInteger) -> JSONValue {
    let rootEntry = tape[root]
    guard rootEntry.isContainer else { return try scalar(rootEntry, at: root, in: tape) }
    // The key cache's array, taken once for the whole build.
    let keys = tape.keys
    // The frames of a build before, should one have failed, stay below.
    let outerFrames = workspace.frames.count
    var index = root
    while true {
      let entry = tape[index]
      var value: JSONValue
      switch entry.kind {
      case .key:
        workspace.keyIDs.push(UInt32(truncatingIfNeeded: entry.payload))
        index &+= 1
        continue
      case .array:
        let end = entry.containerEnd
        let count = entry.childCount
        guard end &- index &- 1 == count else {
          workspace.frames.push(Frame(start: index, end: end, isObject: false))
          index &+= 1
          continue
        }
        // No child is a container: each is one entry.
        if mayHoldBigIntegers { try checkNoBigInteger(in: index..<end, of: tape) }
        value = .array(
          withUnsafePointer(to: tape) { [JSONValue](ScalarElements(of: entry, at: index, in: $0)) })
        index = end
      case .object:
        let end = entry.containerEnd
        let count = entry.childCount
        guard end &- index &- 1 == 2 &* count else {
          workspace.frames.push(Frame(start: index, end: end, isObject: true))
          index &+= 1
          continue
        }
        // Every value is a scalar: keys and values alternate, one entry each.
        if mayHoldBigIntegers { try checkNoBigInteger(in: index..<end, of: tape) }
        let scalars = withUnsafePointer(to: tape) {
          [JSONObject.Member](ScalarMembers(of: entry, at: index, in: $0))
        }
        value = .object(object(scalars, of: entry, at: index, convertingKeys: convert))
        index = end
      default:
        value = try scalar(entry, at: index, in: tape)
        index &+= 1
      }
      // Hand `value` to its container, closing every container that it
      // finishes in turn.
      while true {
        guard workspace.frames.count > outerFrames else { return value }
        let frame = workspace.frames.top
        // `consume`, or the value is copied onto the stack and the
        // original destroyed: a retain and a release per container.
        if frame.isObject {
          let key = keys[Int(truncatingIfNeeded: workspace.keyIDs.pop())]
          workspace.members.push(JSONObject.Member(key: key, value: consume value))
        } else {
          workspace.elements.push(consume value)
        }
        guard frame.end == index else { break }
        _ = workspace.frames.pop()
        let container = tape[frame.start]
        if frame.isObject {
          let closed = workspace.members.popArray(container.childCount)
          value = .object(object(closed, of: container, at: frame.start, convertingKeys: convert))
        } else {
          value = .array(workspace.elements.popArray(container.childCount))
        }
      }
    }
  }

  /// The value of a scalar entry.
  @inline(__always)
  private static func scalar(_ entry: TapeEntry, at index: Int, in tape: Tape) throws(BigInteger)
    -> JSONValue
  {
    guard let value = scalar(entry, in: tape) else { throw BigInteger(index: index) }
    return value
  }

  /// The value of a scalar entry, or `nil` for an integer beyond 64 bits.
  @inline(__always)
  private static func scalar(_ entry: TapeEntry, in tape: Tape) -> JSONValue? {
    switch entry.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .int: return .int(Int64(bitPattern: entry.payload))
    case .uint: return .uint(entry.payload)
    case .double: return .double(Double(bitPattern: entry.payload))
    case .string: return .string(tape.string(entry))
    case .array: return .array([])
    case .object: return .object(JSONObject())
    case .bigInteger, .key, .bytes, .sharedReference: return nil
    }
  }

  /// Throws for the first integer beyond 64 bits among the entries in
  /// `range`: checked before a container of scalars is made, since
  /// `Array.init` takes no error from the sequence it reads.
  @inline(__always)
  private static func checkNoBigInteger(in range: Range<Int>, of tape: Tape) throws(BigInteger) {
    for index in range where tape[index].kind == .bigInteger {
      throw BigInteger(index: index)
    }
  }

  /// The object of `members` (the children of `entry`, at `index`): duplicate
  /// keys resolved when the scanner found any (the last value wins, at the
  /// first key's position), then keys converted.
  @inline(__always)
  private static func object(
    _ members: [JSONObject.Member], of entry: TapeEntry, at index: Int,
    convertingKeys convert: ((Int, String) -> String)?
  ) -> JSONObject {
    let object =
      entry.flags & TapeEntry.hasDuplicateKeys == 0
      ? JSONObject(uniqueKeysWithValues: members)
      : JSONObject(members.lazy.map { ($0.key, $0.value) })
    guard let convert else { return object }
    var result = JSONObject()
    for member in object {
      let key = convert(index, member.key)
      if result[key] == nil { result[key] = member.value }
    }
    return result
  }

  /// The entries after a container's own entry, up to its end, read through
  /// a pointer to the tape rather than the tape itself: the tape holds an
  /// array, which copying a sequence into its iterator would retain and
  /// release.
  private struct Children {
    let tape: UnsafePointer<Tape>
    var index: Int
    let end: Int

    init(of entry: TapeEntry, at start: Int, in tape: UnsafePointer<Tape>) {
      self.tape = tape
      index = start &+ 1
      end = entry.containerEnd
    }

    /// The scalar at `position`. `Array.init` requires every element it was
    /// promised, so the entries were checked for integers beyond 64 bits
    /// beforehand: `nil` never comes.
    @inline(__always)
    func scalar(at position: Int) -> JSONValue {
      JSONValueBuilder.scalar(tape.pointee[position], in: tape.pointee) ?? .null
    }
  }

  /// The elements of an array whose children are all scalars, none of them
  /// an integer beyond 64 bits.
  private struct ScalarElements: Sequence, IteratorProtocol {
    var children: Children

    init(of entry: TapeEntry, at start: Int, in tape: UnsafePointer<Tape>) {
      children = Children(of: entry, at: start, in: tape)
    }

    var underestimatedCount: Int { children.end &- children.index }

    @inline(__always)
    mutating func next() -> JSONValue? {
      guard children.index < children.end else { return nil }
      defer { children.index &+= 1 }
      return children.scalar(at: children.index)
    }
  }

  /// The members of an object whose values are all scalars, none of them an
  /// integer beyond 64 bits.
  private struct ScalarMembers: Sequence, IteratorProtocol {
    var children: Children

    init(of entry: TapeEntry, at start: Int, in tape: UnsafePointer<Tape>) {
      children = Children(of: entry, at: start, in: tape)
    }

    var underestimatedCount: Int { (children.end &- children.index) >> 1 }

    @inline(__always)
    mutating func next() -> JSONObject.Member? {
      guard children.index < children.end else { return nil }
      defer { children.index &+= 2 }
      let key = children.tape.pointee.key(children.tape.pointee[children.index])
      return JSONObject.Member(key: key, value: children.scalar(at: children.index &+ 1))
    }
  }
}
