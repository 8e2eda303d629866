import Foundation

@testable import JSONKit

// Independent answers to compare JSONKit's with. Each is deliberately plain
// (and slow): a second, simpler implementation of what JSONKit does fast.

// MARK: - Values

/// Whether two values are the same JSON in the strictest sense a round trip
/// can keep: strings and keys byte for byte (not merely canonically
/// equivalent), doubles bit for bit (so `-0` stays `-0`), and, when
/// `keyOrder` is set, object members in the same order.
///
/// A `.double` holding an integer and an `.int` or `.uint` of the same value
/// count as the same: the writer prints `2.0` as `2`, which reads back as an
/// integer. Returns a description of the first difference, or nil.
func difference(_ left: JSONValue, _ right: JSONValue, keyOrder: Bool) -> String? {
  var pending: [(JSONValue, JSONValue, String)] = [(left, right, "$")]
  while let (a, b, path) = pending.popLast() {
    switch (a, b) {
    case (.null, .null):
      continue
    case (.bool(let x), .bool(let y)):
      if x != y { return "\(path): \(x) vs \(y)" }
    case (.string(let x), .string(let y)):
      if !x.utf8.elementsEqual(y.utf8) {
        return "\(path): string \(show(x.utf8)) vs \(show(y.utf8))"
      }
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) elements" }
      for index in x.indices { pending.append((x[index], y[index], "\(path)[\(index)]")) }
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) members" }
      for (position, member) in x.enumerated() {
        let other: JSONObject.Element
        if keyOrder {
          other = y[position]
          guard member.key.utf8.elementsEqual(other.key.utf8) else {
            return "\(path): key \(show(member.key.utf8)) vs \(show(other.key.utf8))"
          }
        } else {
          guard let index = y.index(forKey: member.key) else {
            return "\(path): key \(show(member.key.utf8)) missing"
          }
          other = y[index]
          guard member.key.utf8.elementsEqual(other.key.utf8) else {
            return "\(path): key \(show(member.key.utf8)) vs \(show(other.key.utf8))"
          }
        }
        pending.append((member.value, other.value, "\(path).\(member.key)"))
      }
    default:
      guard let x = ExactNumber(a), let y = ExactNumber(b) else {
        return "\(path): \(a.debugDescription) vs \(b.debugDescription)"
      }
      if x != y { return "\(path): \(a.debugDescription) vs \(b.debugDescription)" }
    }
  }
  return nil
}

/// A JSON number by its exact value, with `-0.0` kept apart from `0`.
private enum ExactNumber: Equatable {
  case integer(negative: Bool, magnitude: UInt64)
  case double(UInt64)

  init?(_ value: JSONValue) {
    switch value {
    case .int(let integer):
      self = .integer(negative: integer < 0, magnitude: integer.magnitude)
    case .uint(let integer):
      self = .integer(negative: false, magnitude: integer)
    case .double(let double):
      if double == 0, double.sign == .minus {
        self = .double(double.bitPattern)
      } else if let integer = Int64(exactly: double) {
        self = .integer(negative: integer < 0, magnitude: integer.magnitude)
      } else if let integer = UInt64(exactly: double) {
        self = .integer(negative: false, magnitude: integer)
      } else {
        self = .double(double.bitPattern)
      }
    default:
      return nil
    }
  }
}

/// `value` as `JKDecoder` reads a `JSONValue` under `.convertFromSnakeCase`:
/// every object key converted (by the decoder's conversion, which the test
/// suite checks against Foundation's), and of keys that convert alike, the
/// first one kept, with its value, as a keyed decoding container keeps it.
func snakeCaseConverted(_ value: JSONValue) -> JSONValue {
  renamingKeys(of: value, by: KeyConversion.camelCased, keepingLastValue: false, sorted: false)
}

