/// What streaming notes, beyond its record of each container, so that a
/// hand-over can make a tree of the text it wrote (see ``TreeState``): the
/// empty objects that stand for values still to come, how reordered
/// objects' members moved, and the members super encoders were asked for.
/// Streaming writes it; only the hand-over and the check for a super
/// encoder's key begun again read it.
struct HandOverLog {
  /// Where each `{}` written for a member that got no value is in the
  /// output (see `StreamingState.writeEmptyObject()`), in ascending order:
  /// a hand-over reads these as values still to come (a super encoder's,
  /// used late), and every other empty object as a value written. Rarely
  /// any.
  var placeholderStarts: [Int] = []
  /// For each closed object whose members were reordered (sorted keys, or
  /// a key encoded twice), from its record's `reordering` on: the number of
  /// members begun, then the position in the output of each, in the order
  /// they were begun.
  var reorderedPositions: [Int] = []
  /// The coding keys of the members super encoders were asked for, when
  /// their names do not tell them: a super encoder may be used after later
  /// members were begun, when its frame no longer holds its key.
  var superEncoderKeys: [EncodingSlot: any CodingKey] = [:]
  /// The members of objects super encoders were asked for: the key of
  /// one may not be begun again (see
  /// `EncodingSession.Conflict.superEncoderKeyBegunAgain`), which is
  /// checked where an object's duplicate keys are resolved.
  var superEncoderSlots: Set<EncodingSlot> = []
}
