import Foundation

/// Conversions between ``JSONValue`` and the values `JSONSerialization`
/// works with (`[String: Any]`, `[Any]`, `String`, numbers, `NSNull`).
///
/// Neither keeps a call-stack frame per level beyond the first few: a value
/// built in code can be far deeper than any JSON text JSONKit reads, so the
/// depth of a value costs heap, not call stack. Converting to a `JSONValue`
/// stops at ``JSONValue/maxDepthLimit``, the depth of the deepest value
/// JSONKit builds (see there why).
enum FoundationObjects {
  // MARK: - JSONValue to Any

  /// How many levels ``object(from:)`` converts by recursion, the fastest
  /// way for the shallow values parsed documents are, before it goes on
  /// with a stack of its own.
  private static let recursionDepth = 64

  /// `value` as `JSONSerialization` would give it.
  static func object(from value: JSONValue) -> Any {
    object(from: value, depth: 0)
  }

  private static func object(from value: JSONValue, depth: Int) -> Any {
    switch value {
    // The scalars here as well as in `scalarObject(_:)`: one switch per
    // value instead of two.
    case .null: return NSNull()
    case .bool(let value): return value
    case .int(let value): return Int(exactly: value) ?? value
    case .uint(let value): return Int(exactly: value) ?? value
    case .double(let value): return value
    case .string(let value): return value
    case .array(let elements):
      guard depth < recursionDepth else { return objectWithoutRecursion(from: value) }
      return elements.map { object(from: $0, depth: depth + 1) }
    case .object(let members):
      guard depth < recursionDepth else { return objectWithoutRecursion(from: value) }
      var dictionary: [String: Any] = [:]
      dictionary.reserveCapacity(members.count)
      for member in members.members {
        dictionary[member.key] = object(from: member.value, depth: depth + 1)
      }
      return dictionary
    }
  }

  /// An array or object of the `JSONValue` being converted, and what it
  /// becomes.
  private struct ValueLevel {
    var elements: [JSONValue] = []
    var members: [JSONObject.Member] = []
    let isObject: Bool
    let count: Int
    /// The position of the next child to convert.
    var next = 0
    var array: [Any] = []
    var dictionary: [String: Any] = [:]

    init(_ elements: [JSONValue]) {
      self.elements = elements
      isObject = false
      count = elements.count
      array.reserveCapacity(count)
    }

    init(_ object: JSONObject) {
      members = object.members
      isObject = true
      count = object.count
      dictionary.reserveCapacity(count)
    }

    /// Adds the converted value of the child before `next`.
    mutating func add(_ object: Any) {
      if isObject {
        dictionary[members[next - 1].key] = object
      } else {
        array.append(object)
      }
    }

    var converted: Any {
      isObject ? dictionary : array
    }
  }

  /// ``object(from:)`` with a stack of open containers instead of
  /// recursion.
  private static func objectWithoutRecursion(from value: JSONValue) -> Any {
    var levels: [ValueLevel] = []
    var current = value
    while true {
      switch current {
      case .array(let elements):
        levels.append(ValueLevel(elements))
      case .object(let object):
        levels.append(ValueLevel(object))
      default:
        let scalar = scalarObject(current)
        guard !levels.isEmpty else { return scalar }
        levels[levels.count - 1].add(scalar)
      }
      // The next child of the innermost container, closing those done.
      while true {
        let top = levels.count - 1
        let position = levels[top].next
        if position < levels[top].count {
          levels[top].next = position + 1
          current =
            levels[top].isObject
            ? levels[top].members[position].value : levels[top].elements[position]
          break
        }
        let converted = levels.removeLast().converted
        guard !levels.isEmpty else { return converted }
        levels[levels.count - 1].add(converted)
      }
    }
  }

