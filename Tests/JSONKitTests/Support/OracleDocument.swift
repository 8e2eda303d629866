import Foundation

/// A JSON document as the oracle generator builds it: numbers keep the
/// spelling they were given, members their order.
indirect enum OracleJSON: Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([OracleJSON])
  case object([OracleMember])

  /// The child at `step` (an element index or a member ordinal).
  subscript(step: Int) -> OracleJSON {
    get {
      switch self {
      case .array(let elements): elements[step]
      case .object(let members): members[step].value
      default: fatalError("no children")
      }
    }
    set {
      switch self {
      case .array(var elements):
        elements[step] = newValue
        self = .array(elements)
      case .object(var members):
        members[step].value = newValue
        self = .object(members)
      default: fatalError("no children")
      }
    }
  }

  /// The value at `path`, a list of child steps.
  subscript(path path: ArraySlice<Int>) -> OracleJSON {
    get {
      guard let first = path.first else { return self }
      return self[first][path: path.dropFirst()]
    }
    set {
      guard let first = path.first else {
        self = newValue
        return
      }
      self[first][path: path.dropFirst()] = newValue
    }
  }

  /// The value a coding path leads to, following object members by their key
  /// as written and array elements by index.
  func resolve(_ path: [any CodingKey]) -> OracleJSON? {
    var current = self
    for key in path {
      switch current {
      case .array(let elements):
        guard let index = key.intValue, elements.indices.contains(index) else { return nil }
        current = elements[index]
      case .object(let members):
        guard let member = members.last(where: { $0.key == key.stringValue }) else { return nil }
        current = member.value
      default:
        return nil
      }
    }
    return current
  }

  var isNumber: Bool {
    if case .number = self { return true }
    return false
  }

  /// The document as text, compact and with plain escapes.
  var text: String {
    var style = OracleTextStyle(seed: nil)
    var output = ""
    write(into: &output, style: &style)
    return output
  }

  /// Writes the document, with whitespace and escapes chosen by `style`.
  func write(into output: inout String, style: inout OracleTextStyle) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let text): output += text
    case .string(let text): style.writeString(text, into: &output)
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        style.space(&output)
        element.write(into: &output, style: &style)
        style.space(&output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        style.space(&output)
        style.writeString(member.key, into: &output)
        style.space(&output)
        output += ":"
        style.space(&output)
        member.value.write(into: &output, style: &style)
        style.space(&output)
      }
      output += "}"
    }
  }
}

/// A member of an `OracleJSON` object.
struct OracleMember: Sendable {
  var key: String
  var value: OracleJSON
}

/// How a document is spelled: with a seed, random JSON whitespace, escapes
/// for characters that need none, and `\/`; without one, compact text.
struct OracleTextStyle {
  var random: SplitMix64?

  init(seed: UInt64?) {
    random = seed.map { SplitMix64(seed: $0) }
  }

  mutating func space(_ output: inout String) {
    guard var random else { return }
    if Int.random(in: 0..<4, using: &random) == 0 {
      output += [" ", "\n", "\t", "\r\n", "  "].randomElement(using: &random)!
    }
    self.random = random
  }

  mutating func writeString(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      let escapeAnyway =
        random.map { random in
          var random = random
          let choice = Int.random(in: 0..<8, using: &random) == 0
          self.random = random
          return choice
        } ?? false
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += escapeAnyway ? "\\u000A" : "\\n"
      case "\t": output += escapeAnyway ? "\\u0009" : "\\t"
      case "\r": output += "\\r"
      case "\u{8}": output += "\\b"
      case "\u{C}": output += "\\f"
      case "/": output += escapeAnyway ? "\\/" : "/"
      case _ where scalar.value < 0x20 || escapeAnyway:
        if scalar.value > 0xFFFF {
          let value = scalar.value - 0x10000
          output += Self.escape(0xD800 + (value >> 10)) + Self.escape(0xDC00 + (value & 0x3FF))
        } else {
          output += Self.escape(scalar.value)
        }
      default:
        output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  private static func escape(_ unit: UInt32) -> String {
    let hex = String(unit, radix: 16, uppercase: unit & 1 == 0)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }
}

/// How the generator spells object keys, for a key decoding strategy.
enum OracleKeyStyle: Sendable {
  /// The key is the field name.
  case plain
  /// Keys come from a pool of (JSON key, converted name) pairs, with the
  /// conversions Foundation's `.convertFromSnakeCase` makes.
  case snakeCase([(json: String, converted: String)])
  /// The key is the field name reversed, minus a prefix: the depth of the
  /// coding path the custom strategy sees (see ``customTransform``).
  case custom

