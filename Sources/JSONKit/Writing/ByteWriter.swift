#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The byte sink that all of JSONKit's output is written into.
///
/// One `malloc` allocation that doubles when full, by `realloc`, which moves
/// a large buffer by remapping its pages rather than copying them; the
/// finished bytes can become `Data` without a copy (``takeAllocation()``). The type is non-copyable so that
/// exactly one owner frees the memory, and so that an append costs a capacity
/// comparison and a store: no uniqueness check or bounds check per byte, as
/// `[UInt8].append` would pay. Callers that write a bounded number of bytes
/// call `ensureCapacity(_:)` once and then store through the unchecked
/// helpers.
///
/// The formatting options live here because every writer of JSON text (the
/// `JSONValue` writer and the Codable encoder) shares them with the string
/// and number writing in this folder.
struct ByteWriter: ~Copyable {
  private var base: UnsafeMutableRawPointer
  /// The number of bytes written so far.
  private(set) var count: Int
  private var capacity: Int

  /// Writes `/` as `\/`.
  let escapesSlashes: Bool
  /// Writes every non-ASCII scalar as `\uXXXX`.
  let escapesUnicode: Bool
  /// Writes line breaks, indentation and `" : "`.
  let isPrettyPrinted: Bool
  /// Orders object members by the UTF-8 bytes of their keys.
  let sortsKeys: Bool
  /// The first scalar JSONKit's reader rejects (U+0000 or a noncharacter)
  /// in a string written since ``takeUnreadableScalar()`` was last called:
  /// writing JSON that JSONKit could not read back is an error, which the
  /// writer's callers throw with a coding path.
  var unreadableScalar: Unicode.Scalar?

  init(options: JKOutputFormatting = [], capacity: Int = 256) {
    let capacity = max(capacity, 16)
    if let spare = OutputBufferPool.shared.take(atLeast: capacity) {
      self.base = spare.bytes
      self.capacity = spare.capacity
    } else {
      self.base = Self.allocate(capacity)
      self.capacity = capacity
    }
    self.count = 0
    self.escapesSlashes = !options.contains(.withoutEscapingSlashes)
    self.escapesUnicode = options.contains(.escapeUnicode)
    self.isPrettyPrinted = options.contains(.prettyPrinted)
    self.sortsKeys = options.contains(.sortedKeys)
  }

  deinit {
    Self.release(base, capacity: capacity)
  }

