import Foundation
import JSONKit

// Round trips: whatever parses must write, and what is written must read
// back as the same value.
//
// Selector bits 0–3 are the parse options; bit 4 snake_case keys for the
// model (`.convertFromSnakeCase` in, `.convertToSnakeCase` out). Checked for
// every input that parses, under each of the sixteen output formats:
//
// - `jsonBytes`, `jsonData` and `jsonString` write the same text; it is
//   well-formed UTF-8, ASCII under `.escapeUnicode`, with `/` escaped unless
//   told not to; pretty text is the compact text plus whitespace;
// - the text parses strictly as the same value (doubles bit for bit,
//   strings byte for byte, keys in order, or sorted under `.sortedKeys`);
// - `JKEncoder` writes the same bytes, for the value and for a wrapper
//   that encodes it through Codable's generic containers;
// - a model decoded from the input encodes, its text parses, and it decodes
//   back to an equal model (with snake_case keys, equal once the keys of
//   its `JSONValue`s are converted to snake_case and back);
// - the value (and the model, through its `JSONValue` field) with a scalar
//   JSONKit's reader rejects (U+0000, a noncharacter) put into one of its
//   strings or keys, chosen by the input, is never written: `jsonBytes`,
//   `JKEncoder` and the generic containers throw `EncodingError.invalidValue`
//   whose coding path leads to that string or key. Parsing never yields such
//   a scalar, so whatever else is written reads back.

let fuzzTargetUsesModels = true
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

private let encoders: [JKEncoder] = allOutputFormattings.map { formatting in
  let encoder = JKEncoder()
  encoder.outputFormatting = formatting
  return encoder
}

private let modelDecoders: [JKDecoder] = (0..<32).map { bits in
  let decoder = JKDecoder()
  decoder.parseOptions = JKParseOptions(rawValue: UInt32(bits & 0x0F))
  if bits & 0x10 != 0 { decoder.keyDecodingStrategy = .convertFromSnakeCase }
  return decoder
}

private let modelEncoders: [[JKEncoder]] = [false, true].map { snakeCase in
  allOutputFormattings.map { formatting in
    let encoder = JKEncoder()
    encoder.outputFormatting = formatting
    if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
    return encoder
  }
}

/// libFuzzer's entry point: one round trip of one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTrip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  // Which string or key gets a scalar JSONKit cannot read back, and which.
  let target = input.document.count / 3
  let scalar = unreadableScalars[input.document.count % unreadableScalars.count]
  if let value = try? JSONValue(parsing: input.document, options: input.parseOptions) {
    roundTrip(value)
    if let tainted = value.tainting(stringNumber: target, with: scalar) {
      expectRefused(tainted)
    }
  }
  let decoder = modelDecoders[Int(input.selector & 0x1F)]
  if var model = try? decoder.decode(FuzzModel.self, from: input.data) {
    let snakeCase = input.selector & 0x10 != 0
    roundTrip(model, snakeCase: snakeCase)
    model.extra = ["k\(scalar)": nil]
    for encoder in modelEncoders[snakeCase ? 1 : 0] {
      do {
        _ = try encoder.encodeToBytes(model)
        violated("a model holding a scalar JSONKit cannot read back does not encode")
      } catch {
        require(
          isUnreadableScalarError(error), "the error says the scalar cannot be read back",
          "\(error)")
      }
    }
  }
  return 0
}

/// The scalars JSONKit's reader rejects, so its writers refuse them.
private let unreadableScalars: [Unicode.Scalar] = [
  0, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1_FFFE, 0xE_FFFF, 0x10_FFFF,
].map { Unicode.Scalar($0)! }

private func holdsUnreadableScalar(_ string: String) -> Bool {
  string.unicodeScalars.contains {
    unreadableScalars.contains($0) || (0xFDD0...0xFDEF).contains($0.value)
      || $0.value & 0xFFFE == 0xFFFE
  }
}

private func isUnreadableScalarError(_ error: any Error) -> Bool {
  guard case .invalidValue(let value, let context) = error as? EncodingError else { return false }
  return (value as? String).map(holdsUnreadableScalar) == true
    && context.debugDescription.contains("cannot be read back by JSONKit's strict reader")
}

