import Foundation

/// Everything a scan writes, kept between scans so that a warm scan allocates
/// nothing: the tape, the arena of unescaped strings, the container and key
/// stacks, and the key cache.
struct ScanState {
  var tape = GrowableBuffer<TapeEntry>(capacity: 1024)
  var arena = GrowableBuffer<UInt8>(capacity: 1024)
  /// Open containers: tape index in the low 32 bits, child count above it,
  /// and bit 63 set for objects.
  var stack = GrowableBuffer<UInt64>(capacity: 64)
  /// The key ids of the open objects, innermost last, for finding duplicates.
  var keyStack = GrowableBuffer<UInt32>(capacity: 64)
  /// Per key id: the serial number of the last object that held the key.
  var stamps: [UInt32] = []
  var serial: UInt32 = 0
  var keys = KeyInterner()
  /// How many times `keys` has been emptied: what a consumer derives from
  /// them per key id (the decoder's key names) holds while this stays the
  /// same, since the ids then mean other keys.
  private(set) var keyGeneration = 0
  /// Where a CBOR scan left shared values (tag 28) and the copies that
  /// references to them (tag 29) made, by the tape index of their first
  /// entry, in increasing order, with the number of the shared value: a
  /// class decoded at any of the indexes of one number is one instance.
  /// Empty for any input without tag 28.
  var sharedRoots: [(index: Int, number: Int)] = []

  /// Buffers larger than these are shrunk when the context is readied for
  /// its next document (``reset()``, as its pool takes it back), so that one
  /// huge document does not keep its memory alive in a cache. A tape of
  /// 4 MiB holds a document of a few megabytes (canada.json's 2.2 MB takes
  /// 167,188 entries): one shrunk for each of those grew again, copying
  /// itself at each doubling, for every document.
  static let keptTapeEntries = 1 << 18
  static let keptArenaBytes = 1 << 20

  /// Readies the state for a new document, keeping the key cache unless it
  /// has grown too large.
  mutating func reset() {
    tape.trim(to: Self.keptTapeEntries)
    arena.trim(to: Self.keptArenaBytes)
    stack.count = 0
    keyStack.count = 0
    if !sharedRoots.isEmpty { sharedRoots = [] }
    if keys.isOversized {
      keys.removeAll()
      keyGeneration &+= 1
      stamps = []
      serial = 0
    }
  }

  /// Whether ``reset()`` would free memory or forget keys: a context that
  /// a stream keeps from one record to the next goes back to its pool to be
  /// readied when this holds.
  var outgrewKept: Bool {
    tape.capacity > Self.keptTapeEntries || arena.capacity > Self.keptArenaBytes
      || keys.isOversized
  }

  func deallocate() {
    tape.deallocate()
    arena.deallocate()
    stack.deallocate()
    keyStack.deallocate()
  }
}

extension ScanState {
  /// Whether any canonical key id occurs twice among the last `count` on
  /// ``keyStack`` (an object's keys, when it closes): pairwise for small
  /// objects, with a stamp per key id for larger ones.
  mutating func hasRepeatedKeys(amongLast count: Int) -> Bool {
    let ids = keyStack.base + keyStack.count - count
    if count <= 8 {
      for i in 1..<count {
        for j in 0..<i where ids[i] == ids[j] { return true }
      }
      return false
    }
    if stamps.count < keys.count {
      stamps.append(contentsOf: repeatElement(0, count: keys.count - stamps.count))
    }
    if serial == UInt32.max {
      serial = 0
      for i in stamps.indices { stamps[i] = 0 }
    }
    serial += 1
    let serial = serial
    return stamps.withUnsafeMutableBufferPointer { stamps in
      var repeated = false
      for i in 0..<count {
        let id = Int(ids[i])
        if stamps[id] == serial { repeated = true }
        stamps[id] = serial
      }
      return repeated
    }
  }
}

