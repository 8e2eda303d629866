import Foundation

/// Large output buffers kept, process-wide, for the next writer that needs
/// one of that size.
///
/// The C allocator maps a large buffer fresh from the system and unmaps it
/// when it is freed, so every page of a new one is a page fault on its first
/// write. Encoding a few megabytes that way spends more time in the kernel
/// than writing the bytes. A buffer that comes back here (when a writer is
/// done with it, or when the `Data` made from it is released) is still
/// mapped, and the next large output is written into it at full speed.
///
/// At most ``spareCount`` buffers, each at least ``smallestKept`` and at most
/// ``largestKept`` bytes, are held, so the memory kept is bounded whatever
/// was encoded before.
final class OutputBufferPool: @unchecked Sendable {
  // Unchecked: `spares` is only touched with `lock` held.
  private let lock = NSLock()
  private var spares: [Spare] = []

  private struct Spare {
    let bytes: UnsafeMutableRawPointer
    let capacity: Int
  }

  /// The pool every writer shares.
  static let shared = OutputBufferPool()

  /// The smallest buffer worth keeping: the C allocator serves smaller ones
  /// from memory it keeps mapped anyway.
  static let smallestKept = 128 * 1024
  /// The largest buffer kept.
  static let largestKept = 16 * 1024 * 1024
  /// How many buffers are kept at most: one per core on a small server.
  static let spareCount = 2

  /// A kept buffer of at least `capacity` bytes and at most four times as
  /// many (the smallest that fits), to be given back with
  /// ``recycle(_:capacity:)`` or freed; `nil` when no kept buffer fits. A
  /// much larger one stays kept: a short output would cut it down to its
  /// own size when it is done.
  func take(atLeast capacity: Int) -> (bytes: UnsafeMutableRawPointer, capacity: Int)? {
    guard capacity >= Self.smallestKept, capacity <= Self.largestKept else { return nil }
    lock.lock()
    defer { lock.unlock() }
    var best: Int?
    for index in spares.indices
    where spares[index].capacity >= capacity && spares[index].capacity / 4 <= capacity {
      if let chosen = best, spares[chosen].capacity <= spares[index].capacity { continue }
      best = index
    }
    guard let best else { return nil }
    let spare = spares.remove(at: best)
    return (spare.bytes, spare.capacity)
  }

  /// Takes back a buffer of `capacity` bytes allocated with `malloc`:
  /// kept when it is of a size worth keeping and there is room (a larger
  /// one pushes out the smallest kept), freed otherwise.
  func recycle(_ bytes: UnsafeMutableRawPointer, capacity: Int) {
    guard capacity >= Self.smallestKept, capacity <= Self.largestKept else {
      free(bytes)
      return
    }
    var freed: UnsafeMutableRawPointer? = bytes
    lock.lock()
    if spares.count < Self.spareCount {
      spares.append(Spare(bytes: bytes, capacity: capacity))
      freed = nil
    } else if let smallest = spares.indices.min(by: { spares[$0].capacity < spares[$1].capacity }),
      spares[smallest].capacity < capacity
    {
      freed = spares[smallest].bytes
      spares[smallest] = Spare(bytes: bytes, capacity: capacity)
    }
    lock.unlock()
    if let freed { free(freed) }
  }

  /// The capacities of the buffers kept now, for tests.
  var keptCapacities: [Int] {
    lock.lock()
    defer { lock.unlock() }
    return spares.map(\.capacity)
  }
}
