extension JSONValue: Hashable {
  /// Whether two values mean the same JSON.
  ///
  /// Numbers compare by exact value across `.int`, `.uint` and `.double`;
  /// objects compare as unordered maps; arrays element by element in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.array, .array), (.object, .object):
      return containersEqual(lhs, rhs)
    default:
      return scalarsEqual(lhs, rhs)
    }
  }

  /// Equality of two values that are not both arrays or both objects.
  private static func scalarsEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null):
      return true
    case (.bool(let left), .bool(let right)):
      return left == right
    case (.string(let left), .string(let right)):
      return left == right
    case (.int(let left), .int(let right)):
      return left == right
    case (.uint(let left), .uint(let right)):
      return left == right
    case (.double(let left), .double(let right)):
      return left == right
    case (.int(let integer), .uint(let unsigned)), (.uint(let unsigned), .int(let integer)):
      return UInt64(exactly: integer) == unsigned
    case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
      return Int64(exactly: double) == integer
    case (.uint(let unsigned), .double(let double)), (.double(let double), .uint(let unsigned)):
      return UInt64(exactly: double) == unsigned
    default:
      return false
    }
  }

  /// Equality of two arrays or two objects, walked with a list of pairs
  /// still to compare instead of recursion, so that the depth of a value
  /// costs heap, not call stack.
  static func containersEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    var pending = [(lhs, rhs)]
    // Compares scalars at once and leaves pairs of containers for later.
    func compare(_ left: JSONValue, _ right: JSONValue) -> Bool {
      switch (left, right) {
      case (.array, .array), (.object, .object):
        pending.append((left, right))
        return true
      default:
        return scalarsEqual(left, right)
      }
    }
    while let (left, right) = pending.popLast() {
      switch (left, right) {
      case (.array(let left), .array(let right)):
        guard left.count == right.count else { return false }
        for index in left.indices where !compare(left[index], right[index]) {
          return false
        }
      case (.object(let left), .object(let right)):
        guard left.count == right.count else { return false }
        var position = 0
        // Objects compared for equality often list their keys in the same order.
        while position < left.count, left.members[position].key == right.members[position].key {
          guard compare(left.members[position].value, right.members[position].value) else {
            return false
          }
          position += 1
        }
        while position < left.count {
          let member = left.members[position]
          guard let other = right.index(forKey: member.key),
            compare(member.value, right.members[other].value)
          else { return false }
          position += 1
        }
      default:
        return false
      }
    }
    return true
  }

  /// Hashes the value consistently with `==`: equal numbers hash alike
  /// whichever case holds them, and object members hash without regard to
  /// order.
  public func hash(into hasher: inout Hasher) {
    hash(into: &hasher, depth: Self.hashedDepth)
  }

  /// How many levels of nesting feed the hash. Deeper containers add only
  /// their kind and count: equal values still hash alike, and hashing uses
  /// bounded call stack however deep the value is.
  static let hashedDepth = 32

  func hash(into hasher: inout Hasher, depth: Int) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .int(let value):
      Self.hashNumber(value, into: &hasher)
    case .uint(let value):
      Self.hashNumber(value, into: &hasher)
    case .double(let value):
      if let integer = Int64(exactly: value) {
        Self.hashNumber(integer, into: &hasher)
      } else if let unsigned = UInt64(exactly: value) {
        Self.hashNumber(unsigned, into: &hasher)
      } else {
        // Not an integer in range, so it equals only doubles.
        hasher.combine(3 as UInt8)
        hasher.combine(value)
      }
    case .string(let value):
      hasher.combine(4 as UInt8)
      hasher.combine(value)
    case .array(let elements):
      hasher.combine(5 as UInt8)
      hasher.combine(elements.count)
      guard depth > 0 else { return }
      for element in elements {
        element.hash(into: &hasher, depth: depth - 1)
      }
    case .object(let object):
      hasher.combine(6 as UInt8)
      object.hash(into: &hasher, depth: depth)
    }
  }

  // Every integer value, whichever case holds it, hashes as a UInt64 if it is
  // non-negative and as an Int64 otherwise.
  private static func hashNumber(_ value: Int64, into hasher: inout Hasher) {
    if value >= 0 {
      hashNumber(UInt64(value), into: &hasher)
    } else {
      hasher.combine(7 as UInt8)
      hasher.combine(value)
    }
  }

  private static func hashNumber(_ value: UInt64, into hasher: inout Hasher) {
    hasher.combine(2 as UInt8)
    hasher.combine(value)
  }
}
