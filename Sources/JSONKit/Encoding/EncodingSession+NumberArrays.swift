/// Arrays of numbers written in one go: no container, encoder or dynamic
/// call per element, which is most of the cost of coordinate lists and id
/// lists written through Codable's unkeyed containers. The text is the same
/// as the containers write: each element after the layout's separator.
extension EncodingSession {
  /// Writes `value` into `slot` when it is an array of `Double`s or `Int`s
  /// (or of such arrays, up to three levels); returns false for any other
  /// type, and for doubles that are not all finite, which the containers
  /// write (or refuse) by the non-conforming float strategy.
  @inline(__always)
  func encodeNumberArray<T>(_ value: T, into slot: EncodingSlot) -> Bool {
    if T.self == [Double].self { return write(unsafeBitCast(value, to: [Double].self), into: slot) }
    if T.self == [[Double]].self {
      return write(unsafeBitCast(value, to: [[Double]].self), into: slot)
    }
    if T.self == [[[Double]]].self {
      return write(unsafeBitCast(value, to: [[[Double]]].self), into: slot)
    }
    if T.self == [Int].self { return write(unsafeBitCast(value, to: [Int].self), into: slot) }
    return false
  }

  // Out of line, as every leaf `encode(_:into:byOwnEncoder:)` writes (see
  // there).
  @inline(never)
  private func write<Element: DirectlyWrittenNumber>(_ array: [Element], into slot: EncodingSlot)
    -> Bool
  {
    guard [Element].isWritable(array) else { return false }
    writeIndented(into: slot) { writer, indentLevel in
      [Element].write(array, into: &writer, indentLevel: indentLevel)
      if indentLevel + [Element].depth > maxDepth { noteTooDeep() }
    }
    return true
  }
}

/// A value an array of numbers holds that is written without Codable.
protocol DirectlyWrittenNumber {
  /// Whether every number in `value` can be written as JSON as it is.
  static func isWritable(_ value: Self) -> Bool
  /// Writes `value`, which starts on a line indented `indentLevel` levels.
  static func write(_ value: Self, into writer: inout ByteWriter, indentLevel: Int)
  /// How many arrays deep the value nests.
  static var depth: Int { get }
}

extension Double: DirectlyWrittenNumber {
  @inline(__always)
  static func isWritable(_ value: Double) -> Bool { value.isFinite }

  @inline(__always)
  static func write(_ value: Double, into writer: inout ByteWriter, indentLevel: Int) {
    writer.writeFinite(value)
  }

  static var depth: Int { 0 }
}

extension Int: DirectlyWrittenNumber {
  @inline(__always)
  static func isWritable(_ value: Int) -> Bool { true }

  @inline(__always)
  static func write(_ value: Int, into writer: inout ByteWriter, indentLevel: Int) {
    writer.write(integer: value)
  }

  static var depth: Int { 0 }
}

extension Array: DirectlyWrittenNumber where Element: DirectlyWrittenNumber {
  static func isWritable(_ value: [Element]) -> Bool {
    value.allSatisfy(Element.isWritable)
  }

  static func write(_ value: [Element], into writer: inout ByteWriter, indentLevel: Int) {
    writer.openContainer(isObject: false)
    for (index, element) in value.enumerated() {
      writer.beginMember(isFirst: index == 0, indentLevel: indentLevel + 1)
      Element.write(element, into: &writer, indentLevel: indentLevel + 1)
    }
    writer.closeContainer(isObject: false, isEmpty: value.isEmpty, indentLevel: indentLevel)
  }

  static var depth: Int { Element.depth + 1 }
}
