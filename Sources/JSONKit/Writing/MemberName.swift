/// The name an object member is written under, after the key strategy, and
/// its written form when the process-wide ``EncodedKeyCache`` keeps it.
struct MemberName {
  /// The name when the cache does not keep it; empty when it does, so that
  /// passing a cached name around copies no string.
  let uncachedText: String
  /// The name's quoted bytes, fingerprint and sort prefix, made once per
  /// process; nil for a name written, and escaped, as it comes.
  let cached: UnsafeMutablePointer<EncodedKeyCache.Entry>?

  @inline(__always)
  init(_ string: String, cached: UnsafeMutablePointer<EncodedKeyCache.Entry>? = nil) {
    self.uncachedText = cached == nil ? string : ""
    self.cached = cached
  }

  /// The name kept in the cache as `entry`.
  @inline(__always)
  init(cached entry: UnsafeMutablePointer<EncodedKeyCache.Entry>) {
    uncachedText = ""
    cached = entry
  }

  /// The name.
  var string: String {
    if let cached { return cached.pointee.name }
    return uncachedText
  }
}
