/// How JSONKit's readers treat compressed input: whether they recognise gzip
/// and how large its inflated text may grow.
///
/// By default every reader (``JKDecoder``, ``JSONValue/init(parsing:options:maxDepth:decompression:)-(Data,_,_,_)``,
/// ``JKSerialization``) inflates input that begins with gzip's signature,
/// the bytes 1F 8B, before reading the JSON inside. No JSON text can begin
/// with those bytes, so the check changes nothing for plain JSON and costs
/// it one comparison of two bytes.
///
/// ```swift
/// let decoder = JKDecoder()
/// let user = try decoder.decode(User.self, from: gzippedData)  // inflated first
///
/// decoder.decompression = .gzip(maxInflatedSize: 64 << 20)  // at most 64 MiB of JSON
/// decoder.decompression = .disabled  // gzip is "not valid JSON" again
/// ```
///
/// Inflation trusts nothing the stream says about itself: it reads in
/// bounded steps into a buffer that grows in place as text comes out, stops
/// with an error as soon as the text would exceed ``maxInflatedSize`` (so a
/// small input that inflates to gigabytes uses no more memory than the
/// limit, and text up to the limit no more than its own size), and
/// checks each member's CRC-32 and length. Concatenated gzip members are
/// read as one text, as `gzip -d` reads them; anything else after the last
/// member is an error.
public struct JKDecompression: Sendable, Hashable {
  /// Whether input that begins with gzip's signature is inflated before it
  /// is read. When false such input is read as JSON, and is not JSON.
  public var recognizesGzip: Bool

  /// The largest inflated text accepted, in bytes; a stream that inflates to
  /// more is an error. Default: ``defaultMaxInflatedSize`` (1 GiB). Values
  /// below zero act as zero; `Int.max` bounds the text by memory alone.
  public var maxInflatedSize: Int

  /// The inflated size accepted unless told otherwise: 1 GiB.
  public static let defaultMaxInflatedSize = 1 << 30

  /// Creates a setting; with no arguments, the default ``gzip``.
  public init(recognizesGzip: Bool = true, maxInflatedSize: Int = defaultMaxInflatedSize) {
    self.recognizesGzip = recognizesGzip
    self.maxInflatedSize = maxInflatedSize
  }

  /// Recognises and inflates gzip, up to 1 GiB of text: the default.
  public static let gzip = JKDecompression()

  /// Recognises and inflates gzip, up to `maxInflatedSize` bytes of text.
  public static func gzip(maxInflatedSize: Int) -> JKDecompression {
    JKDecompression(maxInflatedSize: maxInflatedSize)
  }

  /// Reads every input as JSON text, compressed or not.
  public static let disabled = JKDecompression(recognizesGzip: false)
}
