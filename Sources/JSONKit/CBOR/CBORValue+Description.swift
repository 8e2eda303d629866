extension CBORValue: CustomStringConvertible {
  /// The item in RFC 8949's diagnostic notation (§8): `{"a": [1, -2.5]}`,
  /// `h'0102'`, `1(1363896240)`, `simple(16)`, `NaN`.
  public var description: String {
    var text = ""
    walk { step in
      switch step {
      case .open(let value, let place):
        text += Self.separator(before: place)
        switch value {
        case .array: text += "["
        case .map: text += "{"
        case .tagged(let tag, _): text += "\(tag)("
        default: break
        }
      case .leaf(let value, let place):
        text += Self.separator(before: place)
        text += Self.diagnostic(leaf: value)
      case .close(let value):
        switch value {
        case .array: text += "]"
        case .map: text += "}"
        default: text += ")"
        }
      }
    }
    return text
  }

  /// What stands between an item and the one before it.
  private static func separator(before place: WalkPlace) -> String {
    switch place {
    case .first: ""
    case .element, .key: ", "
    case .value: ": "
    }
  }

  /// The diagnostic notation of an item that holds no other items.
  private static func diagnostic(leaf value: CBORValue) -> String {
    switch value {
    case .unsigned(let value): return String(value)
    case .negative(let value):
      return value == .max ? "-18446744073709551616" : "-\(value + 1)"
    case .bytes(let bytes): return "h'" + bytes.map { hex($0).lowercased() }.joined() + "'"
    // Text as JSON writes a string, as the notation's strings are JSON's.
    case .text(let text): return JSONValue.quote(text, options: .withoutEscapingSlashes)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .undefined: return "undefined"
    case .simple(let value): return "simple(\(value))"
    case .float(let value): return diagnostic(float: value)
    case .array, .map, .tagged: return ""
    }
  }

  /// A float as the diagnostic notation writes it: `1.0`, `-4.1`,
  /// `1.0e+300`, `5.960464477539063e-8`, `Infinity`, `NaN`.
  private static func diagnostic(float value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    let text = value.description
    guard let e = text.firstIndex(of: "e") else { return text }
    var mantissa = String(text[..<e])
    if !mantissa.contains(".") { mantissa += ".0" }
    var exponent = text[text.index(after: e)...]
    let sign = exponent.first == "-" ? "-" : "+"
    exponent = exponent.drop { $0 == "+" || $0 == "-" || $0 == "0" }
    return mantissa + "e" + sign + (exponent.isEmpty ? "0" : String(exponent))
  }
}