/// `value` as `JKEncoder` writes a `JSONValue` under `.convertToSnakeCase`:
/// every object key converted (by the encoder's conversion, which the test
/// suite checks against Foundation's), and of keys that convert alike, one
/// member where the first stood, with the last one's value, as a keyed
/// encoding container keeps a key encoded twice; under `.sortedKeys`, the
/// converted keys in order of their UTF-8 bytes.
func snakeCaseWritten(_ value: JSONValue, sortingKeys: Bool) -> JSONValue {
  renamingKeys(
    of: value, by: KeyConversion.snakeCased, keepingLastValue: true, sorted: sortingKeys)
}

/// `value` with every object key renamed; of keys renamed alike, one member
/// where the first stood, with the first or the last one's value; when
/// `sorted`, each object's members in order of their keys' UTF-8 bytes.
private func renamingKeys(
  of value: JSONValue, by rename: (String) -> String, keepingLastValue: Bool, sorted: Bool
) -> JSONValue {
  func walk(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements):
      return .array(elements.map(walk))
    case .object(let object):
      var renamed = JSONObject()
      for member in object {
        let key = rename(member.key)
        if keepingLastValue || renamed[key] == nil { renamed[key] = walk(member.value) }
      }
      guard sorted else { return .object(renamed) }
      return .object(
        JSONObject(renamed.sorted { utf8Precedes($0.key, $1.key) }.map { ($0.key, $0.value) }))
    default:
      return value
    }
  }
  return walk(value)
}

/// Whether `left` comes before `right` in the order of their UTF-8 bytes,
/// the order `.sortedKeys` writes keys in.
private func utf8Precedes(_ left: String, _ right: String) -> Bool {
  left.utf8.lexicographicallyPrecedes(right.utf8)
}

/// The deepest nesting of arrays and objects in `value` (a scalar is 0).
func depth(of value: JSONValue) -> Int {
  var deepest = 0
  var pending: [(JSONValue, Int)] = [(value, 0)]
  while let (value, level) = pending.popLast() {
    switch value {
    case .array(let elements):
      deepest = max(deepest, level + 1)
      for element in elements { pending.append((element, level + 1)) }
    case .object(let object):
      deepest = max(deepest, level + 1)
      for member in object { pending.append((member.value, level + 1)) }
    default:
      break
    }
  }
  return deepest
}

// MARK: - The tape against the text

/// Checks every entry of the tape that scanning `input` leaves against the
/// input text: numbers against the standard library's conversions, strings
/// and keys against a plain reference decoder, and container spans and
/// counts against a walk of their children.
func checkTape(of input: UnsafeRawBufferPointer, options: JKParseOptions, maxDepth: Int = 512) {
  let configuration = ScanConfiguration(options: options, maxDepth: maxDepth)
  let pool = ScanContextPool(limit: 1)
  do {
    try InputText(utf8: input).withTape(configuration: configuration, pool: pool) { tape in
      checkEntries(of: tape, loose: options.contains(.looseUnicode))
    }
  } catch {
    // Whether the input is accepted is compared elsewhere.
  }
}

private func checkEntries(of tape: Tape, loose: Bool) {
  let input = tape.input
  for index in 0..<tape.count {
    let entry = tape[index]
    switch entry.kind {
    case .int, .uint, .double:
      let text = numberToken(in: input, at: entry.offset)
      require(
        String(decoding: Tape.numberText(of: entry, in: input), as: UTF8.self) == text,
        "the tape's number text is the number's token", text)
      checkNumber(entry, text: text)
    case .string:
      let expected = referenceString(in: input, quoteAt: entry.offset, loose: loose)
      let actual = Array(tape.stringBytes(entry))
      require(
        actual == expected, "a string reads as the reference decoder reads it",
        "text \(show(input[entry.offset...].prefix(80)))\nJSONKit \(show(actual))\nreference \(show(expected))"
      )
    case .key:
      let expected = referenceString(in: input, quoteAt: entry.offset, loose: loose)
      let actual = Array(tape.key(entry).utf8)
      require(
        actual == expected, "a key reads as the reference decoder reads it",
        "text \(show(input[entry.offset...].prefix(80)))\nJSONKit \(show(actual))\nreference \(show(expected))"
      )
    case .array, .object:
      checkContainer(at: index, of: tape)
    case .null, .true, .false:
      break
    case .bigInteger:
      violated("no big integers on a tape scanned without allowing them")
    case .bytes:
      violated("no byte strings on a tape scanned from JSON")
    case .sharedReference:
      violated("no shared references on a tape scanned from JSON")
    }
  }
}

