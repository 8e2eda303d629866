/// How much of a stream is scanned onto one tape at a time: the records
/// (lines, or an array's elements) that have arrived whole are scanned one
/// after another, then decoded or built, as a batch (see
/// ``Scanner/scanRecords(_:_:within:into:configuration:roots:)``).
enum StreamBatch {
  /// The most records one batch holds.
  static let records = 64
  /// The bytes of records after which a batch takes no more (its last
  /// record may be of any length).
  static let bytes = 16 << 10
}
