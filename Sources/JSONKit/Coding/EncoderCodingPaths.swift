/// Foundation's rule for the coding paths an encoder reports, stated once
/// for every encoder's way of holding its containers (JSON's and CBOR's,
/// streaming and in tree form).
///
/// A value's encoder has the path of the encoder whose container the value
/// is encoded into, plus the value's key. A nested container belongs to
/// the encoder of the container that made it, so the key a nested container
/// was made for is not in the paths of the values encoded into it
/// (`a.nestedContainer(forKey: "b").encode(x, forKey: "c")` gives `x` the
/// path of `a`'s encoder plus "c"). A container's own path, and the path a
/// custom key strategy sees, do include it.
///
/// The containers are given by number, with three questions about each:
/// `parent`, the container holding the member it is the value of (nil for
/// the root's pseudo-container, which holds the top-level value);
/// `isNested`, whether a container made it as a nested container; and
/// `key`, the coding key of the member it is the value of.
enum EncoderCodingPaths {
  /// The coding path of a value encoded under `key` into `container`.
  static func ofValue(
    key: any CodingKey, in container: Int, parent: (Int) -> Int?, isNested: (Int) -> Bool,
    key keyOf: (Int) -> any CodingKey
  ) -> [any CodingKey] {
    guard parent(container) != nil else { return [] }
    var reversedPath = [key]
    var owner = container
    while true {
      while isNested(owner), let up = parent(owner) { owner = up }
      // The top-level container's encoder is the root's: its path is empty.
      guard let up = parent(owner), parent(up) != nil else { break }
      reversedPath.append(keyOf(owner))
      owner = up
    }
    return reversedPath.reversed()
  }

  /// The coding path of `container` itself: that of the encoder that made
  /// it, plus the keys of the nested containers it is made through.
  static func ofContainer(
    _ container: Int, parent: (Int) -> Int?, isNested: (Int) -> Bool,
    key keyOf: (Int) -> any CodingKey
  ) -> [any CodingKey] {
    var nestedKeys: [any CodingKey] = []
    var node = container
    while isNested(node), let up = parent(node) {
      nestedKeys.append(keyOf(node))
      node = up
    }
    guard let up = parent(node), parent(up) != nil else { return nestedKeys.reversed() }
    return ofValue(key: keyOf(node), in: up, parent: parent, isNested: isNested, key: keyOf)
      + nestedKeys.reversed()
  }
}
