extension CBORValue {
  /// The CBOR item that holds the same as `json`: integers as integers,
  /// doubles as floats, strings as text, arrays as arrays, and objects as
  /// maps with text keys in the object's order.
  ///
  /// ```swift
  /// let item = CBORValue(["id": 7, "tags": ["a"]] as JSONValue)
  /// ```
  public init(_ json: JSONValue) {
    self = Self.convert(json, leaf: Self.leaf(_:)) { container, children in
      if case .object(let object) = container {
        return .map(zip(object.keys, children).map { (key: .text($0), value: $1) })
      }
      return .array(children)
    }
  }

  /// The item for a JSON value that holds no other values.
  private static func leaf(_ json: JSONValue) -> CBORValue {
    switch json {
    case .null: .null
    case .bool(let value): .bool(value)
    case .int(let value): CBORValue(value)
    case .uint(let value): .unsigned(value)
    case .double(let value): .float(value)
    case .string(let value): .text(value)
    case .array, .object: .null
    }
  }

  /// `root` rebuilt bottom-up without recursion: `leaf` makes what holds
  /// nothing, `container` makes an array or object from its children's
  /// results in order.
  private static func convert(
    _ root: JSONValue, leaf: (JSONValue) -> CBORValue,
    container: (JSONValue, [CBORValue]) -> CBORValue
  ) -> CBORValue {
    var stack: [(value: JSONValue, children: [JSONValue], done: [CBORValue])] = []
    var result: CBORValue?
    var next: JSONValue? = root
    while true {
      if let value = next {
        next = nil
        let children: [JSONValue]?
        switch value {
        case .array(let elements): children = elements
        case .object(let object): children = object.values
        default: children = nil
        }
        if let children {
          stack.append((value, children, []))
        } else {
          result = leaf(value)
        }
      }
      guard !stack.isEmpty else { return result! }
      if let made = result {
        stack[stack.count - 1].done.append(made)
        result = nil
      }
      let top = stack[stack.count - 1]
      if top.done.count < top.children.count {
        next = top.children[top.done.count]
      } else {
        stack.removeLast()
        result = container(top.value, top.done)
      }
    }
  }
}

extension JSONValue {
  /// Why a CBOR item has no JSON value: what JSON cannot hold, and where.
  public struct CBORConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the item is, from the top.
    public let pointer: JSONPointer
    /// What JSON cannot hold there: "a byte string".
    public let what: String

    /// "JSON cannot hold a byte string (at /data/0)."
    public var description: String {
      "JSON cannot hold \(what) (at \(pointer.description.isEmpty ? "the top" : pointer.description))."
    }
  }

  /// The JSON value that holds exactly what `cbor` holds, or an error naming
  /// the first item JSON cannot hold.
  ///
  /// Integers in `Int64` or `UInt64`, finite floats, text, arrays, `true`,
  /// `false` and `null` convert; so do maps whose keys are all text strings
  /// (as objects, in order), and the content of tag 55799, which only marks
  /// CBOR. Byte strings, other tags, `undefined`, other simple values,
  /// NaN and infinities, integers beyond 64 bits, maps with other keys and
  /// keys that Swift's strings count as equal throw
  /// ``CBORConversionError``.
  ///
  /// ```swift
  /// let json = try JSONValue(CBORValue(cbor: bytes))
  /// ```
  public init(_ cbor: CBORValue) throws(CBORConversionError) {
    var tokens: [String] = []
    self = try Self.convert(cbor, tokens: &tokens)
  }

  /// `cbor` as JSON, `tokens` naming where it is; iterative below the top
  /// through ``CBORValue/walk(_:)``-like bookkeeping of its own.
  private static func convert(
    _ root: CBORValue, tokens: inout [String]
  ) throws(CBORConversionError) -> JSONValue {
    // Containers still being filled, with the keys of a map's pairs.
    var stack: [(keys: [String]?, items: [CBORValue], done: [JSONValue])] = []
    var result: JSONValue?
    var next: CBORValue? = root
    while true {
      if var value = next {
        next = nil
        while case .tagged(CBORTags.selfDescribed, let content) = value { value = content }
        switch value {
        case .array(let elements):
          stack.append((nil, elements, []))
          tokens.append("")
        case .map(let pairs):
          var keys: [String] = []
          keys.reserveCapacity(pairs.count)
          for pair in pairs {
            guard case .text(let key) = pair.key else {
              throw CBORConversionError(
                pointer: JSONPointer(tokens: tokens),
                what: "a map key that is \(pair.key.kindDescription)")
            }
            keys.append(key)
          }
          guard Set(keys).count == keys.count else {
            throw CBORConversionError(
              pointer: JSONPointer(tokens: tokens),
              what: "two map keys that Swift's strings count as equal")
          }
          stack.append((keys, pairs.map(\.value), []))
          tokens.append("")
        default:
          result = try leaf(value, tokens: tokens)
        }
      }
      guard !stack.isEmpty else { return result! }
      let last = stack.count - 1
      if let made = result {
        stack[last].done.append(made)
        result = nil
      }
      let top = stack[last]
      if top.done.count < top.items.count {
        tokens[tokens.count - 1] = top.keys?[top.done.count] ?? String(top.done.count)
        next = top.items[top.done.count]
      } else {
        stack.removeLast()
        tokens.removeLast()
        if let keys = top.keys {
          result = .object(JSONObject(zip(keys, top.done)))
        } else {
          result = .array(top.done)
        }
      }
    }
  }

  /// The JSON value of an item that holds no other items.
  private static func leaf(
    _ value: CBORValue, tokens: [String]
  ) throws(CBORConversionError) -> JSONValue {
    switch value {
    case .unsigned(let number):
      return number <= UInt64(Int64.max) ? .int(Int64(number)) : .uint(number)
    case .negative:
      if let number = value.int64Value { return .int(number) }
    case .float(let number) where number.isFinite:
      return .double(number)
    case .text(let text): return .string(text)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    default: break
    }
    let what =
      switch value {
      case .negative: "an integer below −2⁶³"
      case .float: "NaN or an infinity"
      default: value.kindDescription
      }
    throw CBORConversionError(pointer: JSONPointer(tokens: tokens), what: what)
  }
}