/// Checks that no writer writes `value`, which holds one string or key
/// with a scalar JSONKit cannot read back, and that each error's coding
/// path leads to it.
private func expectRefused(_ value: JSONValue) {
  for (index, formatting) in allOutputFormattings.enumerated() {
    let attempts: [(String, () throws -> [UInt8])] = [
      ("jsonBytes", { try value.jsonBytes(options: formatting) }),
      ("JKEncoder", { try encoders[index].encodeToBytes(value) }),
      ("generic containers", { try encoders[index].encodeToBytes(GenericCodable(value: value)) }),
    ]
    for (writer, write) in attempts {
      do {
        let bytes = try write()
        violated(
          "\(writer) refuses a string JSONKit cannot read back", "\(formatting): \(show(bytes))")
      } catch {
        require(
          isUnreadableScalarError(error), "\(writer)'s error says the scalar cannot be read back",
          "\(formatting): \(error)")
        guard case .invalidValue(_, let context) = error as? EncodingError else { continue }
        require(
          value.leadsToUnreadableScalar(context.codingPath),
          "\(writer)'s error leads to the string or key", "\(formatting): \(context.codingPath)")
      }
    }
  }
}

extension JSONValue {
  /// This value with `scalar` put into the middle of its string or key
  /// number `stringNumber` (counting keys and strings in document order
  /// from 0), or nil when it has fewer.
  fileprivate func tainting(stringNumber: Int, with scalar: Unicode.Scalar) -> JSONValue? {
    var remaining = stringNumber
    func taint(_ string: String) -> String {
      var scalars = Array(string.unicodeScalars)
      scalars.insert(scalar, at: scalars.count / 2)
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars)
      return String(view)
    }
    func walk(_ value: JSONValue) -> JSONValue? {
      switch value {
      case .string(let string):
        if remaining == 0 { return .string(taint(string)) }
        remaining -= 1
        return nil
      case .array(var elements):
        for index in elements.indices {
          if let changed = walk(elements[index]) {
            elements[index] = changed
            return .array(elements)
          }
        }
        return nil
      case .object(let object):
        var members = Array(object)
        for index in members.indices {
          if remaining == 0 {
            let key = taint(members[index].key)
            // Another member may have that key already: keep the object's size.
            guard object[key] == nil else { return nil }
            members[index] = (key, members[index].value)
            return .object(JSONObject(members.map { ($0.key, $0.value) }))
          }
          remaining -= 1
          if let changed = walk(members[index].value) {
            members[index] = (members[index].key, changed)
            return .object(JSONObject(members.map { ($0.key, $0.value) }))
          }
        }
        return nil
      default:
        return nil
      }
    }
    return walk(self)
  }

  /// Whether `path` leads to a string holding a scalar JSONKit cannot read
  /// back, or ends with such a key.
  fileprivate func leadsToUnreadableScalar(_ path: [any CodingKey]) -> Bool {
    if let last = path.last, holdsUnreadableScalar(last.stringValue) { return true }
    var current = self
    for key in path {
      switch current {
      case .array(let elements):
        guard let index = key.intValue, elements.indices.contains(index) else { return false }
        current = elements[index]
      case .object(let object):
        guard let member = object[key.stringValue] else { return false }
        current = member
      default:
        return false
      }
    }
    if case .string(let string) = current { return holdsUnreadableScalar(string) }
    return false
  }
}

private func roundTrip(_ value: JSONValue) {
  // `.prettyPrinted` is bit 0, so each format's compact twin comes just
  // before it.
  var compact: [UInt8] = []
  for (index, formatting) in allOutputFormattings.enumerated() {
    guard let bytes = try? value.jsonBytes(options: formatting) else {
      violated("a parsed value can be written", "\(formatting)")
    }
    checkWritten(bytes, formatting: formatting, value: value)
    require(
      (try? value.jsonData(options: formatting)) == Data(bytes)
        && (try? value.jsonString(options: formatting)).map { Array($0.utf8) } == bytes,
      "jsonBytes, jsonData and jsonString agree")
    if formatting.contains(.prettyPrinted) {
      require(
        compacted(bytes) == compact, "pretty text is compact text plus whitespace", show(bytes))
    } else {
      compact = bytes
    }

    guard let reread = try? JSONValue(parsing: bytes) else {
      violated("written text parses strictly", "\(formatting): \(show(bytes))")
    }
    let sorted = formatting.contains(.sortedKeys)
    if let difference = difference(value, reread, keyOrder: !sorted) {
      violated("written text reads back as the same value", "\(formatting): \(difference)")
    }
    if sorted { require(keysAreSorted(reread), "sorted output has sorted keys", show(bytes)) }

    let encoder = encoders[index]
    guard let encoded = try? encoder.encodeToBytes(value) else {
      violated("JKEncoder encodes a parsed value", "\(formatting)")
    }
    require(
      encoded == bytes, "JKEncoder writes a JSONValue as jsonBytes does",
      "\(formatting)\n\(show(encoded))\n\(show(bytes))")
    guard let generic = try? encoder.encodeToBytes(GenericCodable(value: value)) else {
      violated("JKEncoder encodes a value through generic containers", "\(formatting)")
    }
    require(
      generic == bytes, "generic Codable encoding writes what jsonBytes writes",
      "\(formatting)\n\(show(generic))\n\(show(bytes))")
  }
}