  /// A value that is not an array or object, as `JSONSerialization` gives
  /// it (a container goes to ``object(from:)``).
  private static func scalarObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: NSNull()
    case .bool(let value): value
    case .int(let value): Int(exactly: value) ?? value
    case .uint(let value): Int(exactly: value) ?? value
    case .double(let value): value
    case .string(let value): value
    case .array, .object: object(from: value)
    }
  }

  // MARK: - Any to JSONValue

  /// A Foundation-style container being converted, and the `JSONValue` it
  /// becomes.
  private struct ObjectLevel {
    enum Source {
      case array
      case strings
      case hashables
    }

    let source: Source
    var array: [Any] = []
    var strings: [String: Any] = [:]
    var hashables: [AnyHashable: Any] = [:]
    var stringIndex: Dictionary<String, Any>.Index
    var hashableIndex: Dictionary<AnyHashable, Any>.Index
    /// The position of the next element of `array`.
    var position = 0
    /// The key of the member being converted.
    var key = ""
    var elements: [JSONValue] = []
    var object = JSONObject()

    init(array: [Any]) {
      source = .array
      self.array = array
      stringIndex = strings.startIndex
      hashableIndex = hashables.startIndex
      elements.reserveCapacity(array.count)
    }

    init(strings: [String: Any]) {
      source = .strings
      self.strings = strings
      stringIndex = strings.startIndex
      hashableIndex = hashables.startIndex
    }

    init(hashables: [AnyHashable: Any]) {
      source = .hashables
      self.hashables = hashables
      stringIndex = strings.startIndex
      hashableIndex = hashables.startIndex
    }

    /// The key of the child being converted, for a coding path.
    var codingKey: any CodingKey {
      source == .array ? AnyCodingKey(intValue: position - 1) : AnyCodingKey(stringValue: key)
    }

    /// Adds the converted value of the child being converted.
    mutating func add(_ value: JSONValue) {
      if source == .array {
        elements.append(value)
      } else {
        object[key] = value
      }
    }

    var converted: JSONValue {
      source == .array ? .array(elements) : .object(object)
    }

    /// What comes next in a container.
    enum Next {
      case child(Any)
      /// A key of a `[AnyHashable: Any]` that is not a string: its base.
      case keyNotString(Any)
      case none
    }

    /// The next child, its key noted as the one being converted.
    mutating func nextChild() -> Next {
      switch source {
      case .array:
        guard position < array.count else { return .none }
        position += 1
        return .child(array[position - 1])
      case .strings:
        guard stringIndex != strings.endIndex else { return .none }
        let (key, value) = strings[stringIndex]
        strings.formIndex(after: &stringIndex)
        self.key = key
        return .child(value)
      case .hashables:
        guard hashableIndex != hashables.endIndex else { return .none }
        let (key, value) = hashables[hashableIndex]
        guard let name = key.base as? String else { return .keyNotString(key.base) }
        hashables.formIndex(after: &hashableIndex)
        self.key = name
        return .child(value)
      }
    }
  }

  /// What a Foundation-style value is: a scalar, converted, or a container.
  private enum Kind {
    case value(JSONValue)
    case container(ObjectLevel)
  }

  /// Converts `root` and everything in it.
  ///
  /// - Throws: `EncodingError.invalidValue` at the path to a value of a kind
  ///   `JSONValue` cannot hold, to a dictionary whose keys are not strings,
  ///   or to a container nested deeper than ``JSONValue/maxDepthLimit``.
  static func value(from root: Any) throws -> JSONValue {
    var levels: [ObjectLevel] = []
    func path(through count: Int) -> [any CodingKey] {
      levels.prefix(count).map(\.codingKey)
    }
    var current = root
    while true {
      switch try kind(of: current, path: path(through: levels.count)) {
      case .value(let value):
        guard !levels.isEmpty else { return value }
        levels[levels.count - 1].add(value)
      case .container(let level):
        guard levels.count < JSONValue.maxDepthLimit else {
          throw EncodingError.invalidValue(
            current,
            EncodingError.Context(
              codingPath: path(through: levels.count),
              debugDescription:
                "Its arrays and dictionaries nest deeper than JSONValue.maxDepthLimit "
                + "(\(JSONValue.maxDepthLimit))."))
        }
        levels.append(level)
      }
      // The next child of the innermost container, closing those done.
      while true {
        let top = levels.count - 1
        switch levels[top].nextChild() {
        case .child(let child):
          current = child
        case .keyNotString(let key):
          throw EncodingError.invalidValue(
            levels[top].hashables,
            EncodingError.Context(
              codingPath: path(through: top),
              debugDescription: "Dictionary keys must be strings; found \(type(of: key))."))
        case .none:
          let converted = levels.removeLast().converted
          guard !levels.isEmpty else { return converted }
          levels[levels.count - 1].add(converted)
          continue
        }
        break
      }
    }
  }

  private static func kind(of object: Any, path: @autoclosure () -> [any CodingKey]) throws
    -> Kind
  {
    // NSNumber first, by its exact class: casting a Swift number to it would
    // bridge, and casting it to Bool would accept any 0 or 1.
    if type(of: object) is NSNumber.Type, let number = object as? NSNumber {
      if let decimal = number as? NSDecimalNumber {
        return .value(try convert(decimal.decimalValue, path: path()))
      }
      return .value(convert(number))
    }
    // By its type too: casting anything else to a class such as `NSNull`
    // first converts it to an Objective-C object where Foundation can (an
    // array to an `NSArray`, with all it holds, level after level).
    if type(of: object) is NSNull.Type { return .value(.null) }
    switch object {
    case let value as JSONValue: return .value(value)
    case let value as Bool: return .value(.bool(value))
    case let value as String: return .value(.string(value))
    case let value as Int: return .value(.int(Int64(value)))
    case let value as Double: return .value(.double(value))
    case let value as Int64: return .value(.int(value))
    case let value as Int32: return .value(.int(Int64(value)))
    case let value as Int16: return .value(.int(Int64(value)))
    case let value as Int8: return .value(.int(Int64(value)))
    case let value as UInt: return .value(integer(UInt64(value)))
    case let value as UInt64: return .value(integer(value))
    case let value as UInt32: return .value(.int(Int64(value)))
    case let value as UInt16: return .value(.int(Int64(value)))
    case let value as UInt8: return .value(.int(Int64(value)))
    case let value as Float: return .value(float(value))
    case let value as Decimal: return .value(try convert(value, path: path()))
    case let dictionary as [String: Any]: return .container(ObjectLevel(strings: dictionary))
    case let array as [Any]: return .container(ObjectLevel(array: array))
    case let dictionary as [AnyHashable: Any]:
      return .container(ObjectLevel(hashables: dictionary))
    case is NSNull:
      // An optional holding one.
      return .value(.null)
    default:
      if case Optional<Any>.none = object { return .value(.null) }
      throw EncodingError.invalidValue(
        object,
        EncodingError.Context(
          codingPath: path(), debugDescription: "\(type(of: object)) cannot be written as JSON."))
    }
  }

  private static func integer(_ value: UInt64) -> JSONValue {
    Int64(exactly: value).map(JSONValue.int) ?? .uint(value)
  }

  /// A `Float` as the Double its shortest text spells, so that it is written
  /// as `JSONSerialization` and `JSONEncoder` write it (`0.1`, not the
  /// Double nearest the Float, `0.10000000149011612`).
  private static func float(_ value: Float) -> JSONValue {
    guard value.isFinite else { return .double(Double(value)) }  // throws when written
    return .double(Double(value.description) ?? Double(value))
  }

  /// A `Decimal` as the integer or Double that holds it exactly, since
  /// JSONKit converts numbers without loss or not at all.
  private static func convert(_ decimal: Decimal, path: [any CodingKey]) throws -> JSONValue {
    let text = decimal.description
    if let value = Int64(text) { return .int(value) }
    if let value = UInt64(text) { return .uint(value) }
    if !decimal.isNaN, let value = Double(text), Decimal(string: "\(value)") == decimal {
      return .double(value)
    }
    throw EncodingError.invalidValue(
      decimal,
      EncodingError.Context(
        codingPath: path,
        debugDescription:
          "The Decimal \(text) has no exact 64-bit integer or Double; JSONValue cannot hold it."))
  }

  /// An `NSNumber` by the C type it holds, so that `true` stays a Boolean
  /// and integers stay exact.
  private static func convert(_ number: NSNumber) -> JSONValue {
    switch String(cString: number.objCType) {
    case "c", "B":
      // Objective-C's BOOL is a char; a char holding other values is a number.
      let value = number.int8Value
      return value == 0 || value == 1 ? .bool(value == 1) : .int(Int64(value))
    case "f":
      return float(number.floatValue)
    case "d":
      return .double(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      return integer(number.uint64Value)
    default:
      return .int(number.int64Value)
    }
  }
}