  /// The custom key strategy that goes with `.custom`: the coding path's
  /// length followed by the key reversed.
  static let customTransform: @Sendable ([any CodingKey]) -> any CodingKey = { path in
    OracleKey(stringValue: "\(path.count)" + String(path.last!.stringValue.reversed()))
  }
}

/// A place in a generated document where a mistake can be made.
struct OracleSite {
  let path: [Int]
  let schema: OracleSchema
  /// For an object: the ordinals of members whose field is required.
  var requiredMembers: [Int] = []
}

/// Builds random schemas and documents that match them, or match them but
/// for one mistake.
struct OracleGenerator {
  var values: JSONValueGenerator
  var keyStyle: OracleKeyStyle = .plain

  init(seed: UInt64) {
    values = JSONValueGenerator(seed: seed)
  }

  var random: SplitMix64 {
    get { values.random }
    set { values.random = newValue }
  }

  mutating func int(_ range: Range<Int>) -> Int {
    Int.random(in: range, using: &values.random)
  }

  mutating func chance(_ percent: Int) -> Bool {
    int(0..<100) < percent
  }

  mutating func pick<T>(_ choices: [T]) -> T {
    choices[int(0..<choices.count)]
  }

  // MARK: Schemas

  /// A random schema nested at most `depth` containers deep, for a value
  /// whose coding path has `level` components.
  mutating func schema(depth: Int, level: Int) -> OracleSchema {
    let roll = int(0..<(depth > 0 ? 100 : 50))
    switch roll {
    case 0..<38: return .scalar(pick(OracleScalar.allCases))
    case 38..<46:
      let wrapped = schema(depth: depth, level: level)
      return wrapped.isOptional ? wrapped : .optional(wrapped)
    case 46..<50: return .native(pick(OracleNative.allCases))
    case 50..<66: return .array(schema(depth: depth - 1, level: level + 1), access())
    case 66..<86: return object(depth: depth, level: level)
    case 86..<91: return .dictionary(schema(depth: depth - 1, level: level + 1), access())
    case 91..<95: return .stringKeyed(schema(depth: depth - 1, level: level + 1))
    case 95..<97: return .intKeyed(schema(depth: depth - 1, level: level + 1))
    default: return .set(pick([.string, .int]))
    }
  }

  mutating func access() -> OracleAccess {
    pick(OracleAccess.allCases)
  }

  /// An object schema with up to six fields.
  mutating func object(depth: Int, level: Int) -> OracleSchema {
    var fields: [OracleField] = []
    var names = Set<String>()
    for _ in 0..<int(0..<7) {
      let name = fieldName(level: level)
      guard names.insert(name).inserted else { continue }
      fields.append(
        OracleField(
          name: name, schema: schema(depth: depth - 1, level: level + 1), access: access()))
    }
    return .object(fields)
  }

  static let fieldNames = [
    "id", "name", "value", "a", "b", "isActive", "count", "x1", "é", "日本", "😀", "with space",
    "quote\"d", "back\\slash", "slash/", "Index 1", "super", "", "0", "-1", "nul\u{1}l",
  ]

  /// A field name: the Swift-side name, which `jsonKey(for:level:)` spells
  /// in the document.
  mutating func fieldName(level: Int) -> String {
    switch keyStyle {
    case .plain: return pick(Self.fieldNames)
    case .snakeCase(let pool): return pick(pool).converted
    case .custom: return "\(level + 1)" + pick(Self.customKeys)
    }
  }

  static let customKeys = ["ab", "idx", "user_name", "Value", "z9", "q", "snake_key", "KEY"]

  /// The document's key for a field name, in an object whose coding path has
  /// `level` components.
  func jsonKey(for name: String, level: Int) -> String {
    switch keyStyle {
    case .plain: return name
    case .snakeCase(let pool): return pool.first { $0.converted == name }!.json
    case .custom: return String(name.dropFirst("\(level + 1)".count).reversed())
    }
  }

  /// The field name a custom-strategy document key stands for.
  func customName(_ key: String, level: Int) -> String {
    "\(level + 1)" + String(key.reversed())
  }

  // MARK: Documents

