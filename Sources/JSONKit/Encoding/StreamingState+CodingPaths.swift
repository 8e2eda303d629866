/// The coding paths streaming reports.
extension StreamingState: EncoderCodingPaths {
  // MARK: - Coding paths

  // Foundation's rule for the paths is stated in ``EncoderCodingPaths``.

  /// The coding path of the value in `slot`: that of its encoder; nil when
  /// only the tree knows it (the slot is not its container's last member,
  /// or its container is closed).
  func codingPath(of slot: EncodingSlot) -> [any CodingKey]? {
    guard let index = frameIndex(slot.container) else { return nil }
    guard index >= 1 else { return [] }
    let frame = frames[index]
    if slot.member == frame.count - 1 {
      return valuePath(key: lastMemberKey(of: frame), in: index)
    }
    guard !frame.isObject else { return nil }
    return valuePath(key: AnyCodingKey(intValue: slot.member), in: index)
  }

  // The paths of the open frames: a frame's container holds a member of
  // the one before it (see ``EncoderCodingPaths``).
  func pathParent(of level: Int) -> Int? { level > 0 ? level - 1 : nil }
  func pathIsNested(_ level: Int) -> Bool { frames[level].isNested }
  func pathKey(of level: Int) -> any CodingKey { lastMemberKey(of: frames[level - 1]) }

  /// The coding path of the container `container` itself; nil when it is
  /// closed.
  func codingPath(ofContainer container: Int) -> [any CodingKey]? {
    guard let level = frameIndex(container) else { return nil }
    return containerPath(level)
  }

  /// The coding path of the container of `frame`, just taken off the
  /// open frames as it closes: its parent's frame is the innermost.
  func codingPath(ofClosed frame: Frame) -> [any CodingKey] {
    guard frame.isNested, let parent = frames.last else {
      return codingPath(of: frame.parentSlot) ?? []
    }
    return (codingPath(ofContainer: parent.serial) ?? []) + [lastMemberKey(of: parent)]
  }

  /// The coding key of the last member begun in `frame`.
  private func lastMemberKey(of frame: Frame) -> any CodingKey {
    if frame.hasStoredKey, let index = frameIndex(frame.serial), let key = frameKeys[index] {
      return key
    }
    if frame.isObject, frame.count > 0 {
      let index = frame.memberBase + frame.count - 1
      // A cached name's entry was found by its key's string.
      return AnyCodingKey(stringValue: members[index].cached?.pointee.key ?? name(ofMember: index))
    }
    return AnyCodingKey(intValue: max(frame.count - 1, 0))
  }

  /// The coding key of the last member begun in `frames[index]`, when its
  /// name does not tell it: stored, or a conversion whose cache entry holds
  /// the key's string.
  func storedKey(ofFrame index: Int) -> (any CodingKey)? {
    let frame = frames[index]
    if frame.hasStoredKey { return frameKeys[index] }
    guard convertsToSnakeCase, frame.isObject, frame.count > 0,
      let entry = members[frame.memberBase + frame.count - 1].cached
    else { return nil }
    return AnyCodingKey(stringValue: entry.pointee.key)
  }

  /// The coding key of the member the container `serial` fills, when its
  /// name does not tell it (see ``storedKey(ofFrame:)``).
  func memberKey(ofContainer serial: Int) -> (any CodingKey)? {
    if let key = slotKeys[serial] { return key }
    guard serial < convertedKeys.count, let entry = convertedKeys[serial] else { return nil }
    return AnyCodingKey(stringValue: entry.pointee.key)
  }
}
