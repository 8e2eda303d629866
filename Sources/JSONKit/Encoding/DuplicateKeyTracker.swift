/// Tells whether a key being begun in an open object may repeat an earlier
/// member's key, from the keys' fingerprints, so that most members are
/// written without comparing their keys with any other.
///
/// A narrow object keeps one bit per fingerprint (its low 7 bits) in its
/// frame: a member whose bit is clear cannot repeat an earlier key. When
/// the bit is set, the earlier members' fingerprints are compared; only
/// equal fingerprints mark the object as one that may hold a repeated key,
/// which its closing then checks key by key.
///
/// The 128 bits fill up after a few dozen members, and comparing with every
/// member on each hit would make writing an object quadratic in its size;
/// from ``threshold`` members on, an object keeps its members' fingerprints
/// in a set here instead. The sets are kept apart from the frames,
/// innermost last, so that a frame stays cheap to copy and destroy.
struct DuplicateKeyTracker {
  /// The sets of the open wide objects, outermost first.
  private var sets: [Set<UInt64>] = []

  /// The member count from which an object keeps its fingerprints in a set.
  static let threshold = 64

  /// Notes `fingerprint`, that of the member being begun in `frame`, an
  /// open object whose earlier members are `members[frame.memberBase...]`;
  /// marks the frame when an earlier member may have the same key, and
  /// returns whether one may.
  @inline(__always)
  mutating func note(
    _ fingerprint: UInt64, in frame: inout StreamingState.Frame,
    members: borrowing MovingStack<StreamingState.Member>
  ) -> Bool {
    if frame.count >= Self.threshold {
      return noteInWideObject(fingerprint, in: &frame, members: members)
    }
    let bit = UInt64(1) << (fingerprint & 63)
    let seen =
      fingerprint & 64 == 0 ? frame.fingerprintBits.0 & bit : frame.fingerprintBits.1 & bit
    if seen == 0 {
      if fingerprint & 64 == 0 {
        frame.fingerprintBits.0 |= bit
      } else {
        frame.fingerprintBits.1 |= bit
      }
    } else if !frame.mayHaveDuplicates {
      var other = frame.memberBase
      while other < members.count {
        if members[other].fingerprint == fingerprint {
          frame.mayHaveDuplicates = true
          break
        }
        other += 1
      }
    }
    return seen != 0
  }

  /// ``note(_:in:members:)`` for an object of ``threshold`` members or
  /// more, whose earlier members are `members[frame.memberBase...]`.
  private mutating func noteInWideObject(
    _ fingerprint: UInt64, in frame: inout StreamingState.Frame,
    members: borrowing MovingStack<StreamingState.Member>
  ) -> Bool {
    if !frame.hasFingerprintSet {
      var fingerprints = Set<UInt64>(minimumCapacity: 4 * Self.threshold)
      for member in frame.memberBase..<members.count {
        fingerprints.insert(members[member].fingerprint)
      }
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
