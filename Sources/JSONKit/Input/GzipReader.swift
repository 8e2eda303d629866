internal import CZlib

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Inflates gzip input (RFC 1952) before it is scanned, trusting nothing the
/// stream says about itself.
///
/// ``GzipInflater`` reads the members; the output buffer starts small and
/// doubles in place as text comes out, never beyond the limit, so memory
/// follows the text actually produced, not the length the trailer claims,
/// and a stream that inflates past the limit costs no more than the limit.
/// Each member's CRC-32 and length are checked against what was inflated;
/// members follow one another until the input ends, and bytes after a
/// member that do not start another are an error.
enum GzipReader {
  /// Whether `bytes` begin with gzip's signature. No JSON text begins with
  /// 1F (a control character), so plain input pays this one comparison.
  @inline(__always)
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Runs `body` with the bytes to scan: `bytes` themselves, or, when
  /// `decompression` recognises gzip and they are gzip, their inflated text
  /// (freed when `body` returns). Inflation errors go through `wrap`, so
  /// that each API throws its own error type.
  @inline(__always)
  static func withInput<R, E: Error>(
    _ bytes: UnsafeRawBufferPointer, _ decompression: JKDecompression,
    wrap: (JKParseError) -> E, _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    guard decompression.recognizesGzip, isGzip(bytes) else { return try body(bytes) }
    return try withInflated(bytes, decompression, wrap: wrap, body)
  }

  @inline(never)
  private static func withInflated<R, E: Error>(
    _ bytes: UnsafeRawBufferPointer, _ decompression: JKDecompression,
    wrap: (JKParseError) -> E, _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    let inflated: InflatedText
    do {
      inflated = try inflate(bytes, limit: max(0, decompression.maxInflatedSize))
    } catch {
      throw wrap(error)
    }
    defer { inflated.deallocate() }
    return try body(inflated.bytes)
  }

  /// The text of every member of the gzip stream `input`, at most `limit`
  /// bytes; the caller deallocates it.
  ///
  /// The buffer grows with the text, and never beyond `limit` bytes: the
  /// inflater proves a stream too large without writing past the limit.
  static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(JKParseError)
    -> InflatedText
  {
    let limit = max(0, limit)
    let inflater = try GzipInflater(input, limit: limit)
    var output = InflatedText(capacity: min(limit, max(input.count * 4, 16 << 10)))
    do throws(JKParseError) {
      while !inflater.isFinished {
        if output.count == output.capacity {
          try output.grow(upTo: limit, offset: inflater.position)
        }
        output.count += try inflater.read(
          into: output.base + output.count, count: output.capacity - output.count)
      }
    } catch {
      output.deallocate()
      throw error
    }
    return output
  }

  // MARK: - Header and trailer

  // FTEXT (0x01) only hints that the data is text, and is ignored.
  private static let flagHeaderCRC: UInt8 = 0x02
  private static let flagExtra: UInt8 = 0x04
  private static let flagName: UInt8 = 0x08
  private static let flagComment: UInt8 = 0x10
  private static let reservedFlags: UInt8 = 0xE0

  /// Reads the member header at `start` (signature already matched or
  /// checked by the caller) and returns where its deflate data begins.
  static func readHeader(_ input: UnsafeRawBufferPointer, at start: Int)
    throws(JKParseError) -> Int
  {
    guard input.count - start >= 10 else {
      throw invalid("the gzip header ends early", at: input.count)
    }
    guard input[start + 2] == 8 else {
      throw invalid(
        "the gzip member uses compression method \(input[start + 2]), not deflate (8)",
        at: start + 2)
    }
    let flags = input[start + 3]
    guard flags & reservedFlags == 0 else {
      throw invalid("the gzip header sets reserved flag bits", at: start + 3)
    }
    var position = start + 10
    if flags & flagExtra != 0 {
      guard input.count - position >= 2 else {
        throw invalid("the gzip header's extra field ends early", at: input.count)
      }
      let length = Int(input[position]) | Int(input[position + 1]) << 8
      position += 2
      guard input.count - position >= length else {
        throw invalid("the gzip header's extra field ends early", at: input.count)
      }
      position += length
    }
    for (flag, field) in [(flagName, "file name"), (flagComment, "comment")]
    where flags & flag != 0 {
      guard let end = input[position...].firstIndex(of: 0) else {
        throw invalid("the gzip header's \(field) is never terminated", at: input.count)
      }
      position = end + 1
    }
    if flags & flagHeaderCRC != 0 {
      guard input.count - position >= 2 else {
        throw invalid("the gzip header's CRC ends early", at: input.count)
      }
      let stored = UInt32(input[position]) | UInt32(input[position + 1]) << 8
      let computed = crc32(of: UnsafeRawBufferPointer(rebasing: input[start..<position])) & 0xFFFF
      guard stored == computed else {
        throw invalid("the gzip header's CRC does not match the header", at: position)
      }
      position += 2
    }
    return position
  }

