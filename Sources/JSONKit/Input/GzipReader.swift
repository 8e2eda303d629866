internal import CZlib

/// Inflates gzip input (RFC 1952) before it is scanned, trusting nothing the
/// stream says about itself.
///
/// The member header is read here, field by field, so that each problem has
/// an exact offset; zlib inflates the raw deflate data between header and
/// trailer. The output buffer starts small and doubles as text comes out,
/// never beyond the limit plus one byte (the byte that proves the limit is
/// exceeded), so memory follows the text actually produced, not the length
/// the trailer claims. Each member's CRC-32 and length are checked against
/// what was inflated; members follow one another until the input ends, and
/// bytes after a member that do not start another are an error.
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
  static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(JKParseError)
    -> InflatedText
  {
    var output = InflatedText(capacity: min(limit + 1, max(input.count * 4, 16 << 10)))
    let stream = try RawInflateStream()
    defer { stream.end() }
    var position = 0
    do throws(JKParseError) {
      repeat {
        let dataStart = try readHeader(input, at: position)
        let memberStart = output.count
        let dataEnd = try stream.inflateMember(input, from: dataStart, into: &output, limit: limit)
        position = try checkTrailer(input, at: dataEnd, text: output.bytes, from: memberStart)
      } while position < input.count && isGzip(UnsafeRawBufferPointer(rebasing: input[position...]))
      if position < input.count {
        throw invalid("bytes after the last gzip member are not another member", at: position)
      }
    } catch {
      output.deallocate()
      throw error
    }
    return output
  }

  // MARK: - Header and trailer

  private static let flagText: UInt8 = 0x01
  private static let flagHeaderCRC: UInt8 = 0x02
  private static let flagExtra: UInt8 = 0x04
  private static let flagName: UInt8 = 0x08
  private static let flagComment: UInt8 = 0x10
  private static let reservedFlags: UInt8 = 0xE0

  /// Reads the member header at `start` (signature already matched or
  /// checked by the caller) and returns where its deflate data begins.
  private static func readHeader(_ input: UnsafeRawBufferPointer, at start: Int)
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

  /// Checks the trailer at `start` against the member's text
  /// (`text[memberStart...]`) and returns where the next member may begin.
  private static func checkTrailer(
    _ input: UnsafeRawBufferPointer, at start: Int, text: UnsafeRawBufferPointer,
    from memberStart: Int
  ) throws(JKParseError) -> Int {
    guard input.count - start >= 8 else {
      throw invalid("the gzip member's trailer (CRC-32 and length) ends early", at: input.count)
    }
    let member = UnsafeRawBufferPointer(rebasing: text[memberStart...])
    guard littleEndian32(input, at: start) == crc32(of: member) else {
      throw invalid("the gzip member's CRC-32 does not match its inflated data", at: start)
    }
    guard littleEndian32(input, at: start + 4) == UInt32(truncatingIfNeeded: member.count) else {
      throw invalid(
        "the gzip member's length field does not match its inflated size (\(member.count) bytes)",
        at: start + 4)
    }
    return start + 8
  }

  private static func littleEndian32(_ input: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(input[offset + $1]) << (8 * $1) }
  }

  private static func crc32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return 0 }
    return UInt32(
      CZlib.crc32_z(0, base.assumingMemoryBound(to: Bytef.self), bytes.count))
  }

  static func invalid(_ message: String, at offset: Int) -> JKParseError {
    JKParseError(compressed: .invalidGzip, message, offset: offset)
  }
}

/// The growing buffer inflation writes into: `count` bytes of text in
/// `capacity` bytes of memory that the owner deallocates.
struct InflatedText {
  private(set) var base: UnsafeMutableRawPointer
  private(set) var capacity: Int
  var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    self.base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
  }

  /// The text inflated so far.
  var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base, count: count)
  }

  /// Doubles the capacity, up to `ceiling` bytes; false when it already is
  /// that large.
  mutating func grow(upTo ceiling: Int) -> Bool {
    guard capacity < ceiling else { return false }
    let newCapacity = min(ceiling, capacity * 2)
    let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
    newBase.copyMemory(from: base, byteCount: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
    return true
  }

  func deallocate() {
    base.deallocate()
  }
}

/// zlib's inflater for raw deflate data, kept at one address (zlib checks
/// that its stream does not move between calls).
struct RawInflateStream {
  private let stream: UnsafeMutablePointer<z_stream>

  init() throws(JKParseError) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = inflateInit2_(
      stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      stream.deallocate()
      throw GzipReader.invalid("zlib could not start inflating (status \(status))", at: 0)
    }
  }

  func end() {
    inflateEnd(stream)
    stream.deallocate()
  }

  /// zlib takes at most this many bytes at once (its counts are 32-bit).
  private static let maxStep = Int(UInt32.max)

  /// Inflates the deflate data that begins at `start` into `output`, never
  /// letting `output` hold more than `limit + 1` bytes, and returns where the
  /// data ends (where the member's trailer begins).
  func inflateMember(
    _ input: UnsafeRawBufferPointer, from start: Int, into output: inout InflatedText, limit: Int
  ) throws(JKParseError) -> Int {
    inflateReset(stream)
    var position = start
    let base = input.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
    while true {
      if output.count == output.capacity, !output.grow(upTo: limit + 1) {
        throw JKParseError(
          compressed: .inflatedTooLarge,
          "the gzip input inflates to more than the limit of \(limit) bytes", offset: position)
      }
      let given = min(input.count - position, Self.maxStep)
      let room = min(output.capacity - output.count, Self.maxStep)
      stream.pointee.next_in = base.map { ($0 + position).assumingMemoryBound(to: Bytef.self) }
      stream.pointee.avail_in = uInt(given)
      stream.pointee.next_out = (output.base + output.count).assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = uInt(room)
      let status = inflate(stream, Z_NO_FLUSH)
      position += given - Int(stream.pointee.avail_in)
      output.count += room - Int(stream.pointee.avail_out)
      if output.count > limit {
        throw JKParseError(
          compressed: .inflatedTooLarge,
          "the gzip input inflates to more than the limit of \(limit) bytes", offset: position)
      }
      switch status {
      case Z_STREAM_END:
        return position
      case Z_OK:
        continue
      case Z_BUF_ERROR where output.count == output.capacity:
        continue  // the output is full: grow it
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
}