/// Checks that the container at `index` holds what its entry says: its
/// children (keys and values alternating in an object), their count and
/// where they end.
func checkContainer(at index: Int, of tape: Tape) {
  let entry = tape[index]
  var child = index + 1
  var count = 0
  while child < entry.containerEnd {
    if entry.kind == .object {
      require(tape[child].kind == .key, "object members start with a key")
      child += 1
    }
    require(tape[child].kind != .key, "a key is followed by a value")
    child = tape.indexAfter(child)
    count += 1
  }
  require(child == entry.containerEnd, "children end where the container ends")
  require(count == entry.childCount, "a container's count is its number of children")
}

private func checkNumber(_ entry: TapeEntry, text: String) {
  switch entry.kind {
  case .int:
    require(Int64(text) == Int64(bitPattern: entry.payload), "an Int64 reads exactly", text)
  case .uint:
    require(
      UInt64(text) == entry.payload && entry.payload > UInt64(Int64.max),
      "a UInt64 above Int64.max reads exactly", text)
  default:
    guard let expected = Double(text) else { violated("a double's text reads as a Double", text) }
    let actual = Double(bitPattern: entry.payload)
    require(
      expected.bitPattern == actual.bitPattern, "a double is correctly rounded",
      "\(text): JSONKit \(actual), standard library \(expected)")
    require(
      actual.isFinite && (actual != 0 || isZeroLiteral(text)), "no overflow or underflow", text)
  }
}

/// The number token at `offset`, by JSON's grammar: `-`, digits, an
/// optional fraction, an optional exponent.
func numberToken(in input: UnsafeRawBufferPointer, at offset: Int) -> String {
  var end = offset
  func digits() {
    while end < input.count, input[end] >= UInt8(ascii: "0"), input[end] <= UInt8(ascii: "9") {
      end += 1
    }
  }
  if end < input.count, input[end] == UInt8(ascii: "-") { end += 1 }
  digits()
  if end + 1 < input.count, input[end] == UInt8(ascii: "."), input[end + 1] >= UInt8(ascii: "0"),
    input[end + 1] <= UInt8(ascii: "9")
  {
    end += 1
    digits()
  }
  if end < input.count, input[end] | 0x20 == UInt8(ascii: "e") {
    var next = end + 1
    if next < input.count, input[next] == UInt8(ascii: "+") || input[next] == UInt8(ascii: "-") {
      next += 1
    }
    if next < input.count, input[next] >= UInt8(ascii: "0"), input[next] <= UInt8(ascii: "9") {
      end = next
      digits()
    }
  }
  return String(decoding: input[offset..<end], as: UTF8.self)
}

/// Whether a number literal spells zero (every digit of its significand is 0).
private func isZeroLiteral(_ text: String) -> Bool {
  for byte in text.utf8 {
    if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
    if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return false }
  }
  return true
}

