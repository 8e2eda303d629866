import Foundation
import JSONKit
import Testing

/// The same code run through Foundation's `JSONDecoder`/`JSONEncoder` and
/// through `JKDecoder`/`JKEncoder` in one process, with the outcomes
/// compared: the value, the output bytes (with `.sortedKeys`), the error's
/// case and its coding path with `intValue`s. Where JSONKit differs on
/// purpose, the test asserts that documented difference instead (README,
/// "Switching from Foundation").
///
/// The tests live in extensions of this suite, one file per concern.
@Suite("Foundation parity")
struct FoundationParityTests {}

/// A coding path as two paths can be compared: each key's string value and
/// int value.
struct ParityPath: Equatable, CustomStringConvertible {
  struct Key: Equatable, CustomStringConvertible {
    let string: String
    let int: Int?
    var description: String { int.map { "\(string)#\($0)" } ?? string }
  }

  let keys: [Key]

  init(_ path: [any CodingKey]) {
    keys = path.map { Key(string: $0.stringValue, int: $0.intValue) }
  }

  var description: String { "[" + keys.map(\.description).joined(separator: ", ") + "]" }
}