  private static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
    guard let memory = malloc(byteCount) else { fatalError("out of memory") }
    return memory
  }

  // MARK: - Capacity

  /// Makes room for at least `extra` more bytes.
  @inline(__always)
  mutating func ensureCapacity(_ extra: Int) {
    if capacity &- count < extra {
      grow(toFit: extra)
    }
  }

  @inline(never)
  private mutating func grow(toFit extra: Int) {
    let newCapacity = max(capacity * 2, count + extra)
    if let spare = OutputBufferPool.shared.take(atLeast: newCapacity) {
      spare.bytes.copyMemory(from: base, byteCount: count)
      Self.release(base, capacity: capacity)
      base = spare.bytes
      capacity = spare.capacity
      return
    }
    guard let newBase = realloc(base, newCapacity) else { fatalError("out of memory") }
    base = newBase
    capacity = newCapacity
  }

  // MARK: - Unchecked stores (the caller has ensured capacity)

  /// The first free byte. Valid until the next call that may grow the buffer.
  @inline(__always)
  var freeSpace: UnsafeMutableRawPointer {
    base + count
  }

  /// Records that `n` bytes were stored at `freeSpace`.
  @inline(__always)
  mutating func commit(_ n: Int) {
    count &+= n
  }

  @inline(__always)
  mutating func storeUnchecked(_ byte: UInt8) {
    (base + count).storeBytes(of: byte, as: UInt8.self)
    count &+= 1
  }

  // MARK: - Appending

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    ensureCapacity(1)
    storeUnchecked(byte)
  }

  @inline(__always)
  mutating func append(_ first: UInt8, _ second: UInt8) {
    ensureCapacity(2)
    storeUnchecked(first)
    storeUnchecked(second)
  }

  /// Appends the UTF-8 bytes of a static string such as `"null"`.
  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
  }

  /// Appends `byteCount` bytes starting at `source`.
  @inline(__always)
  mutating func append(_ source: UnsafeRawPointer, count byteCount: Int) {
    ensureCapacity(byteCount)
    if byteCount <= 16 {
      Self.copyShort(from: source, to: base + count, count: byteCount)
    } else {
      (base + count).copyMemory(from: source, byteCount: byteCount)
    }
    count &+= byteCount
  }

  /// Copies at most 16 bytes without calling `memcpy`, whose call costs more
  /// than the copy for the short keys and values JSON is full of. Two
  /// overlapping words cover any length from one word to two, and no load
  /// reaches outside `source[0..<count]`.
  @inline(__always)
  private static func copyShort(
    from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int
  ) {
    if count >= 8 {
      let head = source.loadUnaligned(as: UInt64.self)
      let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      destination.storeBytes(of: head, as: UInt64.self)
      destination.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 {
      let head = source.loadUnaligned(as: UInt32.self)
      let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      destination.storeBytes(of: head, as: UInt32.self)
      destination.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    } else {
      for offset in 0..<count {
        destination.storeBytes(
          of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset,
          as: UInt8.self)
      }
    }
  }

  /// Appends a line break and two spaces per level of indentation.
  mutating func appendNewline(indentLevel level: Int) {
    let spaces = 2 &* level
    // Spaces go in whole words, so up to seven more than asked for are
    // stored past the end; they lie within capacity and are overwritten.
    ensureCapacity(spaces &+ 8)
    storeUnchecked(UInt8(ascii: "\n"))
    var offset = 0
    while offset < spaces {
      (base + count).storeBytes(
        of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: offset, as: UInt64.self)
      offset &+= 8
    }
    count &+= spaces
  }

  // MARK: - Editing what was written

  /// Forgets everything written from `newCount` on.
  mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count)
    count = newCount
  }

  /// Appends bytes from an array.
  mutating func append(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { buffer in
      if let start = buffer.baseAddress { append(start, count: buffer.count) }
    }
  }

  /// Appends bytes from an array.
  mutating func append(_ bytes: [UInt8]) {
    append(bytes[...])
  }

  /// A 64-bit FNV-1a hash of the bytes written from `start` on, used to
  /// find equal keys cheaply (equal hashes are then compared in full).
  func fingerprint(from start: Int) -> UInt64 {
    Self.fingerprint(of: UnsafeRawBufferPointer(start: base + start, count: count &- start))
  }

  /// The fingerprint of the key `name`, just written quoted from `start`:
  /// that of the bytes written for an ASCII key, ``fingerprint(ofNonASCIIKey:)``
  /// for any other.
  @inline(__always)
  func fingerprint(ofKey name: String, quotedFrom start: Int) -> UInt64 {
    let (hash, bits) = Self.fingerprintAndBits(
      of: UnsafeRawBufferPointer(start: base + start, count: count &- start))
    // Non-ASCII text is written as it is unless it is escaped.
    let isASCII = escapesUnicode ? name.utf8.allSatisfy { $0 < 0x80 } : bits < 0x80
    return isASCII ? hash : fingerprint(ofNonASCIIKey: name)
  }

  /// The fingerprint of the key `name`, which holds a non-ASCII scalar, made
  /// so that keys Swift's `String` holds equal (canonically equivalent, as
  /// `"é"` and `"e\u{301}"`) have the same one, as JSONEncoder takes them
  /// for one key.
  ///
  /// Only three scalars are canonically equivalent to ASCII: U+212A KELVIN
  /// SIGN (`K`), U+037E GREEK QUESTION MARK (`;`) and U+1FEF GREEK VARIA
  /// (`` ` ``). A key of ASCII and those gets the fingerprint of its ASCII
  /// spelling as ``fingerprint(from:)`` computes it when that is written.
  /// Any other key equals no ASCII one, and `String`'s own hash, which
  /// holds equal strings alike, serves.
  @inline(never)
  func fingerprint(ofNonASCIIKey name: String) -> UInt64 {
    var ascii = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      switch scalar.value {
      case 0..<0x80: ascii.append(scalar)
      case 0x212A: ascii.append("K")
      case 0x037E: ascii.append(";")
      case 0x1FEF: ascii.append("`")
      default:
        var hasher = Hasher()
        hasher.combine(name)
        return UInt64(UInt(bitPattern: hasher.finalize()))
      }
    }
    var spelling = ByteWriter(options: options, capacity: ascii.count &+ 8)
    spelling.writeQuoted(String(ascii))
    return spelling.fingerprint(from: 0)
  }

  /// The output options this writer was made with.
  var options: JKOutputFormatting {
    var options: JKOutputFormatting = []
    if !escapesSlashes { options.insert(.withoutEscapingSlashes) }
    if escapesUnicode { options.insert(.escapeUnicode) }
    if isPrettyPrinted { options.insert(.prettyPrinted) }
    if sortsKeys { options.insert(.sortedKeys) }
    return options
  }

  /// The length of what this writer writes for the key `name` of a member:
  /// the quoted key and the separator after it.
  func keyTextLength(_ name: String) -> Int {
    var text = ByteWriter(options: options, capacity: name.utf8.count &+ 8)
    text.writeQuoted(name)
    text.writeKeySeparator()
    return text.count
  }

  /// The fingerprint of `bytes`, as ``fingerprint(from:)`` computes it for
  /// the same bytes written.
  static func fingerprint(of bytes: UnsafeRawBufferPointer) -> UInt64 {
    fingerprintAndBits(of: bytes).hash
  }

  /// The fingerprint of `bytes` and the bits set in any of them.
  @inline(__always)
  private static func fingerprintAndBits(of bytes: UnsafeRawBufferPointer)
    -> (hash: UInt64, bits: UInt8)
  {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var bits: UInt8 = 0
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      bits |= byte
    }
    return (hash, bits)
  }

  /// The first eight UTF-8 bytes of the key `name`, whose quoted text was
  /// just written from `start`, as a big-endian number padded with zeros.
  ///
  /// Of two keys whose prefixes differ, the one with the smaller prefix
  /// comes first in sorted-keys order (a key that is a prefix of the other
  /// is padded with zeros, which sort first); equal prefixes say nothing,
  /// and the keys are then compared in full.
  func sortPrefix(ofKeyQuotedAt start: Int, name: String) -> UInt64 {
    let length = count &- start &- 2
    guard length == name.utf8.count, count >= 9 else {
      // Escaped, or too near the start to load a word: byte by byte.
      var prefix: UInt64 = 0
      for (index, byte) in name.utf8.prefix(8).enumerated() {
        prefix |= UInt64(byte) << (56 &- 8 &* UInt64(index))
      }
      return prefix
    }
    // Written as it is: the key's bytes lie just before the closing quote.
    if length >= 8 {
      return UInt64(
        bigEndian: base.loadUnaligned(fromByteOffset: start &+ 1, as: UInt64.self))
    }
    guard length > 0 else { return 0 }
    // The word that ends with the closing quote: the key fills the `length`
    // bytes before it.
    let word = UInt64(
      bigEndian: base.loadUnaligned(fromByteOffset: count &- 9, as: UInt64.self))
    return word << (8 &* UInt64(8 &- length))
  }

  // MARK: - Finishing

  /// Calls `body` with the bytes written so far.
  func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The buffer, its capacity and the number of bytes written into it, to
  /// be released with ``release(_:capacity:)``. The buffer is cut down to
  /// what was written when that saves more than an eighth of it.
  consuming func takeAllocation() -> (bytes: UnsafeMutableRawPointer, capacity: Int, count: Int) {
    var bytes = base
    var capacity = self.capacity
    if capacity &- count > capacity / 8, let smaller = realloc(base, max(count, 1)) {
      bytes = smaller
      capacity = max(count, 1)
    }
    let count = self.count
    discard self
    return (bytes, capacity, count)
  }

  /// Releases a buffer from ``takeAllocation()``: a large one goes back to
  /// the ``OutputBufferPool`` for the next output, a small one is freed.
  static func release(_ bytes: UnsafeMutableRawPointer, capacity: Int) {
    if capacity >= OutputBufferPool.smallestKept {
      OutputBufferPool.shared.recycle(bytes, capacity: capacity)
    } else {
      free(bytes)
    }
  }

  /// The bytes written, as an array.
  consuming func finishBytes() -> [UInt8] {
    withBytes { Array($0) }
  }

  /// The bytes written, as a string. JSONKit only writes valid UTF-8.
  consuming func finishString() -> String {
    withBytes { String(decoding: $0, as: UTF8.self) }
  }
}
