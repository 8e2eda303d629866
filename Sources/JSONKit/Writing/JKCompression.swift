/// Whether JSONKit's writers compress their output, and how hard.
///
/// ```swift
/// let encoder = JKEncoder()
/// encoder.compression = .gzip  // zlib's default level, 6
/// let body = try encoder.encode(payload)  // a gzip file holding the JSON
///
/// let smallest = try value.jsonData(compression: .gzip(level: 9))
/// ```
///
/// The output is one gzip member (RFC 1952) with no file name and a
/// modification time of zero, so that equal JSON compresses to equal bytes.
/// JSONKit's readers, `gzip -d` and HTTP's `Content-Encoding: gzip` all read it.
public struct JKCompression: Sendable, Hashable {
  /// The gzip compression level, from 0 (stored, no compression) through 1
  /// (fastest) to 9 (smallest); `nil` when the output is not compressed.
  public let gzipLevel: Int?

  private init(gzipLevel: Int?) {
    self.gzipLevel = gzipLevel
  }

  /// Plain JSON text: the default.
  public static let none = JKCompression(gzipLevel: nil)

  /// gzip at zlib's default level, 6: a good balance of speed and size.
  public static let gzip = JKCompression(gzipLevel: 6)

  /// gzip at `level`, from 0 (stored) through 1 (fastest) to 9 (smallest).
  ///
  /// - Precondition: `level` is in `0...9`.
  public static func gzip(level: Int) -> JKCompression {
    precondition((0...9).contains(level), "gzip compression levels run from 0 to 9, not \(level)")
    return JKCompression(gzipLevel: level)
  }
}
