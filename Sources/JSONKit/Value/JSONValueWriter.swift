/// Writes a ``JSONValue`` tree as JSON text into a `ByteWriter`.
///
/// The walk is iterative: an explicit stack holds one level per open
/// container, so the depth of a value costs heap, not call stack, and there
/// is no depth limit.
struct JSONValueWriter {
  /// How a `.double` is written.
  enum DoubleStyle {
    /// As `JSONEncoder` writes it (`1.0` is `1`); NaN and the infinities
    /// throw `EncodingError.invalidValue`.
    case json
    /// As `json`, but NaN and the infinities appear as `NaN`, `Infinity` and
    /// `-Infinity` instead of throwing.
    case lenient
    /// Swift's `description`, which always shows a fraction or an exponent
    /// (`1.0`), so that doubles can be told from integers.
    case debug
    /// As `json`, but NaN and the infinities are written as these strings
    /// (`JKEncoder`'s `.convertToString` strategy).
    case strings(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// An open container: its children and the position of the next one.
  ///
  /// Arrays and objects share one struct, rather than an enum with payloads,
  /// so that reading the next child borrows the array in place instead of
  /// copying (and retaining) it out of an enum case.
  private struct Level {
    var elements: [JSONValue] = []
    var members: [JSONObject.Member] = []
    /// When keys are sorted, the order to visit `members` in.
    var order: [Int]? = nil
    var isObject = false
    let count: Int
    /// The position of the next child to write.
    var next = 0

    /// The position in `members` of the child at `position`.
    @inline(__always)
    func memberIndex(_ position: Int) -> Int {
      order?[position] ?? position
    }
  }

  private let doubleStyle: DoubleStyle
  /// The indentation level of the line the value starts on, when it is
  /// written inside other text (as `JKEncoder` writes a member's value).
  private let baseIndent: Int
  /// The open containers, outermost first. The innermost is changed in
  /// place, never copied out and back: a copy retains and releases each of
  /// its arrays.
  private var levels: [Level] = []
  /// How many containers deep the deepest one written is.
  private var deepest = 0

  private init(doubleStyle: DoubleStyle, baseIndent: Int) {
    self.doubleStyle = doubleStyle
    self.baseIndent = baseIndent
  }

  /// Writes `value` with the writer's formatting options; pretty-printed
  /// lines are indented `indentLevel` levels more than on their own.
  /// Returns how many containers deep the value nests (0 for a scalar).
  ///
  /// Unless `checkingStrings` is false (text for people), a string or key
  /// holding a scalar JSONKit's reader rejects throws
  /// `EncodingError.invalidValue` with the path to it.
  @discardableResult
  static func write(
    _ value: JSONValue, into writer: inout ByteWriter, doubles: DoubleStyle = .json,
    checkingStrings: Bool = true, indentLevel: Int = 0
  ) throws -> Int {
    var walker = JSONValueWriter(doubleStyle: doubles, baseIndent: indentLevel)
    try walker.write(value, into: &writer)
    if checkingStrings, let scalar = writer.takeUnreadableScalar() {
      throw unreadableError(scalar, in: value, doubles: doubles)
    }
    return walker.deepest
  }

  /// The error for a string or key of `value` that holds `scalar`, with its
  /// path: looked for only once the string writer has met it, so that
  /// writing keeps no path.
  private static func unreadableError(
    _ scalar: Unicode.Scalar, in value: JSONValue, doubles: DoubleStyle
  ) -> EncodingError {
    func holds(_ string: String) -> Bool { string.unicodeScalars.contains(scalar) }
    // Each visited member's key and the entry of its parent, so that only
    // the path found is built.
    var keys: [(key: any CodingKey, parent: Int)] = []
    func path(to entry: Int) -> [any CodingKey] {
      var reversedPath: [any CodingKey] = []
      var entry = entry
      while entry >= 0 {
        reversedPath.append(keys[entry].key)
        entry = keys[entry].parent
      }
      return reversedPath.reversed()
    }
    var pending: [(value: JSONValue, entry: Int)] = [(value, -1)]
    while let (current, entry) = pending.popLast() {
      switch current {
      case .string(let string) where holds(string):
        return UnreadableScalar(scalar, in: string).valueError(codingPath: path(to: entry))
      case .double(let double) where !double.isFinite:
        if case .strings(let positiveInfinity, let negativeInfinity, let nan) = doubles {
          let text = double.isNaN ? nan : double < 0 ? negativeInfinity : positiveInfinity
          if holds(text) {
            return UnreadableScalar(scalar, in: text).valueError(codingPath: path(to: entry))
          }
        }
      case .array(let elements):
        for (index, element) in elements.enumerated() {
          keys.append((AnyCodingKey(intValue: index), entry))
          pending.append((element, keys.count - 1))
        }
      case .object(let object):
        for member in object {
          keys.append((AnyCodingKey(stringValue: member.key), entry))
          if holds(member.key) {
            return UnreadableScalar(scalar, in: member.key).keyError(
              codingPath: path(to: keys.count - 1))
          }
          pending.append((member.value, keys.count - 1))
        }
      default:
        break
      }
    }
    return UnreadableScalar(scalar, in: "").valueError(codingPath: [])
  }

  private mutating func write(_ root: JSONValue, into writer: inout ByteWriter) throws {
    try writeValue(root, into: &writer)
    while let top = levels.indices.last {
      let position = levels[top].next
      guard position < levels[top].count else {
        writer.closeContainer(
          isObject: levels[top].isObject, isEmpty: false, indentLevel: top + baseIndent)
        levels.removeLast()
        continue
      }
      levels[top].next = position &+ 1
      writer.beginMember(isFirst: position == 0, indentLevel: levels.count + baseIndent)
      // The child is copied out before it is written: writing it may open
      // a level, which must not happen while `levels` is being read.
      let child: JSONValue
      if levels[top].isObject {
        let index = levels[top].memberIndex(position)
        writer.writeKey(levels[top].members[index].key)
        child = levels[top].members[index].value
      } else {
        child = levels[top].elements[position]
      }
      try writeValue(child, into: &writer)
    }
  }

  /// Writes a scalar or an empty container whole, or opens a non-empty
  /// container as the innermost level, whose children come next.
  @inline(__always)
  private mutating func writeValue(_ value: JSONValue, into writer: inout ByteWriter) throws {
    switch value {
    case .null:
      writer.append("null")
    case .bool(let bool):
      writer.append(bool ? "true" : "false")
    case .int(let integer):
      writer.write(integer)
    case .uint(let integer):
      writer.write(integer)
    case .double(let double):
      try write(double, into: &writer)
    case .string(let string):
      writer.writeQuoted(string)
    case .array(let elements):
      if elements.isEmpty {
        deepest = max(deepest, levels.count + 1)
        writer.writeEmptyContainer(isObject: false, indentLevel: levels.count + baseIndent)
      } else {
        writer.openContainer(isObject: false)
        levels.append(Level(elements: elements, count: elements.count))
        deepest = max(deepest, levels.count)
      }
    case .object(let object):
      if object.isEmpty {
        deepest = max(deepest, levels.count + 1)
        writer.writeEmptyContainer(isObject: true, indentLevel: levels.count + baseIndent)
      } else {
        writer.openContainer(isObject: true)
        let order = writer.sortsKeys ? object.positionsSortedByKey() : nil
        levels.append(
          Level(members: object.members, order: order, isObject: true, count: object.count))
        deepest = max(deepest, levels.count)
      }
    }
  }

  private func write(_ double: Double, into writer: inout ByteWriter) throws {
    switch doubleStyle {
    case .json, .lenient, .strings:
      if double.isFinite {
        writer.writeFinite(double)
      } else if case .lenient = doubleStyle {
        writer.append(double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity")
      } else if case .strings(let positiveInfinity, let negativeInfinity, let nan) = doubleStyle {
        writer.writeQuoted(double.isNaN ? nan : double < 0 ? negativeInfinity : positiveInfinity)
      } else {
        throw EncodingError.invalidValue(
          double,
          EncodingError.Context(
            codingPath: codingPath,
            debugDescription: "Unable to encode Double.\(double) directly in JSON."))
      }
    case .debug:
      var text = double.description
      text.withUTF8 { writer.append($0.baseAddress!, count: $0.count) }
    }
  }

  /// The path to the value being written; made only to report an error.
  private var codingPath: [any CodingKey] {
    levels.map { level in
      let position = level.next - 1
      if level.isObject {
        return AnyCodingKey(stringValue: level.members[level.memberIndex(position)].key)
      }
      return AnyCodingKey(intValue: position)
    }
  }
}
