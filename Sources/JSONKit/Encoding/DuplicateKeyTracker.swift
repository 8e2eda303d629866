/// The fingerprints of the members of wide open objects, for telling
/// whether a key being begun may repeat an earlier one.
///
/// A frame's 128 fingerprint bits fill up after a few dozen members, and
/// scanning the members on every hit would make writing an object
/// quadratic in its size; from ``threshold`` members on, an object keeps its
/// members' fingerprints in a set here instead. The sets are kept apart
/// from the frames, innermost last, so that a frame stays cheap to copy and
/// destroy.
struct DuplicateKeyTracker {
  /// The sets of the open wide objects, outermost first.
  private var sets: [Set<UInt64>] = []

  /// The member count from which an object keeps its fingerprints in a set.
  static let threshold = 64

  /// Notes `fingerprint`, that of the member being begun in `frame`, the
  /// innermost open object and a wide one, whose earlier members are
  /// `members`; marks the frame when an earlier member may have the same
  /// key, and returns whether one may.
  mutating func note(
    _ fingerprint: UInt64, in frame: inout StreamingState.Frame,
    members: ArraySlice<StreamingState.Member>
  ) -> Bool {
    if !frame.hasFingerprintSet {
      var fingerprints = Set<UInt64>(minimumCapacity: 4 * Self.threshold)
      for member in members { fingerprints.insert(member.fingerprint) }
      sets.append(fingerprints)
      frame.hasFingerprintSet = true
    }
    if !sets[sets.count - 1].insert(fingerprint).inserted {
      frame.mayHaveDuplicates = true
      return true
    }
    return false
  }

  /// Lets go of the set of `frame`, which is closed or taken out, if it has
  /// one.
  @inline(__always)
  mutating func leave(_ frame: StreamingState.Frame) {
    if frame.hasFingerprintSet { sets.removeLast() }
  }
}