  /// A document matching `schema` at coding-path length `level`, with every
  /// place a mistake could go recorded in `sites`.
  mutating func document(
    for schema: OracleSchema, level: Int = 0, path: [Int] = [], sites: inout [OracleSite]
  ) -> OracleJSON {
    sites.append(OracleSite(path: path, schema: schema))
    switch schema {
    case .scalar(let scalar): return self.scalar(scalar)
    case .optional(let wrapped):
      if chance(25) { return .null }
      sites.removeLast()
      return document(for: wrapped, level: level, path: path, sites: &sites)
    case .native(let native):
      sites.removeLast()
      return document(for: native.equivalent, level: level, path: path, sites: &sites)
    case .array(let element, _):
      return .array(
        (0..<int(0..<5)).map { index in
          document(for: element, level: level + 1, path: path + [index], sites: &sites)
        })
    case .set(let scalar):
      return .array(
        (0..<int(0..<5)).map { index in
          document(for: .scalar(scalar), level: level + 1, path: path + [index], sites: &sites)
        })
    case .dictionary(let value, _):
      var members: [OracleMember] = []
      var seen = Set<String>()
      for _ in 0..<int(0..<5) {
        let key = dictionaryKey(level: level)
        guard seen.insert(key.name).inserted else { continue }
        members.append(
          OracleMember(
            key: key.json,
            value: document(
              for: value, level: level + 1, path: path + [members.count], sites: &sites)))
      }
      return .object(members)
    case .stringKeyed(let value):
      var members: [OracleMember] = []
      var seen = Set<String>()
      for _ in 0..<int(0..<5) {
        let key = values.string()
        guard seen.insert(key).inserted, Self.isStrict(key) else { continue }
        members.append(
          OracleMember(
            key: key,
            value: document(
              for: value, level: level + 1, path: path + [members.count], sites: &sites)))
      }
      return .object(members)
    case .intKeyed(let value):
      var members: [OracleMember] = []
      var seen = Set<Int>()
      for _ in 0..<int(0..<5) {
        var key = Int(values.integer() >> UInt64(int(0..<64)))
        // The custom strategy reverses keys and adds a digit: "-5" would become
        // "25-", and 19 digits could overflow; neither is an Int key.
        if case .custom = keyStyle { key = abs(key % 1_000_000_000_000_000) }
        guard seen.insert(key).inserted else { continue }
        members.append(
          OracleMember(
            key: String(key),
            value: document(
              for: value, level: level + 1, path: path + [members.count], sites: &sites)))
      }
      return .object(members)
    case .object(let fields):
      let site = sites.count - 1
      var members: [OracleMember] = []
      for field in fields {
        if field.schema.isOptional && chance(25) { continue }
        let value = document(
          for: field.schema, level: level + 1, path: path + [members.count], sites: &sites)
        if !field.schema.isOptional { sites[site].requiredMembers.append(members.count) }
        members.append(OracleMember(key: jsonKey(for: field.name, level: level), value: value))
      }
      if chance(15) {
        // A member no field asks for.
        let extra = "unknown\(int(0..<100))"
        members.append(OracleMember(key: extra, value: .array([.number("1"), .object([])])))
      }
      if chance(20), members.count > 1 {
        // Models usually read keys in document order; sometimes they do not.
        var order = Array(members.indices)
        order.shuffle(using: &values.random)
        members = order.map { members[$0] }
        sites[site].requiredMembers = sites[site].requiredMembers.map { order.firstIndex(of: $0)! }
        for index in (site + 1)..<sites.count where sites[index].path.count > path.count {
          var moved = sites[index].path
          moved[path.count] = order.firstIndex(of: moved[path.count])!
          sites[index] = OracleSite(
            path: moved, schema: sites[index].schema,
            requiredMembers: sites[index].requiredMembers)
        }
      }
      return .object(members)
    }
  }

  /// A key for a `.dictionary` member: its name after the key strategy, and
  /// as written.
  mutating func dictionaryKey(level: Int) -> (name: String, json: String) {
    switch keyStyle {
    case .plain:
      let key = chance(50) ? pick(Self.fieldNames) : values.string()
      return Self.isStrict(key) ? (key, key) : ("k", "k")
    case .snakeCase(let pool):
      let entry = pick(pool)
      return (entry.converted, entry.json)
    case .custom:
      let json = String(pick(Self.customKeys).reversed())
      return (customName(json, level: level), json)
    }
  }

  /// Whether JSONKit's strict rules accept the string: no U+0000 and no
  /// noncharacters (Foundation accepts both; that difference has its own test).
  static func isStrict(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      let value = scalar.value
      return value != 0 && !(0xFDD0...0xFDEF).contains(value) && value & 0xFFFE != 0xFFFE
    }
  }

  /// A string JSONKit accepts.
  mutating func strictString() -> String {
    while true {
      let text = values.string()
      if Self.isStrict(text) { return text }
    }
  }

