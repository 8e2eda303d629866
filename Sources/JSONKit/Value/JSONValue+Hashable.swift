extension JSONValue: Hashable {
  /// Whether two values mean the same JSON.
  ///
  /// Numbers compare by exact value across `.int`, `.uint` and `.double`;
  /// objects compare as unordered maps; arrays element by element in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null):
      return true
    case (.bool(let left), .bool(let right)):
      return left == right
    case (.string(let left), .string(let right)):
      return left == right
    case (.array(let left), .array(let right)):
      return left == right
    case (.object(let left), .object(let right)):
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

  /// Hashes the value consistently with `==`: equal numbers hash alike
  /// whichever case holds them, and object members hash without regard to
  /// order.
  public func hash(into hasher: inout Hasher) {
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
      hasher.combine(elements)
    case .object(let object):
      hasher.combine(6 as UInt8)
      hasher.combine(object)
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
