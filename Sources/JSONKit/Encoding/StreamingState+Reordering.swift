/// Reordering an object's members in place when it closes: for sorted
/// keys, and for a key encoded twice (the last value wins, in the first
/// one's place). The records of the containers inside, and the places of
/// the `{}` written for members without a value, move with their text, so
/// that a hand-over still finds them.
extension StreamingState {
  /// Rewrites the members of the object being closed: later duplicates
  /// replace earlier ones (keeping the first one's place), and with sorted
  /// keys the members are ordered by the UTF-8 bytes of their keys. The
  /// records of the containers inside, and the placeholders, move with
  /// their text.
  mutating func reorderMembers(of frame: Frame, indentLevel level: Int) {
    let base = frame.memberBase
    // Members written in sorted order already stay where they are.
    if !frame.mayHaveDuplicates, isSorted(from: base) { return }
    let count = members.count &- base
    // Each output position's member (the last one of its key), and each
    // member's output position, kept in `log.reorderedPositions` after the
    // member count when the order changes.
    let order: [Int]
    var spellers: [Int]? = nil
    let positionsStart = log.reorderedPositions.count &+ 1
    log.reorderedPositions.append(count)
    if frame.mayHaveDuplicates {
      let merged = orderKeepingLastOfEachKey(of: frame)
      order = merged.order
      spellers = merged.spellers
      log.reorderedPositions.append(contentsOf: merged.positions)
    } else {
      order = sortedOrder(ofMembersFrom: base)
      log.reorderedPositions.append(contentsOf: repeatElement(0, count: count))
      for (position, member) in order.enumerated() {
        log.reorderedPositions[positionsStart &+ member] = position
      }
    }
    if order.count == count && order.elementsEqual(0..<count) {
      // Nothing moves.
      log.reorderedPositions.removeSubrange((positionsStart &- 1)...)
      return
    }
    containers[frame.serial].reordering = positionsStart &- 1
    rewriteMembers(of: frame, in: order, spelledBy: spellers, indentLevel: level)
  }

  /// Writes the text of the members of `frame` again, in `order` (each
  /// output position's member; a member not in it is left out), and moves
  /// the records of the containers inside them, and the placeholders
  /// (`log.placeholderStarts`), with their text. A member
  /// whose key is written as another member spells it, `spellers` giving
  /// that member for each position, is written with that spelling.
  private mutating func rewriteMembers(
    of frame: Frame, in order: [Int], spelledBy spellers: [Int]?, indentLevel level: Int
  ) {
    let base = frame.memberBase
    let count = members.count &- base
    let separatorLength = writer.memberSeparatorLength(indentLevel: level)
    let regionStart = members[base].start
    // The region's text, in a buffer kept for the next object; the
    // separator after each member but the last is part of it.
    reorderScratch.truncate(to: 0)
    writer.withBytes { bytes in
      reorderScratch.append(bytes.baseAddress! + regionStart, count: bytes.count &- regionStart)
    }
    writer.truncate(to: regionStart)
    let hasInnerContainers = frame.serial &+ 1 < containers.count
    let hasPlaceholders = log.placeholderStarts.last.map { $0 >= regionStart } ?? false
    let movesText = hasInnerContainers || hasPlaceholders
    if movesText {
      newMemberStarts.removeAll(keepingCapacity: true)
      newMemberStarts.append(contentsOf: repeatElement(-1, count: count))
    }
    let regionLength = reorderScratch.count
    // Where member `offset`'s text starts and ends in the scratch buffer
    // (its end being the start of the separator after it).
    func textStart(_ offset: Int) -> Int { members[base &+ offset].start &- regionStart }
    func textEnd(_ offset: Int) -> Int {
      offset &+ 1 < count ? textStart(offset &+ 1) &- separatorLength : regionLength
    }
    let separatorStart = count > 1 ? textEnd(0) : 0
    reorderScratch.withBytes { region in
      let region = region.baseAddress!
      for (position, member) in order.enumerated() {
        if movesText { newMemberStarts[member] = writer.count }
        let isLast = position &+ 1 == order.count
        let start = textStart(member)
        if let speller = spellers?[position], speller != member,
          !name(ofMember: base &+ speller).utf8.elementsEqual(
            name(ofMember: base &+ member).utf8)
        {
          // The first member's key, spelled as it was (JSONEncoder keeps
          // the first of keys that `String` holds equal), with this value.
          let keptKey = writer.keyTextLength(name(ofMember: base &+ speller))
          let droppedKey = writer.keyTextLength(name(ofMember: base &+ member))
          if movesText { newMemberStarts[member] = writer.count &+ keptKey &- droppedKey }
          writer.append(region + textStart(speller), count: keptKey)
          writer.append(
            region + (start &+ droppedKey), count: textEnd(member) &- start &- droppedKey)
          if !isLast { writer.append(region + separatorStart, count: separatorLength) }
        } else if isLast || member &+ 1 == count {
          writer.append(region + start, count: textEnd(member) &- start)
          if !isLast { writer.append(region + separatorStart, count: separatorLength) }
        } else {
          // The member and the separator after it, in one copy.
          writer.append(region + start, count: textEnd(member) &+ separatorLength &- start)
        }
      }
    }
    if hasInnerContainers { moveRecords(ofMembersFrom: base) }
    if hasPlaceholders { movePlaceholders(ofMembersFrom: base) }
  }