  /// Checks the trailer at `start` against the CRC-32 and length of the
  /// member's text and returns where the next member may begin.
  static func checkTrailer(
    _ input: UnsafeRawBufferPointer, at start: Int, crc: UInt32, count: Int
  ) throws(JKParseError) -> Int {
    guard input.count - start >= 8 else {
      throw invalid("the gzip member's trailer (CRC-32 and length) ends early", at: input.count)
    }
    guard littleEndian32(input, at: start) == crc else {
      throw invalid("the gzip member's CRC-32 does not match its inflated data", at: start)
    }
    guard littleEndian32(input, at: start + 4) == UInt32(truncatingIfNeeded: count) else {
      throw invalid(
        "the gzip member's length field does not match its inflated size (\(count) bytes)",
        at: start + 4)
    }
    return start + 8
  }

  private static func littleEndian32(_ input: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(input[offset + $1]) << (8 * $1) }
  }

  /// The CRC-32 of `bytes` following the bytes whose CRC-32 is `crc`.
  static func crc32(of bytes: UnsafeRawBufferPointer, after crc: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    return UInt32(
      CZlib.crc32_z(uLong(crc), base.assumingMemoryBound(to: Bytef.self), bytes.count))
  }

  static func invalid(_ message: String, at offset: Int) -> JKParseError {
    JKParseError(compressed: .invalidGzip, message, offset: offset)
  }
}

/// The growing buffer inflation writes into: `count` bytes of text in
/// `capacity` bytes of memory that the owner deallocates.
///
/// It grows by `realloc`, which moves a large block by remapping its pages
/// rather than copying them into a second block, so that memory stays
/// within the text's size instead of reaching one and a half or twice it
/// while a copy is made.
struct InflatedText {
  private(set) var base: UnsafeMutableRawPointer
  private(set) var capacity: Int
  var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    guard let base = malloc(self.capacity) else { fatalError("out of memory") }
    self.base = base
  }

  /// The text inflated so far.
  var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base, count: count)
  }

  /// Doubles the capacity, up to `ceiling` bytes; no change when it already
  /// is that large.
  ///
  /// - Throws: ``JKParseError/Kind/inflatedTooLarge`` at the compressed
  ///   `offset` when the system has no memory for the larger buffer.
  mutating func grow(upTo ceiling: Int, offset: Int) throws(JKParseError) {
    guard capacity < ceiling else { return }
    let newCapacity = capacity > ceiling / 2 ? ceiling : capacity * 2
    guard let newBase = realloc(base, newCapacity) else {
      throw JKParseError(
        compressed: .inflatedTooLarge,
        "there is no memory for \(newCapacity) bytes of the gzip input's inflated text",
        offset: offset)
    }
    base = newBase
    capacity = newCapacity
  }

  func deallocate() {
    free(base)
  }
}

