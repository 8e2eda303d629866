/// Writes a ``JSONValue`` tree as JSON text into a `ByteWriter`.
///
/// The walk is iterative: an explicit stack holds one frame per open
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
  }

  private enum Container {
    case array([JSONValue])
    /// The members and, when keys are sorted, the order to visit them in.
    case object([JSONObject.Element], order: [Int]?)
  }

  private struct Frame {
    let container: Container
    let count: Int
    /// The position of the next child to write.
    var next: Int
  }

  private let doubleStyle: DoubleStyle
  private var stack: [Frame] = []

  private init(doubleStyle: DoubleStyle) {
    self.doubleStyle = doubleStyle
  }

  /// Writes `value` with the writer's formatting options.
  static func write(
    _ value: JSONValue, into writer: inout ByteWriter, doubles: DoubleStyle = .json
  ) throws {
    var walker = JSONValueWriter(doubleStyle: doubles)
    try walker.write(value, into: &writer)
  }

  private mutating func write(_ root: JSONValue, into writer: inout ByteWriter) throws {
    var value = root
    walk: while true {
      // Write `value`; a non-empty container is opened and its first child
      // becomes `value`.
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
          writeEmpty(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), into: &writer)
        } else {
          writer.append(UInt8(ascii: "["))
          stack.append(Frame(container: .array(elements), count: elements.count, next: 1))
          if writer.isPrettyPrinted {
            writer.appendNewline(indentLevel: stack.count)
          }
          value = elements[0]
          continue walk
        }
      case .object(let object):
        if object.isEmpty {
          writeEmpty(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), into: &writer)
        } else {
          writer.append(UInt8(ascii: "{"))
          let order = writer.sortsKeys ? object.positionsSortedByKey() : nil
          let members = object.members
          stack.append(
            Frame(
              container: .object(members, order: order), count: members.count, next: 1))
          if writer.isPrettyPrinted {
            writer.appendNewline(indentLevel: stack.count)
          }
          let member = members[order?[0] ?? 0]
          writeKey(member.key, into: &writer)
          value = member.value
          continue walk
        }
      }

      // `value` is complete: move to its next sibling, closing each container
      // that has none left.
      while !stack.isEmpty {
        let top = stack.count - 1
        let next = stack[top].next
        if next < stack[top].count {
          stack[top].next = next + 1
          writer.append(UInt8(ascii: ","))
          if writer.isPrettyPrinted {
            writer.appendNewline(indentLevel: stack.count)
          }
          switch stack[top].container {
          case .array(let elements):
            value = elements[next]
          case .object(let members, let order):
            let member = members[order?[next] ?? next]
            writeKey(member.key, into: &writer)
            value = member.value
          }
          continue walk
        }
        let closed = stack.removeLast()
        if writer.isPrettyPrinted {
          writer.appendNewline(indentLevel: stack.count)
        }
        if case .array = closed.container {
          writer.append(UInt8(ascii: "]"))
        } else {
          writer.append(UInt8(ascii: "}"))
        }
      }
      return
    }
  }

  private func writeKey(_ key: String, into writer: inout ByteWriter) {
    writer.writeQuoted(key)
    if writer.isPrettyPrinted {
      writer.append(" : ")
    } else {
      writer.append(UInt8(ascii: ":"))
    }
  }

  /// `[]`, or in pretty output `JSONEncoder`'s "[\n\n<indent>]".
  private func writeEmpty(open: UInt8, close: UInt8, into writer: inout ByteWriter) {
    writer.append(open)
    if writer.isPrettyPrinted {
      writer.append(UInt8(ascii: "\n"))
      writer.appendNewline(indentLevel: stack.count)
    }
    writer.append(close)
  }

  private func write(_ double: Double, into writer: inout ByteWriter) throws {
    switch doubleStyle {
    case .json, .lenient:
      if double.isFinite {
        writer.writeFinite(double)
      } else if doubleStyle == .lenient {
        writer.append(double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity")
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
    stack.map { frame in
      let position = frame.next - 1
      switch frame.container {
      case .array:
        return AnyCodingKey(intValue: position)
      case .object(let members, let order):
        return AnyCodingKey(stringValue: members[order?[position] ?? position].key)
      }
    }
  }
}