/// The UTF-8 of the JSON string whose opening quote is at `quote`, decoded
/// the slow, obvious way: one escape or one scalar at a time.
func referenceString(in input: UnsafeRawBufferPointer, quoteAt quote: Int, loose: Bool) -> [UInt8] {
  var scalars = String.UnicodeScalarView()
  var position = quote + 1
  var raw: [UInt8] = []

  func flushRaw() {
    guard !raw.isEmpty else { return }
    // Swift replaces each maximal ill-formed subpart with one U+FFFD, as
    // JSONKit's loose mode does; strict input has none.
    for scalar in String(decoding: raw, as: UTF8.self).unicodeScalars {
      scalars.append(allowed(scalar.value) ? scalar : "\u{FFFD}")
    }
    raw.removeAll()
  }

  func allowed(_ scalar: UInt32) -> Bool {
    scalar != 0 && !(0xFDD0...0xFDEF).contains(scalar) && scalar & 0xFFFE != 0xFFFE
  }

  func hex(at index: Int) -> UInt32? {
    guard index + 4 <= input.count else { return nil }
    return UInt32(String(decoding: input[index..<index + 4], as: UTF8.self), radix: 16)
  }

  while position < input.count {
    let byte = input[position]
    if byte == UInt8(ascii: "\"") { break }
    if byte != UInt8(ascii: "\\") {
      raw.append(byte)
      position += 1
      continue
    }
    flushRaw()
    let escaped = input[position + 1]
    position += 2
    switch escaped {
    case UInt8(ascii: "b"): scalars.append("\u{8}")
    case UInt8(ascii: "f"): scalars.append("\u{C}")
    case UInt8(ascii: "n"): scalars.append("\n")
    case UInt8(ascii: "r"): scalars.append("\r")
    case UInt8(ascii: "t"): scalars.append("\t")
    case UInt8(ascii: "u"):
      guard let unit = hex(at: position) else { violated("an accepted \\u escape has four digits") }
      position += 4
      var scalar = unit
      if (0xD800..<0xDC00).contains(unit), position + 1 < input.count,
        input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u"),
        let low = hex(at: position + 2), (0xDC00..<0xE000).contains(low)
      {
        scalar = 0x10000 + ((unit - 0xD800) << 10 | (low - 0xDC00))
        position += 6
      }
      if let value = Unicode.Scalar(scalar), allowed(scalar) {
        scalars.append(value)
      } else {
        require(loose, "a surrogate, U+0000 or a noncharacter is accepted only when loose")
        scalars.append("\u{FFFD}")
      }
    default:
      scalars.append(Unicode.Scalar(escaped))
    }
  }
  flushRaw()
  return Array(String(scalars).utf8)
}

// MARK: - Written text

/// Checks text JSONKit wrote with `formatting`: well-formed UTF-8, ASCII
/// when Unicode is escaped, `/` escaped unless told not to, and object keys
/// in UTF-8 order when sorted.
func checkWritten(_ bytes: [UInt8], formatting: JKOutputFormatting, value: JSONValue) {
  require(
    String(validating: bytes, as: UTF8.self) != nil, "written text is well-formed UTF-8",
    show(bytes))
  if formatting.contains(.escapeUnicode) {
    require(bytes.allSatisfy { $0 < 0x80 }, "escapeUnicode writes ASCII only", show(bytes))
  }
  if !formatting.contains(.withoutEscapingSlashes) {
    var escaped = false
    for byte in bytes {
      require(byte != UInt8(ascii: "/") || escaped, "slashes are escaped", show(bytes))
      escaped = !escaped && byte == UInt8(ascii: "\\")
    }
  }
  if !formatting.contains(.prettyPrinted) {
    require(
      compacted(bytes) == bytes, "compact output has no whitespace between tokens", show(bytes))
  }
}

/// `text` without the whitespace between its tokens.
func compacted(_ text: [UInt8]) -> [UInt8] {
  var result: [UInt8] = []
  result.reserveCapacity(text.count)
  var inString = false
  var escaped = false
  for byte in text {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      result.append(byte)
    } else if byte == UInt8(ascii: "\"") {
      inString = true
      result.append(byte)
    } else if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 {
      result.append(byte)
    }
  }
  return result
}

/// Whether every object's keys are in the order of their UTF-8 bytes.
func keysAreSorted(_ value: JSONValue) -> Bool {
  var pending = [value]
  while let value = pending.popLast() {
    switch value {
    case .array(let elements):
      pending.append(contentsOf: elements)
    case .object(let object):
      for index in object.indices.dropFirst()
      where !utf8Precedes(object[index - 1].key, object[index].key) {
        return false
      }
      pending.append(contentsOf: object.values)
    default:
      break
    }
  }
  return true
}