/// Inflates a gzip stream held in memory a piece at a time, each piece into
/// a buffer the caller gives, so that the text need not be held whole:
/// ``GzipReader`` grows one buffer with it, and the `jsonkit` tool reads
/// JSON Lines from it a chunk at a time.
///
/// Members follow one another until the input ends. Each member's header is
/// read field by field, so that each problem has an exact offset; zlib
/// inflates the raw deflate data between header and trailer, in bounded
/// steps; the trailer's CRC-32 and length are checked against the text
/// actually inflated, never trusted. The text of all members together may
/// not exceed the limit: the one byte that proves a stream exceeds it is
/// inflated into a scratch byte, never into the caller's buffer, so a buffer
/// of exactly `limit` bytes holds any text accepted and no arithmetic
/// reaches past the limit (which may be `Int.max`).
package final class GzipInflater {
  private let input: UnsafeRawBufferPointer
  private let limit: Int
  /// zlib's inflater for raw deflate data, kept at one address (zlib checks
  /// that its stream does not move between calls).
  private let stream: UnsafeMutablePointer<z_stream>
  /// Where in the input reading goes on: the offset that errors name.
  package private(set) var position = 0
  /// Whether reading is inside a member's deflate data.
  private var isInMember = false
  /// The CRC-32 and length of the current member's text so far.
  private var memberCRC: UInt32 = 0
  private var memberCount = 0
  /// How many bytes of text all members have inflated to so far.
  package private(set) var inflatedCount = 0
  /// Whether the stream has been read to its end.
  package private(set) var isFinished = false
  /// The problem that stopped reading, thrown again by every later read.
  private var problem: JKParseError?

  /// An inflater for `input`, which must begin with gzip's signature and
  /// stay valid for the inflater's life, whose text may hold at most
  /// `limit` bytes (values below zero act as zero).
  package init(_ input: UnsafeRawBufferPointer, limit: Int) throws(JKParseError) {
    guard GzipReader.isGzip(input) else {
      throw GzipReader.invalid("the input does not begin with gzip's signature", at: 0)
    }
    self.input = input
    self.limit = max(0, limit)
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = inflateInit2_(
      stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      stream.deallocate()
      throw GzipReader.invalid("zlib could not start inflating (status \(status))", at: 0)
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
  }

  /// Inflates the next bytes of text into `destination`, at most `count`
  /// of them, and returns how many: fewer than `count` only once the stream
  /// has ended (``isFinished``), or when a problem follows the bytes
  /// returned, which the next call throws. Once the limit is reached, a
  /// call checks that the stream ends there, even with a `count` of zero.
  ///
  /// - Throws: ``JKParseError`` of kind ``JKParseError/Kind/invalidGzip``
  ///   for a stream that is not well-formed gzip, or
  ///   ``JKParseError/Kind/inflatedTooLarge`` for text beyond the limit;
  ///   either at an offset in the compressed input.
  package func read(into destination: UnsafeMutableRawPointer, count: Int) throws(JKParseError)
    -> Int
  {
    if let problem {
      throw problem
    }
    var written = 0
    do throws(JKParseError) {
      while !isFinished {
        if !isInMember {
          try startMember()
          continue
        }
        let allowed = limit - inflatedCount
        let produced: Int
        let ended: Bool
        if allowed > 0 {
          guard written < count else { break }
          let room = min(count - written, allowed)
          (produced, ended) = try step(into: destination + written, room: room)
          let text = UnsafeRawBufferPointer(start: destination + written, count: produced)
          memberCRC = GzipReader.crc32(of: text, after: memberCRC)
          memberCount += produced
          inflatedCount += produced
          written += produced
        } else {
          var scratch: UInt8 = 0
          (produced, ended) = try step(into: &scratch, room: 1)
          if produced > 0 {
            throw JKParseError(
              compressed: .inflatedTooLarge,
              "the gzip input inflates to more than the limit of \(limit) bytes",
              offset: position)
          }
        }
        if ended {
          position = try GzipReader.checkTrailer(
            input, at: position, crc: memberCRC, count: memberCount)
          isInMember = false
        }
      }
    } catch {
      problem = error
      if written == 0 { throw error }
    }
    return written
  }

  /// Reads the header of the member at ``position``, or notes the end of
  /// the stream when the input ends there.
  private func startMember() throws(JKParseError) {
    guard position < input.count else {
      isFinished = true
      return
    }
    guard GzipReader.isGzip(UnsafeRawBufferPointer(rebasing: input[position...])) else {
      throw GzipReader.invalid(
        "bytes after the last gzip member are not another member", at: position)
    }
    position = try GzipReader.readHeader(input, at: position)
    inflateReset(stream)
    isInMember = true
    memberCRC = 0
    memberCount = 0
  }

  /// zlib takes at most this many bytes at once (its counts are 32-bit).
  private static let maxStep = Int(UInt32.max)

  /// One call of zlib: inflates from ``position`` into the `room` bytes
  /// (at least one) at `destination`; returns how many bytes of text came
  /// out and whether the member's deflate data ended.
  private func step(into destination: UnsafeMutableRawPointer, room: Int) throws(JKParseError)
    -> (produced: Int, ended: Bool)
  {
    let given = min(input.count - position, Self.maxStep)
    let room = min(room, Self.maxStep)
    let base = input.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
    stream.pointee.next_in = base.map { ($0 + position).assumingMemoryBound(to: Bytef.self) }
    stream.pointee.avail_in = uInt(given)
    stream.pointee.next_out = destination.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = uInt(room)
    let status = inflate(stream, Z_NO_FLUSH)
    position += given - Int(stream.pointee.avail_in)
    let produced = room - Int(stream.pointee.avail_out)
    switch status {
    case Z_STREAM_END:
      return (produced, true)
    case Z_OK:
      return (produced, false)
    case Z_BUF_ERROR:
      // With room for output, zlib stops only for want of input.
      throw GzipReader.invalid("the gzip stream ends inside its compressed data", at: position)
    default:
      let reason = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
      throw GzipReader.invalid(
        "the gzip member's compressed data is corrupt (\(reason))", at: position)
    }
  }
}
