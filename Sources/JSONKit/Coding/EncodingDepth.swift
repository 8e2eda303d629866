/// The ceiling on the encoders' `maxDepth`.
///
/// An encoder calls a model's `encode(to:)` once per level, so a recursive
/// model (a linked list, an indirect enum) uses the call stack in proportion
/// to its depth: about 1.8 KiB a level in a debug build and 0.6 KiB in a
/// release build for a keyed container per level. A `maxDepth` set higher
/// than this ceiling acts as the ceiling, so that such a model gets the
/// depth error instead of overflowing an 8 MiB stack. It bounds the depth,
/// not the frames: a model whose `encode(to:)` keeps large frames (dozens
/// of stored properties, in a debug build) fits fewer levels, and needs a
/// lower `maxDepth` on a small stack. The ceiling is twice
/// the deepest value a decoder reads, so that a value read at that depth
/// can be written back inside as many levels of a model.
enum EncodingDepth {
  /// The deepest nesting an encoder writes, whatever its `maxDepth`.
  static let limit = 2_048

  /// `maxDepth` as an encoder applies it: at most ``limit``.
  static func effective(_ maxDepth: Int) -> Int { min(maxDepth, limit) }
}
