/// The name an object member is written under, after the key strategy, and
/// its written form when the process-wide ``EncodedKeyCache`` keeps it.
struct MemberName {
  let string: String
  /// The name's quoted bytes, fingerprint and sort prefix, made once per
  /// process; nil for a name written, and escaped, as it comes.
  let cached: UnsafeMutablePointer<EncodedKeyCache.Entry>?

  @inline(__always)
  init(_ string: String, cached: UnsafeMutablePointer<EncodedKeyCache.Entry>? = nil) {
    self.string = string
    self.cached = cached
  }
}
