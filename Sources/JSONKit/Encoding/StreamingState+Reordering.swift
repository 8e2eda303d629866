/// Reordering an object's members in place when it closes: for sorted
/// keys, and for a key encoded twice (the last value wins, in the first
/// one's place). The records of the containers inside move with their
/// text, so that a hand-over still finds them.
extension StreamingState {
  /// Rewrites the members of the object being closed: later duplicates
  /// replace earlier ones (keeping the first one's place), and with sorted
  /// keys the members are ordered by the UTF-8 bytes of their keys. The
  /// records of the containers inside move with their text.
  mutating func reorderMembers(of frame: Frame, indentLevel level: Int) {
    let base = frame.memberBase
    // Members written in sorted order already stay where they are.
    if !frame.mayHaveDuplicates, isSorted(from: base) { return }
    let separatorLength = writer.memberSeparatorLength(indentLevel: level)
    let regionStart = members[base].start
    let regionEnd = writer.count
    let count = members.count - base
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(count)
    for index in base..<members.count {
      let end = index + 1 < members.count ? members[index + 1].start - separatorLength : regionEnd
      ranges.append(members[index].start..<end)
    }
    // Each output position's member (the last one of its key), and each
    // member's output position.
    var order: [Int]
    var positions = [Int](repeating: 0, count: count)
    if frame.mayHaveDuplicates {
      var entryOfMember: [Int] = []
      entryOfMember.reserveCapacity(count)
      var entryOfKey: [String: Int] = [:]
      order = []
      for (offset, member) in members[base...].enumerated() {
        if let entry = entryOfKey[member.key] {
          if !superEncoderSlots.isEmpty,
            superEncoderSlots.contains(EncodingSlot(container: frame.serial, member: order[entry]))
          {
            noteSuperEncoderKeyBegunAgain(member.key, inClosed: frame)
          }
          order[entry] = offset
          entryOfMember.append(entry)
        } else {
          entryOfKey[member.key] = order.count
          entryOfMember.append(order.count)
          order.append(offset)
        }
      }
      var entries = Array(order.indices)
      if writer.sortsKeys {
        entries.sort { memberPrecedes(base + order[$0], base + order[$1]) }
      }
      var positionOfEntry = [Int](repeating: 0, count: order.count)
      for (position, entry) in entries.enumerated() { positionOfEntry[entry] = position }
      for member in 0..<count { positions[member] = positionOfEntry[entryOfMember[member]] }
      order = entries.map { order[$0] }
    } else {
      order = Array(0..<count)
      order.sort { memberPrecedes(base + $0, base + $1) }
      for (position, member) in order.enumerated() { positions[member] = position }
    }
    // The region's text, in a buffer kept for the next object; the
    // separator before the second member is part of it.
    var region = reorderScratch
    reorderScratch = []
    region.removeAll(keepingCapacity: true)
    writer.withBytes { region.append(contentsOf: $0[regionStart..<regionEnd]) }
    let separator =
      (ranges[1].lowerBound - separatorLength - regionStart)..<(ranges[1].lowerBound - regionStart)
    writer.truncate(to: regionStart)
    let hasInnerContainers = frame.serial + 1 < containers.count
    var newStart = [Int](repeating: -1, count: hasInnerContainers ? count : 0)
    var isIdentity = order.count == count
    for (position, member) in order.enumerated() {
      if position > 0 { writer.append(region[separator]) }
      if hasInnerContainers { newStart[member] = writer.count }
      if member != position { isIdentity = false }
      let range = ranges[member]
      writer.append(region[(range.lowerBound - regionStart)..<(range.upperBound - regionStart)])
    }
    reorderScratch = region
    if !isIdentity {
      containers[frame.serial].reordering = reorderedPositions.count
      reorderedPositions.append(count)
      reorderedPositions.append(contentsOf: positions)
    }
    if hasInnerContainers { moveRecords(ofMembersFrom: base, from: ranges, to: newStart) }
  }

  /// Whether the members from `base` on are in sorted-keys order, each key
  /// after the one before (a key written twice is not).
  private func isSorted(from base: Int) -> Bool {
    guard writer.sortsKeys else { return false }
    var index = base &+ 1
    while index < members.count {
      if !memberPrecedes(index &- 1, index) { return false }
      index &+= 1
    }
    return true
  }

  /// Whether the key of `members[first]` comes before that of
  /// `members[second]` in sorted-keys order.
  @inline(__always)
  private func memberPrecedes(_ first: Int, _ second: Int) -> Bool {
    let firstPrefix = members[first].sortPrefix
    let secondPrefix = members[second].sortPrefix
    if firstPrefix != secondPrefix { return firstPrefix < secondPrefix }
    return ByteWriter.keyPrecedes(members[first].key, members[second].key)
  }

  /// Notes that the key `name` of the object `frame`, being closed, was
  /// begun again after a super encoder was asked for under it, unless an
  /// earlier conflict was noted.
  @inline(never)
  private func noteSuperEncoderKeyBegunAgain(_ name: String, inClosed frame: Frame) {
    guard conflict.pointee == nil else { return }
    conflict.pointee = .superEncoderKeyBegunAgain(
      name, codingPath: codingPath(ofClosed: frame))
  }

  /// Moves the records of the containers inside the members of the object
  /// being reordered (the members from `base` on) with their member's text:
  /// `ranges` are where the members were, `newStart` where each one is now
  /// (-1 for one dropped for a later duplicate).
  private mutating func moveRecords(
    ofMembersFrom base: Int, from ranges: [Range<Int>], to newStart: [Int]
  ) {
    for offset in ranges.indices {
      let shift = newStart[offset] - ranges[offset].lowerBound
      guard shift != 0 else { continue }
      let first = members[base + offset].firstContainer
      let end =
        base + offset + 1 < members.count
        ? members[base + offset + 1].firstContainer : containers.count
      for inner in first..<end where containers[inner].start >= 0 {
        containers[inner].start = newStart[offset] < 0 ? -1 : containers[inner].start + shift
      }
    }
  }
}