/// The owner of a ``ScanState``. One scan at a time uses a context; a
/// ``ScanContextPool`` hands contexts out so that a warm one is reused.
final class ScanContext: PooledContext, @unchecked Sendable {
  // Unchecked: a context is only ever used by the one caller that took it
  // from a pool (or created it), until it is given back. The state lives
  // in memory of its own, whose accesses are unchecked for the same
  // reason: none overlaps another, and a stream of small records reaches
  // it several times per record.
  private let statePointer: UnsafeMutablePointer<ScanState>
  var poolGeneration = 0

  init() {
    statePointer = .allocate(capacity: 1)
    statePointer.initialize(to: ScanState())
  }

  /// What the scans write, read and changed in place.
  var state: ScanState {
    unsafeAddress { UnsafePointer(statePointer) }
    unsafeMutableAddress { statePointer }
  }

  func readyForReuse() {
    state.reset()
  }

  /// Where ``state`` is, for a scan to move it out while it runs and back
  /// when it ends (see
  /// ``Scanner/run(_:into:configuration:within:appending:)``): nothing else
  /// may use the state in between.
  var stateAddress: UnsafeMutablePointer<ScanState> { statePointer }

  deinit {
    statePointer.pointee.deallocate()
    statePointer.deinitialize(count: 1)
    statePointer.deallocate()
  }
}

/// What a ``ContextPool`` keeps: an object made empty, and readied for
/// reuse when given back.
protocol PooledContext: AnyObject {
  init()
  /// The ``ContextPool/removeAll()`` count of the pool it was taken from,
  /// when it was taken.
  var poolGeneration: Int { get set }
  /// Readies it for its next user, freeing what it should not keep idle.
  func readyForReuse()
  /// Lets go of what it keeps for its next user and that holds it, when
  /// its pool drops it.
  func retire()
}

extension PooledContext {
  func retire() {}
}

/// A small, thread-safe stock of contexts: scan contexts, or what a
/// consumer of scans keeps with one (the decoder's
/// ``DecodingContext``).
///
/// Taking a context is one lock and a pop, after which the scan runs without
/// any synchronization. Two threads scanning at once each get their own
/// context, so the caches never need a lock on the hot path.
final class ContextPool<Context: PooledContext>: @unchecked Sendable {
  // Unchecked, and without exclusivity checks: `contexts` and `generation`
  // are only touched with `lock` held.
  private let lock = NSLock()
  @exclusivity(unchecked) private var contexts: [Context] = []
  /// How many times ``removeAll()`` was called: a context taken before the
  /// last call is dropped when given back, so that it takes no cache made
  /// before the call into the pool.
  @exclusivity(unchecked) private var generation = 0
  /// More idle contexts than this are dropped when given back.
  private let limit: Int

  init(limit: Int) {
    self.limit = limit
  }

  /// A context ready for a new document: a warm one if any is idle.
  func take() -> Context {
    lock.lock()
    let idle = contexts.popLast()
    let generation = self.generation
    lock.unlock()
    let context = idle ?? Context()
    context.poolGeneration = generation
    return context
  }

  /// Returns a context that its user no longer references.
  ///
  /// It is readied for its next document here rather than when taken, so
  /// that the buffers of a huge document are freed as soon as it is done
  /// with, not kept by an idle context until the next one.
  func give(_ context: Context) {
    context.readyForReuse()
    lock.lock()
    let kept = contexts.count < limit && context.poolGeneration == generation
    if kept { contexts.append(context) }
    lock.unlock()
    if !kept { context.retire() }
  }

  /// Drops every idle context, and with them their key caches; contexts in
  /// use are dropped when given back.
  func removeAll() {
    lock.lock()
    let dropped = contexts
    contexts.removeAll()
    generation &+= 1
    lock.unlock()
    for context in dropped { context.retire() }
  }
}

/// The pool of bare scan contexts.
typealias ScanContextPool = ContextPool<ScanContext>

extension ContextPool where Context == ScanContext {
  /// The pool that `JSONValue` parsing and validation share, so that a
  /// parse made for one call finds warm buffers and key caches. Smaller
  /// than the decoders' (``DecodingContext/shared``), which servers use
  /// from many threads at once: the two together keep at most six idle
  /// contexts.
  static let shared = ScanContextPool(limit: 2)
}
