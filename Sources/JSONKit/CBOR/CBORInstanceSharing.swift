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
    /// Met inside its own encoding, instance `number`: a cycle.
    case cycle(Int)
  }

  /// Notes that `instance` is to be written.
  func meet(_ instance: AnyObject) -> Meeting {
    let identity = ObjectIdentifier(instance)
    if let number = numbers[identity] {
      if isOpen[number] { return .cycle(number) }
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

  /// Notes that instance `number` is met again inside its own encoding,
  /// where a reference to it is written.
  func refer(to number: Int) {
    occurrences[number] += 1
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

  /// Notes that `instance`, the value `value`, is to be written into
  /// `slot`: its number when met for the first time, to be encoded by
  /// ``encodeInstance(_:number:into:)``; nil when met before, now written
  /// as a mark. Met inside itself, a mark too for a class that the decoder
  /// can make before its members (`JKCBORCyclicDecodable`); otherwise an
  /// error.
  @inline(never)
  func meetShared<T>(_ value: T, instance: AnyObject, in slot: CBORSlot) throws -> Int? {
    guard let sharing else { return nil }
    switch sharing.meet(instance) {
    case .first(let number):
      return number
    case .again(let number):
      writeReference(to: number, into: slot)
      return nil
    case .cycle(let number) where value is any JKCBORCyclicDecodable:
      sharing.refer(to: number)
      writeReference(to: number, into: slot)
      return nil
    case .cycle:
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(of: slot),
          debugDescription: "Unable to encode \(T.self) to CBOR: the instance contains itself, "
            + "and only a class that conforms to JKCBORCyclicDecodable can be decoded back "
            + "from a cycle."))
    }
  }

  /// Writes a reference to instance `number` into `slot`: its mark, then
  /// `null`.
  private func writeReference(to number: Int, into slot: CBORSlot) {
    writeItem(into: slot) { writer in
      writer.appendCBORHead(major: 6, CBORInstanceSharing.Mark.reference + UInt64(number))
      writer.append(0xF6)
    }
  }

  /// Encodes `value`, instance `number` met for the first time, into a
  /// session of its own, and writes its bytes into `slot` behind a mark.
  ///
  /// On the path of every level of a recursive model, so it keeps little
  /// on the stack: making the session and writing the bytes are calls.
  @inline(never)
  func encodeInstance<T: Encodable>(_ value: T, number: Int, into slot: CBORSlot) throws {
    let nested = CBOREncodingSession.forInstance(in: self, at: slot)
    defer { nested.dropSpareContainers() }
    nested.encodingType = T.self
    try value.encode(to: CBORSlotEncoder(session: nested, slot: .root))
    writeInstance(number, encodedBy: nested, into: slot)
  }

  /// A session for the shared instance written into `slot`.
  @inline(never)
  private static func forInstance(in parent: CBOREncodingSession, at slot: CBORSlot)
    -> CBOREncodingSession
  {
    CBOREncodingSession(encodingInstanceIn: parent, at: slot)
  }

  /// Writes what `nested` encoded for instance `number` into `slot`,
  /// behind its mark, and takes over what `nested` noted.
  @inline(never)
  private func writeInstance(
    _ number: Int, encodedBy nested: CBOREncodingSession, into slot: CBORSlot
  ) {
    sharing?.close(number)
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
