/// What a ``Scanner`` records as it validates: the scanner is generic over
/// it, and each conformance gets its own specialised copy of the scan, in
/// which every write the other would make folds away at compile time.
///
/// Validation and recording meet the same bytes in the same order, so a
/// document gets the same answer, and the same error at the same place,
/// whichever is recorded: only the writes differ.
protocol ScanRecording {
  /// Whether the tape, the arena of unescaped strings, the interned keys
  /// and the open objects' key ids are written.
  static var recordsTape: Bool { get }
}

/// Records everything a consumer of the ``Tape`` reads: the scan that
/// parsing and decoding run.
enum TapeRecording: ScanRecording {
  @inline(__always)
  static var recordsTape: Bool { true }
}

/// Records nothing: validation alone, whose memory is the stack of open
/// containers, bounded by the nesting limit whatever the input's size.
enum NoRecording: ScanRecording {
  @inline(__always)
  static var recordsTape: Bool { false }
}
