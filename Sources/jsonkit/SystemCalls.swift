#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few POSIX calls the tool makes, with `errno` turned into a message.
enum SystemCalls {
  /// The text of the current `errno`, such as "No such file or directory".
  static func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }

  /// Whether `descriptor` is a terminal, so that a progress line makes sense there.
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Reads up to `count` bytes into `buffer`, retrying interrupted calls.
  /// Returns the number read (0 at the end), or `nil` with `errno` set.
  static func readBytes(
    from descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int
  ) -> Int? {
    while true {
      let result = read(descriptor, buffer, count)
      if result >= 0 { return result }
      if errno != EINTR { return nil }
    }
  }

  /// Writes every byte of `bytes` to `descriptor`, resuming after partial
  /// writes and interrupted calls. Returns the `errno` of a failure, or `nil`.
  static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard var next = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
      // Some systems refuse single writes above 2 GiB.
      let written = write(descriptor, next, min(remaining, 1 << 30))
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      next += written
      remaining -= written
    }
    return nil
  }
}
