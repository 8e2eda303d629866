import Foundation

/// Writing to standard output and standard error.
enum Console {
  /// Writes `text` to standard error as it is (add the newline yourself).
  static func writeError(_ text: String) {
    var text = text
    text.withUTF8 { _ = SystemCalls.writeAll(UnsafeRawBufferPointer($0), to: 2) }
  }

  /// Writes `text` to standard output as it is, unbuffered, so that it
  /// interleaves correctly with direct byte output.
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { _ = SystemCalls.writeAll(UnsafeRawBufferPointer($0), to: 1) }
  }
}