  mutating func scalar(_ scalar: OracleScalar) -> OracleJSON {
    switch scalar {
    case .bool: return .bool(chance(50))
    case .string: return .string(strictString())
    case .double: return .number(doubleText())
    case .float: return .number(floatText())
    default: return .number(integerText(scalar))
    }
  }

  /// An integer in the type's range, usually spelled plainly, sometimes with
  /// a fraction or exponent that keeps it an integer.
  mutating func integerText(_ scalar: OracleScalar) -> String {
    let (minimum, maximum) = scalar.integerBounds!
    let bits = int(0..<65)
    var magnitude = bits == 64 ? values.random.next() : values.random.next() & ((1 << bits) - 1)
    let negative = minimum < 0 && chance(50)
    if negative {
      magnitude = min(magnitude, minimum.magnitude)
    } else {
      magnitude = min(magnitude, maximum)
    }
    if chance(5) { magnitude = negative ? minimum.magnitude : maximum }
    let digits = String(magnitude)
    let sign = negative ? "-" : ""
    if magnitude == 0 && chance(30) {
      return pick(["-0", "0.0", "-0.0", "0e5", "0E-3", "-0.000"])
    }
    // Foundation cannot read Int64.min spelled with a fraction or exponent (it
    // goes through Decimal and back); that difference has its own test.
    // Nor a 64-bit integer near the top of its range so spelled (its Double
    // rounds past the maximum, and Foundation stops there).
    let nearTop = magnitude > 1 << 62
    guard chance(30), !nearTop, magnitude != 0 else { return sign + digits }
    // The same integer with its decimal point moved and an exponent.
    let shift = int(-3..<4)
    if shift > 0 && shift < digits.count {
      let point = digits.index(digits.endIndex, offsetBy: -shift)
      return sign + digits[..<point] + "." + digits[point...] + pick(["e", "E", "e+"]) + "\(shift)"
    }
    if shift < 0 {
      return sign + digits + String(repeating: "0", count: -shift) + "e\(shift)"
    }
    return sign + digits + pick([".0", ".00", "e0", "E+0"])
  }

  /// A finite double, spelled shortest, with 17 digits, or as a longer or
  /// shorter decimal (always within range: JSONKit rejects overflow and
  /// underflow outright, Foundation only when it reads the value).
  mutating func doubleText() -> String {
    switch int(0..<10) {
    case 0..<4:
      return values.finiteDouble().description
    case 4..<6:
      let value = values.finiteDouble()
      return String(format: "%.17g", value)
    case 6..<8:
      // Up to 30 random digits with an exponent that keeps them in range.
      var digits = String(int(1..<10))
      for _ in 0..<int(0..<30) { digits += String(int(0..<10)) }
      let point = int(1..<(digits.count + 1))
      let mantissa =
        point == digits.count
        ? digits : digits.prefix(point) + "." + digits.dropFirst(point)
      return (chance(30) ? "-" : "") + mantissa + "e\(int(-290..<290) - point)"
    default:
      return pick(["0", "-0", "0.1", "1.5", "-2.25", "1e10", "123456789", "1E-7", "100.000"])
    }
  }