private func roundTrip(_ model: FuzzModel, snakeCase: Bool) {
  let decoder = modelDecoders[snakeCase ? 0x10 : 0]
  // What a snake_case round trip gives back, by whether keys are sorted;
  // made only when the model does not come back as it was.
  var convertedModels: [Bool: FuzzModel] = [:]
  for (index, formatting) in allOutputFormattings.enumerated() {
    let encoder = modelEncoders[snakeCase ? 1 : 0][index]
    let bytes: [UInt8]
    do {
      bytes = try encoder.encodeToBytes(model)
    } catch {
      violated("a decoded model encodes", "\(formatting): \(error)")
    }
    do {
      let value = try JSONValue(parsing: bytes)
      if formatting.contains(.sortedKeys) {
        require(keysAreSorted(value), "JKEncoder sorts keys", show(bytes))
      }
    } catch {
      // 128-bit integers and long decimals are beyond what JSONValue holds.
      require(
        error.kind == .integerOutOfRange, "JKEncoder's text parses strictly",
        "\(formatting): \(error)\n\(show(bytes))")
    }
    let back: FuzzModel
    do {
      back = try decoder.decode(FuzzModel.self, from: bytes)
    } catch {
      violated("an encoded model decodes", "\(formatting): \(error)\n\(show(bytes))")
    }
    if back == model { continue }
    // snake_case conversion is not one-to-one: the keys inside `extra` (a
    // `JSONValue`, whose keys go through the strategies as Foundation's do)
    // come back converted there and back, as `"Any"` comes back `"any"`.
    // Some never settle: Foundation's own conversions turn a few keys back
    // and forth between two spellings on every round trip.
    require(snakeCase, "a model decodes to what was encoded", "\(formatting): \(show(bytes))")
    let sortingKeys = formatting.contains(.sortedKeys)
    let expected =
      convertedModels[sortingKeys]
      ?? model.convertingExtra {
        snakeCaseConverted(snakeCaseWritten($0, sortingKeys: sortingKeys))
      }
    convertedModels[sortingKeys] = expected
    require(
      back == expected,
      "a snake_case model decodes to what was encoded, its JSONValue keys converted there and back",
      "\(formatting): \(show(bytes))")
  }
}

extension FuzzModel {
  /// This model with `transform` applied to its own `extra` and to its
  /// children's.
  fileprivate func convertingExtra(_ transform: (JSONValue) -> JSONValue) -> FuzzModel {
    var converted = self
    converted.extra = extra.map(transform)
    converted.children = children?.map { $0.convertingExtra(transform) }
    return converted
  }
}

/// Encodes a `JSONValue` through keyed, unkeyed and single-value containers,
/// as any Codable type would, so that the encoder's generic path is
/// compared with the value writer.
private struct GenericCodable: Encodable {
  let value: JSONValue

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    switch value {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let bool):
      var container = encoder.singleValueContainer()
      try container.encode(bool)
    case .int(let integer):
      var container = encoder.singleValueContainer()
      try container.encode(integer)
    case .uint(let integer):
      var container = encoder.singleValueContainer()
      try container.encode(integer)
    case .double(let double):
      var container = encoder.singleValueContainer()
      try container.encode(double)
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(GenericCodable(value: element)) }
    case .object(let object):
      var container = encoder.container(keyedBy: Key.self)
      for member in object {
        try container.encode(
          GenericCodable(value: member.value), forKey: Key(stringValue: member.key))
      }
    }
  }
}
