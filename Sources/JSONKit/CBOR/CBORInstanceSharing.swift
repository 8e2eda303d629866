import Foundation

/// The class instances one `encode` call with
/// ``JKCBOREncoder/Options/sharedReferences`` has met, shared by the
/// session of the call and the sessions its instances are encoded in.
///
/// Each instance is encoded once, where it is first met, into a session of
/// its own, and its bytes are written behind a mark; each later occurrence
/// is a mark alone. ``CBOROutputRewriter`` then turns the marks of the
/// instances met more than once into tags 28 and 29, numbered in output
/// order, and drops the others, so that nothing is tagged that is not
/// shared.
final class CBORInstanceSharing {
  /// The tag numbers of the marks: far above any tag JSONKit writes, and
  /// never in the output.
  enum Mark {
    /// Tag `first + n`: instance `n`'s bytes follow.
    static let first: UInt64 = 0xFFFF_FFFF_0000_0000
    /// Tag `reference + n`, then `null`: instance `n` again.
    static let reference: UInt64 = 0xFFFF_FFFE_0000_0000
    /// The lowest mark.
    static let lowest = reference
  }

  /// The number of each instance met, by identity.
  private var numbers: [ObjectIdentifier: Int] = [:]
  /// The instances met, kept alive until the encode ends, so that no
  /// address is reused by another instance meanwhile.
  private var instances: [AnyObject] = []
  /// How often each instance was met.
  private(set) var occurrences: [Int] = []
  /// Whether each instance is still being encoded.
  private var isOpen: [Bool] = []

  /// Whether any instance was met, so that the output holds marks.
  var hasMarks: Bool { !instances.isEmpty }

  /// What meeting `instance` means.
  enum Meeting {
    /// First met: encode it, as instance `number`, then call ``close(_:)``.
    case first(Int)
    /// Met before and encoded: write a reference to `number`.
    case again(Int)
    /// Met inside its own encoding: a cycle.
    case cycle
  }

  /// Notes that `instance` is to be written.
  func meet(_ instance: AnyObject) -> Meeting {
    let identity = ObjectIdentifier(instance)
    if let number = numbers[identity] {
      if isOpen[number] { return .cycle }
      occurrences[number] += 1
      return .again(number)
    }
    let number = instances.count
    numbers[identity] = number
    instances.append(instance)
    occurrences.append(1)
    isOpen.append(true)
    return .first(number)
  }

  /// Notes that instance `number` is encoded.
  func close(_ number: Int) {
    isOpen[number] = false
  }
}

extension CBOREncodingSession {
  /// The instance `value` is, when it is one and instances are shared.
  @inline(__always)
  func sharedInstance<T>(_ value: T) -> AnyObject? {
    guard sharing != nil, type(of: value) is AnyClass else { return nil }
    return value as AnyObject
  }

  /// Encodes `value`, the class instance `instance`, into `slot`: the
  /// first time encoded on its own behind a mark, later times as a mark
  /// alone; met inside itself, an error.
  @inline(never)
  func encodeShared<T: Encodable>(_ value: T, instance: AnyObject, into slot: CBORSlot) throws {
    guard let sharing else { return }
    switch sharing.meet(instance) {
    case .cycle:
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(of: slot),
          debugDescription: "Unable to encode \(T.self) to CBOR: the instance contains itself, "
            + "and CBOR's shared references cannot describe a value that refers to itself."))
    case .again(let number):
      writeItem(into: slot) { writer in
        writer.appendCBORHead(major: 6, CBORInstanceSharing.Mark.reference + UInt64(number))
        writer.append(0xF6)
      }
    case .first(let number):
      let nested = CBOREncodingSession(encodingInstanceIn: self, at: slot)
      defer { nested.dropSpareContainers() }
      try nested.encodeInstance(value)
      sharing.close(number)
      if let conflict = nested.conflict {
        noteConflict(at: conflict.codingPath, conflict.debugDescription)
      }
      if nested.isTooDeep { isTooDeep = true }
      let bytes = nested.instanceBytes()
      writeItem(into: slot) { writer in
        writer.appendCBORHead(major: 6, CBORInstanceSharing.Mark.first + UInt64(number))
        bytes.withBytes { writer.append($0.baseAddress!, count: $0.count) }
      }
    }
  }

  /// Encodes `value`, the instance this session was made for, as its
  /// top-level value, without meeting it again.
  private func encodeInstance<T: Encodable>(_ value: T) throws {
    if frameCount &- 1 > maxDepth { try checkDepth(of: .root, value) }
    encodingType = T.self
    try value.encode(to: CBORSlotEncoder(session: self, slot: .root))
  }

  /// The bytes of the instance encoded: an empty map when it wrote
  /// nothing, as a nested value that encodes nothing is written.
  private func instanceBytes() -> ByteWriter {
    if tree == nil {
      closeFrames(above: 0)
      if frames[0].awaitingValue { writer.append(0xA0) }
      var output = ByteWriter(capacity: 16)
      swap(&output, &writer)
      return output
    }
    var output = ByteWriter(capacity: writer.count + 16)
    tree?.write(into: &output)
    return output
  }
}