  /// A finite float spelled shortest, or a double inside Float's range.
  mutating func floatText() -> String {
    switch int(0..<10) {
    case 0..<6:
      while true {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: values.random.next()))
        if value.isFinite { return value.description }
      }
    case 6..<9:
      while true {
        let value = values.finiteDouble()
        if value.magnitude < 3e38 && (value == 0 || value.magnitude > 1e-37) {
          return value.description
        }
      }
    default:
      return pick(["0", "-0", "0.1", "16777217", "3.4028235e38", "1e-45", "1.17549435e-38"])
    }
  }

  // MARK: Values

  /// A random value of `schema`, for encoding. With `strict`, strings are
  /// ones JSONKit's decoder accepts back (no U+0000, no noncharacters).
  mutating func value(for schema: OracleSchema, strict: Bool) -> OracleValue {
    switch schema {
    case .scalar(let scalar): return value(for: scalar, strict: strict)
    case .optional(let wrapped):
      return chance(25) ? .null : value(for: wrapped, strict: strict)
    case .native(let native): return value(for: native.equivalent, strict: strict)
    case .array(let element, _):
      return .array((0..<int(0..<5)).map { _ in value(for: element, strict: strict) })
    case .set(let scalar):
      return .set(Set((0..<int(0..<5)).map { _ in value(for: scalar, strict: strict) }))
    case .dictionary(let element, _), .stringKeyed(let element):
      var members: [String: OracleValue] = [:]
      for _ in 0..<int(0..<5) {
        let key = strict ? strictString() : values.string()
        members[key] = value(for: element, strict: strict)
      }
      return .object(members)
    case .intKeyed(let element):
      var members: [Int: OracleValue] = [:]
      for _ in 0..<int(0..<5) {
        members[Int(values.integer() >> UInt64(int(0..<64)))] = value(for: element, strict: strict)
      }
      return .intObject(members)
    case .object(let fields):
      var members: [String: OracleValue] = [:]
      for field in fields {
        members[field.name] = value(for: field.schema, strict: strict)
      }
      return .object(members)
    }
  }

  mutating func value(for scalar: OracleScalar, strict: Bool) -> OracleValue {
    switch scalar {
    case .bool: return .bool(chance(50))
    case .string: return .string(strict ? strictString() : values.string())
    case .double: return .double(values.finiteDouble().bitPattern)
    case .float:
      while true {
        let bits = UInt32(truncatingIfNeeded: values.random.next())
        if Float(bitPattern: bits).isFinite { return .float(bits) }
      }
    default:
      let (minimum, maximum) = scalar.integerBounds!
      let bits = int(0..<65)
      let magnitude = bits == 64 ? values.random.next() : values.random.next() & ((1 << bits) - 1)
      if minimum < 0 && chance(50) {
        return .int(magnitude >= minimum.magnitude ? minimum : -Int64(magnitude))
      }
      let value = min(magnitude, maximum)
      return minimum < 0 ? .int(Int64(value)) : .uint(value)
    }
  }

  // MARK: Mistakes

  /// The document with one mistake at a random site; nil when the site
  /// chosen has no mistake to make.
  mutating func mistake(in document: OracleJSON, sites: [OracleSite]) -> (
    OracleJSON, String
  )? {
    let site = pick(sites)
    var result = document
    let unwrapped = site.schema.unwrapped
    switch int(0..<4) {
    case 0 where !site.schema.isOptional:
      result[path: site.path[...]] = .null
      return (result, "null at \(site.path)")
    case 1:
      if case .scalar(let scalar) = unwrapped, let bounds = scalar.integerBounds {
        let text = pick(outOfRange(bounds))
        result[path: site.path[...]] = .number(text)
        return (result, "\(text) for \(scalar) at \(site.path)")
      }
      if case .scalar(.float) = unwrapped {
        let text = pick(["1e39", "-3.5e38", "1e-50", "-1e-46", "3.4028236e38"])
        result[path: site.path[...]] = .number(text)
        return (result, "\(text) for Float at \(site.path)")
      }
      return nil
    case 2 where !site.requiredMembers.isEmpty:
      let ordinal = pick(site.requiredMembers)
      guard case .object(var members) = result[path: site.path[...]] else { return nil }
      let removed = members.remove(at: ordinal)
      result[path: site.path[...]] = .object(members)
      return (result, "no \(removed.key.debugDescription) at \(site.path)")
    default:
      let wrong = wrongKind(for: unwrapped)
      result[path: site.path[...]] = wrong
      return (result, "\(wrong.text) for \(unwrapped) at \(site.path)")
    }
  }

  /// Numbers no value of an integer type with these bounds holds.
  func outOfRange(_ bounds: (min: Int64, max: UInt64)) -> [String] {
    var texts = [
      bounds.max == UInt64.max ? "18446744073709551616" : String(bounds.max + 1),
      "1.5", "-0.5", "1e30", "123456789012345678901234567890", "2.5e-3",
    ]
    if bounds.min == 0 {
      texts.append("-1")
    } else if bounds.min == Int64.min {
      texts.append("-9223372036854775809")
    } else {
      texts.append(String(bounds.min - 1))
    }
    return texts
  }

  /// A value of another JSON kind than the schema wants.
  mutating func wrongKind(for schema: OracleSchema) -> OracleJSON {
    let expected: Int
    switch schema {
    case .scalar(.bool): expected = 0
    case .scalar(.string): expected = 1
    case .scalar: expected = 2
    case .array, .set: expected = 3
    case .native(let native): return wrongKind(for: native.equivalent.unwrapped)
    default: expected = 4
    }
    let kinds = [0, 1, 2, 3, 4].filter { $0 != expected }
    switch pick(kinds) {
    case 0: return .bool(chance(50))
    case 1: return .string(pick(["", "1", "true", "x"]))
    case 2: return .number(pick(["0", "1.5", "-7"]))
    case 3: return .array(chance(50) ? [] : [.number("1")])
    default: return .object(chance(50) ? [] : [OracleMember(key: "k", value: .null)])
    }
  }
}
