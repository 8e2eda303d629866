import Foundation

/// Input for Foundation's `JSONDecoder` reading JSON5 whose outcome depends
/// only on the bytes given.
///
/// With `allowsJSON5`, `JSONDecoder` reads a number it cannot take on its
/// fast path (one of many digits, a hexadecimal one beyond its type) with
/// `strtod`, over the number's bytes in place, unterminated. A number that
/// ends the input (a top-level number) is read on into whatever memory
/// follows the `Data`'s bytes; where that continues the number (a digit,
/// say), `strtod` stops past the end, `JSONDecoder` calls the number invalid
/// and then, finding nothing wrong in its bytes, stops the process on a
/// precondition failure (`0x10000000000000000` as a `UInt64`,
/// `12345678901234567.5` as a `Double`). Parity tests hand their JSON5 input
/// to Foundation with a NUL in memory just past its last byte, where `strtod`
/// stops.
enum FoundationInput {
  /// `bytes` as `Data` whose storage holds a NUL just past the last byte.
  static func data(_ bytes: some Sequence<UInt8>) -> Data {
    var storage = Data(bytes)
    let count = storage.count
    storage.append(0)
    return storage.prefix(count)
  }
}
