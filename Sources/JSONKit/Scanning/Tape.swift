/// A read-only view of a scanned document: the tape's entries, the input and
/// arena their strings point into, and the interned keys.
///
/// It holds raw pointers, so it is valid only while the ``ScanContext`` it was
/// made from is neither rescanned nor freed, and while the input's bytes live.
struct Tape {
  let entries: UnsafePointer<TapeEntry>
  /// The document's entries; the scan's end entry (``TapeEntry/end``) is
  /// the one at `count`.
  let count: Int
  let input: UnsafeRawBufferPointer
  let arena: UnsafePointer<UInt8>
  /// The context whose key cache holds the keys, not retained: like the
  /// pointers, the view holds no reference that is counted, so copying it
  /// costs nothing, and a holder that keeps it between documents does not
  /// share the key cache's array (the next scan adds to it in place).
  private unowned(unsafe) let context: ScanContext

  /// Per key id, the key as a `String`.
  var keys: [String] { context.state.keys.strings }

  /// The view of what `context` holds after scanning `input`: one
  /// document, or the records of a batch scanned within `input` (see
  /// ``Scanner/run(_:into:configuration:within:appending:)``).
  init(context: ScanContext, input: UnsafeRawBufferPointer) {
    entries = UnsafePointer(context.state.tape.base)
    count = context.state.tape.count - 1
    arena = UnsafePointer(context.state.arena.base)
    self.context = context
    self.input = input
  }

  /// The same document read from `input`, a copy of its input.
  func reading(_ input: UnsafeRawBufferPointer) -> Tape {
    Tape(entries: entries, count: count, input: input, arena: arena, context: context)
  }

  private init(
    entries: UnsafePointer<TapeEntry>, count: Int, input: UnsafeRawBufferPointer,
    arena: UnsafePointer<UInt8>, context: ScanContext
  ) {
    self.entries = entries
    self.count = count
    self.input = input
    self.arena = arena
    self.context = context
  }

  @inline(__always)
  subscript(index: Int) -> TapeEntry {
    entries[index]
  }

  /// The index of the value after the one at `index` (skipping its children).
  @inline(__always)
  func indexAfter(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.isContainer ? entry.containerEnd : index + 1
  }

  /// The UTF-8 bytes of the string entry `entry`.
  @inline(__always)
  func stringBytes(_ entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
    if entry.flags & TapeEntry.inArena != 0 {
      let start = arena + Int(truncatingIfNeeded: entry.payload)
      let length = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
      return UnsafeBufferPointer(start: start + 8, count: Int(truncatingIfNeeded: length))
    }
    let start = input.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    return UnsafeBufferPointer(
      start: start + entry.offset + 1, count: Int(truncatingIfNeeded: entry.payload))
  }

  /// The string entry `entry` as a `String`.
  @inline(__always)
  func string(_ entry: TapeEntry) -> String {
    let bytes = stringBytes(entry)
    if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
      // The scanner knows whether a string in the input is ASCII; only
      // one unescaped into the arena needs its bytes read again.
      let flags = entry.flags
      let isASCII =
        flags & TapeEntry.inArena == 0
        ? flags & TapeEntry.isASCII != 0 : Tape.isASCII(bytes)
      return Tape.validatedString(bytes, isASCII: isASCII)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A `String` of bytes the scanner has already validated (or repaired), made
  /// without validating them a second time: that second pass was the largest
  /// single cost of decoding text-heavy documents such as twitter.json.
  @available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
  @inline(__always)
  static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
    // The flag must be right, not merely safe: a `String` marked non-ASCII
    // compares and indexes on slower paths for its whole life.
    String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
  }

  /// Whether every byte of `bytes` is below 0x80, eight at a time.
  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var position = 0
    var union: UInt64 = 0
    while position + 8 <= bytes.count {
      union |= raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
      position += 8
    }
    while position < bytes.count {
      union |= UInt64(base[position])
      position += 1
    }
    return union & 0x8080_8080_8080_8080 == 0
  }

  /// The key entry `entry` as a `String`.
  @inline(__always)
  func key(_ entry: TapeEntry) -> String {
    key(id: Int(truncatingIfNeeded: entry.payload))
  }

  /// The key with id `id` as a `String`.
  @inline(__always)
  func key(id: Int) -> String {
    context.state.keys.strings[id]
  }

  /// The text of the number entry `entry` as it appears in `input`.
  static func numberText(of entry: TapeEntry, in input: UnsafeRawBufferPointer)
    -> UnsafeRawBufferPointer
  {
    // The scanner accepted a number here, so the text follows JSON's
    // grammar; what comes after it (which `.permitTextAfterValidJSON`
    // ignores) may look like more of a number, as in `1.5.2` or `2+2`, and
    // must not be taken for part of it.
    let start = entry.offset
    if entry.flags & TapeEntry.json5Number != 0 {
      return UnsafeRawBufferPointer(
        rebasing: input[start..<JSON5NumberText.literalEnd(in: input, from: start)])
    }
    var end = start
    if end < input.count, input[end] == UInt8(ascii: "-") { end += 1 }
    end = digitsEnd(in: input, from: end)
    if end < input.count, input[end] == UInt8(ascii: ".") {
      end = digitsEnd(in: input, from: end + 1)
    }
    if end < input.count, input[end] | 0x20 == UInt8(ascii: "e") {
      end += 1
      if end < input.count, input[end] == UInt8(ascii: "+") || input[end] == UInt8(ascii: "-") {
        end += 1
      }
      end = digitsEnd(in: input, from: end)
    }
    return UnsafeRawBufferPointer(rebasing: input[start..<end])
  }

  private static func digitsEnd(in input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var end = start
    while end < input.count, input[end] &- UInt8(ascii: "0") < 10 { end += 1 }
    return end
  }
}

/// Access to the bytes of each input type JSONKit reads, without copying
/// where the container allows it.
enum InputBytes {
  /// The UTF-8 of `string`, contiguous (a bridged string is copied once).
  static func with<R>(_ string: String, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
  {
    var string = string
    return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
  }
}
