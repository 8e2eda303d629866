import Foundation

/// How long the last output of each encoded type was, process-wide, so that
/// an encoder made for one call reserves as much room as one used many times.
///
/// A buffer that starts too small doubles its way up, and each new size is
/// fresh memory the system has to map; one sized from the type's last
/// output is written without a move. Types are told apart by their metadata
/// and by whether the output is pretty-printed, which roughly doubles it.
/// The table is small and direct-mapped: a type whose bucket another took
/// starts from the default again, which costs time, never a wrong byte.
final class OutputSizeHints: @unchecked Sendable {
  // Unchecked: `buckets` is only touched with `lock` held.
  private let lock = NSLock()
  private var buckets = [Bucket](
    repeating: Bucket(type: nil, isPretty: false, size: 0), count: bucketCount)
  /// A power of two, and a constant, so that a bucket's index is worked out
  /// without reading `buckets` outside the lock.
  private static let bucketCount = 64

  private struct Bucket {
    let type: ObjectIdentifier?
    let isPretty: Bool
    let size: Int
  }

  /// The table every encoder shares.
  static let shared = OutputSizeHints()

  /// The capacity to start with when nothing is known.
  static let defaultCapacity = 256

  private func index(_ type: ObjectIdentifier, isPretty: Bool) -> Int {
    // Metadata addresses are aligned, so their low bits say little.
    let bits = UInt(bitPattern: type)
    let mixed = (bits >> 4) ^ (bits >> 10) ^ (isPretty ? 1 : 0)
    return Int(mixed & UInt(Self.bucketCount - 1))
  }

  /// The capacity to reserve for encoding a value of `type`.
  func capacity(for type: Any.Type, isPretty: Bool) -> Int {
    let type = ObjectIdentifier(type)
    let index = index(type, isPretty: isPretty)
    lock.lock()
    let bucket = buckets[index]
    lock.unlock()
    guard bucket.type == type, bucket.isPretty == isPretty else { return Self.defaultCapacity }
    return bucket.size
  }

  /// Notes that a value of `type` was encoded in `size` bytes.
  func note(_ size: Int, for type: Any.Type, isPretty: Bool) {
    let type = ObjectIdentifier(type)
    let index = index(type, isPretty: isPretty)
    // A little more than the last size, so that a slightly longer output
    // does not double the buffer.
    let bucket = Bucket(
      type: type, isPretty: isPretty, size: max(Self.defaultCapacity, size + size / 8))
    lock.lock()
    buckets[index] = bucket
    lock.unlock()
  }
}
