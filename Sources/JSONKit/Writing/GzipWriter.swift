internal import CZlib

/// Compresses finished JSON text into one gzip member (RFC 1952) through
/// zlib, whose header carries no name and a modification time of zero, so
/// that equal text gives equal bytes.
enum GzipWriter {
  /// Appends `text` compressed at `level` to `output`.
  static func compress(_ text: UnsafeRawBufferPointer, level: Int, into output: inout ByteWriter) {
    let stream = DeflateStream(level: Int32(level))
    defer { stream.end() }
    let bound = stream.bound(text.count)
    output.ensureCapacity(bound)
    let written = stream.compress(
      text, into: UnsafeMutableRawBufferPointer(start: output.freeSpace, count: bound))
    output.commit(written)
  }
}

extension ByteWriter {
  /// The text written, compressed as `compression` asks: this writer itself
  /// when it asks for none.
  consuming func compressed(_ compression: JKCompression) -> ByteWriter {
    guard let level = compression.gzipLevel else { return self }
    var output = ByteWriter(capacity: count / 4 + 64)
    withBytes { GzipWriter.compress($0, level: level, into: &output) }
    return output
  }
}

/// zlib's deflater with a gzip wrapper, kept at one address (zlib checks
/// that its stream does not move between calls).
private struct DeflateStream {
  private let stream: UnsafeMutablePointer<z_stream>

  init(level: Int32) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // Window bits 15 plus 16: a gzip wrapper rather than zlib's own.
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    // Only a bad level or running out of memory fail here: the level is
    // checked where it is chosen, and allocation failure traps in Swift too.
    precondition(status == Z_OK, "zlib could not start deflating (status \(status))")
  }

  func end() {
    deflateEnd(stream)
    stream.deallocate()
  }

  /// zlib takes at most this many bytes at once (its counts are 32-bit).
  private static let maxStep = Int(UInt32.max)

  /// The most bytes compressing `count` bytes can take, header and trailer
  /// included: what zlib guarantees is enough to finish in one go.
  func bound(_ count: Int) -> Int {
    Int(deflateBound(stream, uLong(count)))
  }

  /// Compresses all of `text` into `output` and returns the compressed size.
  func compress(_ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
    var read = 0
    var written = 0
    let input = text.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
    while true {
      let given = min(text.count - read, Self.maxStep)
      let room = min(output.count - written, Self.maxStep)
      stream.pointee.next_in = input.map { ($0 + read).assumingMemoryBound(to: Bytef.self) }
      stream.pointee.avail_in = uInt(given)
      stream.pointee.next_out = (output.baseAddress! + written).assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = uInt(room)
      let flush = read + given == text.count ? Z_FINISH : Z_NO_FLUSH
      let status = deflate(stream, flush)
      read += given - Int(stream.pointee.avail_in)
      written += room - Int(stream.pointee.avail_out)
      if status == Z_STREAM_END { return written }
      // The output holds zlib's bound, so deflate always makes progress.
      precondition(status == Z_OK, "zlib failed deflating (status \(status))")
    }
  }
}
