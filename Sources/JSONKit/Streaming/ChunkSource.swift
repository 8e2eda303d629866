/// Where a stream's bytes come from: each read appends what arrived next.
protocol ChunkSource {
  /// Appends the next bytes to `buffer`; `false` once the stream has ended.
  mutating func read(into buffer: inout StreamBuffer) async throws -> Bool
}

/// The bytes of an async sequence of chunks (`[UInt8]`, `Data`,
/// `ArraySlice<UInt8>`…), each copied once into the stream's buffer.
struct ChunkSequenceSource<Base: AsyncSequence>: ChunkSource
where Base.Element: Sequence, Base.Element.Element == UInt8 {
  var iterator: Base.AsyncIterator

  mutating func read(into buffer: inout StreamBuffer) async throws -> Bool {
    guard let chunk = try await iterator.next() else { return false }
    buffer.append(contentsOf: chunk)
    return true
  }
}

/// The bytes of an async sequence of single bytes (a file's or a
/// response's `bytes`), gathered by a filler that code inlined into the
/// caller's module made (see ``ByteGathering``): its loop over the bytes is
/// specialized for the caller's sequence, where a loop here would call the
/// sequence's iterator through its protocol for every byte.
struct ByteFillSource: ChunkSource {
  let fill: ByteGathering.Fill

  @inline(__always)
  mutating func read(into buffer: inout StreamBuffer) async throws -> Bool {
    let space = buffer.freeSpace(atLeast: ByteGathering.leastSpace)
    // At most a chunk's worth at a time, as from a sequence of chunks.
    let memory = UnsafeMutableRawBufferPointer(rebasing: space.prefix(ByteGathering.mostSpace))
    guard let count = try await fill(memory) else { return false }
    buffer.didAppend(count)
    return true
  }
}

/// Makes the fillers of ``ByteFillSource`` in inlinable code, so that the
/// compiler specializes each for the sequence it reads.
@usableFromInline
enum ByteGathering {
  /// Stores the next bytes of a stream in the memory given, up to its end
  /// or just after a byte that may end a record, and returns how many: so
  /// that a record is delivered as soon as its last byte arrives rather
  /// than when a buffer fills. `nil` once the stream has ended.
  @usableFromInline
  typealias Fill = (UnsafeMutableRawBufferPointer) async throws -> Int?

  /// The least free memory a filler is given.
  static let leastSpace = 4096
  /// The most memory a filler is given at once.
  static let mostSpace = 1 << 16

  /// What makes, for each iteration, the filler of the bytes of `bytes`:
  /// for `lines`, it returns after each line feed; otherwise after each
  /// byte that may end an element of the top-level array (see
  /// ``ElementEnds``).
  @inlinable
  static func filler<Bytes: AsyncSequence>(_ bytes: Bytes, lines: Bool) -> () -> Fill
  where Bytes.Element == UInt8 {
    {
      var iterator = bytes.makeAsyncIterator()
      var ends = ElementEnds()
      return { memory in
        guard let base = memory.baseAddress else { return 0 }
        var count = 0
        while count < memory.count {
          guard let byte = try await iterator.next() else { return count > 0 ? count : nil }
          base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
          count &+= 1
          if lines ? byte == 0x0A : ends.mayEnd(after: byte) { break }
        }
        return count
      }
    }
  }
}

/// Where an element of a top-level array may end, followed byte by byte:
/// after a string, object or array that the array holds directly, and at
/// a comma, line break or `]` of the array (which end a number or
/// literal). Strings and the depth of brackets are followed, so that a
/// comma or brace inside an element does not end a fill: a fill then
/// brings a whole element, and one framing of it. Once a `/` or `'` is
/// seen (a comment, or a JSON5 string, which it does not follow), every
/// comma, `]`, `}`, quote and line break ends a fill.
@usableFromInline
struct ElementEnds {
  @usableFromInline var depth = 0
  @usableFromInline var inString = false
  @usableFromInline var escaped = false
  @usableFromInline var followsNothing = false

  @inlinable
  init() {}

  /// Whether an element may end with `byte`, the next byte of the stream.
  @inlinable
  mutating func mayEnd(after byte: UInt8) -> Bool {
    if followsNothing {
      // Any byte that may end an element: a string's quote among them.
      switch byte {
      case 0x2C, 0x5D, 0x7D, 0x22, 0x27, 0x0A, 0x0D: return true
      default: return false
      }
    }
    if inString {
      if escaped {
        escaped = false
      } else if byte == 0x5C {
        escaped = true
      } else if byte == 0x22 {
        inString = false
        return depth <= 1
      }
      return false
    }
    switch byte {
    case 0x22:
      inString = true
    case 0x5B, 0x7B:
      depth &+= 1
    case 0x5D, 0x7D:
      depth &-= 1
      return depth <= 1
    case 0x2C, 0x0A, 0x0D:
      // A number or literal of the array ends at a comma or a line break.
      return depth <= 1
    case 0x2F, 0x27:
      followsNothing = true
    default:
      break
    }
    return false
  }
}
