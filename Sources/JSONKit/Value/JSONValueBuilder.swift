/// Builds `JSONValue` trees from the tape.
///
/// Iterative, with an explicit stack of open containers, so that a document
/// as deep as the caller's nesting limit allows never overflows the call
/// stack. Each array and object is created with exactly the capacity the
/// tape recorded for it.
enum JSONValueBuilder {
  /// An integer literal beyond 64 bits, which `JSONValue` cannot hold; only
  /// possible on tapes scanned for Codable, where such literals are kept.
  struct BigInteger: Error {
    let index: Int
  }

  private struct Frame {
    /// The container's own entry.
    let start: Int
    let isObject: Bool
    let end: Int
    let hasDuplicateKeys: Bool
    var elements: [JSONValue] = []
    var members: [(key: String, value: JSONValue)] = []
    var key = ""
  }

  /// The value whose entry is at `root`.
  ///
  /// With `convert`, each object's keys are converted by it (given the
  /// object's entry and the key) after duplicates are resolved; keys that
  /// convert alike then keep the first one's value, as a keyed decoding
  /// container under a key strategy does.
  static func value(
    at root: Int, in tape: Tape,
    convertingKeys convert: ((_ object: Int, _ key: String) -> String)? = nil
  ) throws(BigInteger) -> JSONValue {
    var frames: [Frame] = []
    var index = root
    while true {
      let entry = tape[index]
      var value: JSONValue
      switch entry.kind {
      case .null: value = .null
      case .true: value = .bool(true)
      case .false: value = .bool(false)
      case .int: value = .int(Int64(bitPattern: entry.payload))
      case .uint: value = .uint(entry.payload)
      case .double: value = .double(Double(bitPattern: entry.payload))
      case .string: value = .string(tape.string(entry))
      case .bigInteger: throw BigInteger(index: index)
      case .key:
        frames[frames.count - 1].key = tape.key(entry)
        index += 1
        continue
      case .array, .object:
        let isObject = entry.kind == .object
        guard entry.childCount > 0 else {
          value = isObject ? .object(JSONObject()) : .array([])
          break
        }
        var frame = Frame(
          start: index, isObject: isObject, end: entry.containerEnd,
          hasDuplicateKeys: entry.flags & TapeEntry.hasDuplicateKeys != 0)
        if isObject {
          frame.members.reserveCapacity(entry.childCount)
        } else {
          frame.elements.reserveCapacity(entry.childCount)
        }
        frames.append(frame)
        index += 1
        continue
      }
      index += 1
      // Hand the finished value to its container, closing every container
      // that it finishes in turn.
      while let top = frames.indices.last {
        if frames[top].isObject {
          frames[top].members.append((frames[top].key, value))
        } else {
          frames[top].elements.append(value)
        }
        guard index == frames[top].end else { break }
        let frame = frames.removeLast()
        if frame.isObject {
          let object =
            frame.hasDuplicateKeys
            ? JSONObject(frame.members) : JSONObject(uniqueKeysWithValues: frame.members)
          value = .object(convert.map { converted(object, at: frame.start, by: $0) } ?? object)
        } else {
          value = .array(frame.elements)
        }
      }
      if frames.isEmpty { return value }
    }
  }

  private static func converted(
    _ object: JSONObject, at start: Int, by convert: (Int, String) -> String
  ) -> JSONObject {
    var result = JSONObject()
    for member in object {
      let key = convert(start, member.key)
      if result[key] == nil { result[key] = member.value }
    }
    return result
  }
}
