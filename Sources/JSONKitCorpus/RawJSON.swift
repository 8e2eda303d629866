/// A JSON document as a tree that keeps each object's members in the file's order and
/// every scalar's bytes exactly as written.
///
/// The corpus variants are made with this rather than with a JSON library: a number
/// such as canada's `-65.613616999999977` or a string escape such as `\/` must reach the
/// variant spelled as in the original, so that the variant differs from it in key order
/// (and whitespace) only. It also keeps the variants independent of the library that the
/// benchmarks measure. It reads well-formed JSON only (the corpora); it is not a validator.
struct RawJSON {
  /// A value: a scalar as the range of its bytes in ``source`` (a string with its
  /// quotes), or a container of values.
  indirect enum Node {
    case scalar(Range<Int>)
    case array([Node])
    case object([Member])
  }

  /// An object member: its key's bytes as written (with quotes), the key's unescaped
  /// UTF-8 bytes, and its value.
  struct Member {
    var key: Range<Int>
    var name: [UInt8]
    var value: Node
  }

  /// Input that is not JSON; `offset` is where reading stopped.
  struct Malformed: Error, CustomStringConvertible {
    let offset: Int
    var description: String { "Not JSON at byte offset \(offset)" }
  }

  /// The document's bytes, which the scalars and keys refer to.
  let source: [UInt8]
  /// The top-level value.
  var root: Node

  init(parsing bytes: [UInt8]) throws {
    source = bytes
    var reader = Reader(bytes: bytes)
    root = try reader.value()
    reader.skipWhitespace()
    guard reader.position == bytes.count else { throw Malformed(offset: reader.position) }
  }

  /// The document without whitespace, members in the tree's order.
  func minified() -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(source.count)
    write(root, to: &output)
    return output
  }

  private func write(_ node: Node, to output: inout [UInt8]) {
    switch node {
    case .scalar(let range):
      output.append(contentsOf: source[range])
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        write(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        output.append(contentsOf: source[member.key])
        output.append(UInt8(ascii: ":"))
        write(member.value, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Reorders every object's members, depth first from the root; each object's members
  /// are reordered before the values inside them, so a seeded `reorder` visits objects in
  /// one fixed order.
  mutating func reorderMembers(_ reorder: (inout [Member]) -> Void) {
    func visit(_ node: inout Node) {
      switch node {
      case .scalar: break
      case .array(var elements):
        node = .scalar(0..<0)  // Lets `elements` be mutated without a copy.
        for index in elements.indices { visit(&elements[index]) }
        node = .array(elements)
      case .object(var members):
        node = .scalar(0..<0)
        reorder(&members)
        for index in members.indices { visit(&members[index].value) }
        node = .object(members)
      }
    }
    visit(&root)
  }

  /// The original bytes, whitespace and all, with the value of every member named `key`
  /// that is a string replaced by what `replacement` returns for its contents (the bytes
  /// between the quotes, escapes as written); `nil` keeps the value.
  func replacingStrings(
    named key: String, with replacement: (ArraySlice<UInt8>) throws -> [UInt8]?
  ) rethrows -> [UInt8] {
    let name = Array(key.utf8)
    var edits: [(range: Range<Int>, bytes: [UInt8])] = []
    func visit(_ node: Node) throws {
      switch node {
      case .scalar: break
      case .array(let elements): for element in elements { try visit(element) }
      case .object(let members):
        for member in members {
          if member.name == name, case .scalar(let range) = member.value,
            source[range.lowerBound] == UInt8(ascii: "\""),
            let contents = try replacement(source[(range.lowerBound + 1)..<(range.upperBound - 1)])
          {
            edits.append((range, [UInt8(ascii: "\"")] + contents + [UInt8(ascii: "\"")]))
          }
          try visit(member.value)
        }
      }
    }
    try visit(root)
    edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    var output: [UInt8] = []
    output.reserveCapacity(source.count)
    var copied = 0
    for edit in edits {
      output.append(contentsOf: source[copied..<edit.range.lowerBound])
      output.append(contentsOf: edit.bytes)
      copied = edit.range.upperBound
    }
    output.append(contentsOf: source[copied...])
    return output
  }

  /// Reads one value at a time from the bytes.
  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    mutating func skipWhitespace() {
      while position < bytes.count {
        switch bytes[position] {
        case 0x20, 0x0A, 0x0D, 0x09: position += 1
        default: return
        }
      }
    }

    mutating func value() throws -> Node {
      skipWhitespace()
      guard position < bytes.count else { throw Malformed(offset: position) }
      switch bytes[position] {
      case UInt8(ascii: "{"): return try object()
      case UInt8(ascii: "["): return try array()
      case UInt8(ascii: "\""): return .scalar(try string())
      default: return .scalar(try bareScalar())
      }
    }

    private mutating func expect(_ byte: UInt8) throws {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == byte else {
        throw Malformed(offset: position)
      }
      position += 1
    }

    /// After an element or member: `true` for a comma, `false` for `closing`.
    private mutating func another(before closing: UInt8) throws -> Bool {
      skipWhitespace()
      guard position < bytes.count else { throw Malformed(offset: position) }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        return true
      }
      try expect(closing)
      return false
    }

    private mutating func object() throws -> Node {
      position += 1
      var members: [Member] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      repeat {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw Malformed(offset: position)
        }
        let key = try string()
        try expect(UInt8(ascii: ":"))
        let name = try Self.unescaped(bytes[(key.lowerBound + 1)..<(key.upperBound - 1)])
        members.append(Member(key: key, name: name, value: try value()))
      } while try another(before: UInt8(ascii: "}"))
      return .object(members)
    }

    private mutating func array() throws -> Node {
      position += 1
      var elements: [Node] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      }
      repeat {
        elements.append(try value())
      } while try another(before: UInt8(ascii: "]"))
      return .array(elements)
    }

    /// A string's range, quotes included; escapes are skipped, not checked.
    private mutating func string() throws -> Range<Int> {
      let start = position
      position += 1
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\""):
          position += 1
          return start..<position
        case UInt8(ascii: "\\"): position += 2
        default: position += 1
        }
      }
      throw Malformed(offset: start)
    }

    /// A number, `true`, `false` or `null`: the bytes up to the next delimiter.
    private mutating func bareScalar() throws -> Range<Int> {
      let start = position
      scan: while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09:
          break scan
        default: position += 1
        }
      }
      guard position > start else { throw Malformed(offset: start) }
      return start..<position
    }

    /// The UTF-8 bytes that a string's contents (between the quotes) stand for.
    static func unescaped(_ contents: ArraySlice<UInt8>) throws -> [UInt8] {
      guard contents.contains(UInt8(ascii: "\\")) else { return Array(contents) }
      var output: [UInt8] = []
      var index = contents.startIndex
      func hex4() throws -> UInt32 {
        guard index + 4 <= contents.endIndex,
          let value = UInt32(
            String(decoding: contents[index..<(index + 4)], as: UTF8.self), radix: 16)
        else { throw Malformed(offset: index) }
        index += 4
        return value
      }
      while index < contents.endIndex {
        let byte = contents[index]
        index += 1
        guard byte == UInt8(ascii: "\\") else {
          output.append(byte)
          continue
        }
        guard index < contents.endIndex else { throw Malformed(offset: index) }
        let escape = contents[index]
        index += 1
        switch escape {
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar), index + 6 <= contents.endIndex,
            contents[index] == UInt8(ascii: "\\"), contents[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw Malformed(offset: index) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw Malformed(offset: index) }
          output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: output.append(escape)
        }
      }
      return output
    }
  }
}