  /// For an object that may have a key written twice (as `String` compares
  /// keys): each output position's member (the last one of each key, in the
  /// place of the first; sorted by key with sorted keys) and the member
  /// whose spelling of the key is written there (the first one), and each
  /// member's output position (a member left out takes that of the one that
  /// replaces it).
  private func orderKeepingLastOfEachKey(of frame: Frame)
    -> (order: [Int], spellers: [Int], positions: [Int])
  {
    let base = frame.memberBase
    let count = members.count &- base
    var entryOfMember: [Int] = []
    entryOfMember.reserveCapacity(count)
    var entryOfKey: [String: Int] = [:]
    var order: [Int] = []
    var spellers: [Int] = []
    for offset in 0..<count {
      let key = name(ofMember: base &+ offset)
      if let entry = entryOfKey[key] {
        if !log.superEncoderSlots.isEmpty,
          log.superEncoderSlots.contains(
            EncodingSlot(container: frame.serial, member: order[entry]))
        {
          noteSuperEncoderKeyBegunAgain(key, inClosed: frame)
        }
        order[entry] = offset
        entryOfMember.append(entry)
      } else {
        entryOfKey[key] = order.count
        entryOfMember.append(order.count)
        order.append(offset)
        spellers.append(offset)
      }
    }
    var entries = Array(order.indices)
    if writer.sortsKeys {
      entries.sort { memberPrecedes(base + spellers[$0], base + spellers[$1]) }
    }
    var positionOfEntry = [Int](repeating: 0, count: order.count)
    for (position, entry) in entries.enumerated() { positionOfEntry[entry] = position }
    let positions = (0..<count).map { positionOfEntry[entryOfMember[$0]] }
    return (entries.map { order[$0] }, entries.map { spellers[$0] }, positions)
  }

  /// The order of the members from `base` on (no two with the same key)
  /// by their keys: each output position's member. An object with the
  /// keys of one written before, in the same order, takes that one's
  /// order, once it is checked to put these keys in order; others are
  /// sorted.
  private mutating func sortedOrder(ofMembersFrom base: Int) -> [Int] {
    let count = members.count &- base
    var signature = UInt64(truncatingIfNeeded: count)
    for index in base..<members.count {
      signature = (signature &* 0x9E37_79B9_7F4A_7C15) ^ members[index].fingerprint
    }
    if let known = sortedOrders[signature], known.count == count, isInOrder(known, from: base) {
      return known
    }
    var order = Array(0..<count)
    order.sort { memberPrecedes(base &+ $0, base &+ $1) }
    if sortedOrders.count >= Self.sortedOrdersKept { sortedOrders.removeAll(keepingCapacity: true) }
    sortedOrders[signature] = order
    return order
  }

  /// How many objects' orders ``sortedOrder(ofMembersFrom:)`` keeps.
  private static var sortedOrdersKept: Int { 256 }

  /// Whether `order` (as many positions as there are members from `base`
  /// on, each less than that) lists those members with each key after the
  /// one before: then it is their one sorted order, since no position can
  /// appear twice.
  private func isInOrder(_ order: [Int], from base: Int) -> Bool {
    var position = 1
    while position < order.count {
      guard memberPrecedes(base &+ order[position &- 1], base &+ order[position]) else {
        return false
      }
      position &+= 1
    }
    return true
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
    if let firstEntry = members[first].cached, let secondEntry = members[second].cached {
      // A cached name is written between its quotes as it is (see
      // ``EncodedKeyCache/isCacheable(_:)``): its bytes are there.
      return EncodedKeyCache.namePrecedes(firstEntry, secondEntry)
    }
    return ByteWriter.keyPrecedes(name(ofMember: first), name(ofMember: second))
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
  /// each member's text started at its `start` and now starts at
  /// `newMemberStarts[offset]` (-1 for one left out for a later duplicate).
  private mutating func moveRecords(ofMembersFrom base: Int) {
    for offset in 0..<(members.count &- base) {
      let newStart = newMemberStarts[offset]
      let shift = newStart &- members[base &+ offset].start
      guard shift != 0 else { continue }
      let first = members[base &+ offset].firstContainer
      let end =
        base &+ offset &+ 1 < members.count
        ? members[base &+ offset &+ 1].firstContainer : containers.count
      for inner in first..<end where containers[inner].start >= 0 {
        containers[inner].start = newStart < 0 ? -1 : containers[inner].start &+ shift
      }
    }
  }

  /// Moves the places of the `{}` written inside the members of the object
  /// being reordered (the members from `base` on) with their member's text,
  /// as ``moveRecords(ofMembersFrom:)`` moves the records; those of a
  /// member left out go.
  private mutating func movePlaceholders(ofMembersFrom base: Int) {
    let regionStart = members[base].start
    var first = log.placeholderStarts.count
    while first > 0, log.placeholderStarts[first &- 1] >= regionStart { first &-= 1 }
    var moved: [Int] = []
    var member = base
    for start in log.placeholderStarts[first...] {
      while member &+ 1 < members.count, members[member &+ 1].start <= start { member &+= 1 }
      let newStart = newMemberStarts[member &- base]
      if newStart >= 0 { moved.append(start &+ newStart &- members[member].start) }
    }
    log.placeholderStarts.removeSubrange(first...)
    log.placeholderStarts.append(contentsOf: moved.sorted())
  }
}
