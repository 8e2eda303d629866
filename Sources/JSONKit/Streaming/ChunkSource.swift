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
/// response's `bytes`), gathered into chunks that end after a byte that may
/// end a record, so that a record is delivered as soon as its last byte
/// arrives rather than when a chunk fills.
struct ByteSequenceSource<Base: AsyncSequence>: ChunkSource where Base.Element == UInt8 {
  var iterator: Base.AsyncIterator
  /// The most bytes gathered into one chunk.
  static var chunkSize: Int { 1 << 16 }

  mutating func read(into buffer: inout StreamBuffer) async throws -> Bool {
    var gathered = 0
    while gathered < Self.chunkSize {
      guard let byte = try await iterator.next() else { return gathered > 0 }
      buffer.append(byte)
      gathered += 1
      switch byte {
      case 0x0A, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return true
      default: continue
      }
    }
    return true
  }
}
