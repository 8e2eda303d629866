import JSONKit

/// `--pointer POINTER`, which `format` and `validate` share: the RFC 6901
/// JSON Pointer of the value a command is about.
enum PointerOption {
  /// The option as `--help` lists it.
  static func spec(_ help: String) -> OptionSpec {
    .valued("--pointer", "POINTER", help)
  }

  /// The pointer `--pointer` gives, or `nil` without one.
  ///
  /// - Throws: ``ToolError`` (status 2) for text that is not a JSON Pointer.
  static func pointer(_ arguments: Arguments) throws(ToolError) -> JSONPointer? {
    guard let text = arguments.value(of: "--pointer") else { return nil }
    do throws(JSONPointer.SyntaxError) {
      return try JSONPointer(text)
    } catch {
      throw .usage(
        "--pointer '\(text)' is not a JSON Pointer: \(error.message) (at byte \(error.offset))")
    }
  }

  /// The value `pointer` names in `value`, a whole file or (with `line`)
  /// one record of a JSON Lines file.
  ///
  /// - Throws: ``ToolError`` (status 1) naming the file (and line), the
  ///   pointer, and where it leaves the value, when it names nothing.
  static func resolve(
    _ pointer: JSONPointer, in value: JSONValue, file: String, line: Int? = nil
  ) throws(ToolError) -> JSONValue {
    if let found = value[pointer: pointer] { return found }
    let place = line.map { "\(file):\($0)" } ?? file
    let whole = line == nil ? "the document" : "the record"
    throw ToolError(
      status: .invalidInput,
      message: "\(place): JSON Pointer '\(pointer)' names no value: "
        + miss(pointer, in: value, whole: whole))
  }

  /// Where `pointer` leaves `value`: the deepest value it reaches (`whole`
  /// for `value` itself) and why the next token names nothing in it.
  private static func miss(_ pointer: JSONPointer, in value: JSONValue, whole: String) -> String {
    var current = value
    var reached = JSONPointer(tokens: [])
    for token in pointer.tokens {
      let step = JSONPointer(tokens: [token])
      guard let next = current[pointer: step] else {
        let place = reached.tokens.isEmpty ? whole : "'\(reached)'"
        switch current {
        case .object:
          return "\(place) is an object without the key '\(token)'"
        case .array(let elements):
          let count = elements.count == 1 ? "1 element" : "\(elements.count) elements"
          return "\(place) is an array of \(count), none at '\(token)'"
        case .string: return "\(place) is a string"
        case .bool: return "\(place) is a Boolean"
        case .null: return "\(place) is null"
        case .int, .uint, .double: return "\(place) is a number"
        }
      }
      current = next
      reached = reached.appending(token)
    }
    return "it names nothing"
  }
}
