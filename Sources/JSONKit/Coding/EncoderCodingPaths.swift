/// Foundation's rule for the coding paths an encoder reports, stated once
/// for every encoder's way of holding its containers (JSON's and CBOR's,
/// streaming and in tree form), each of which conforms.
///
/// A value's encoder has the path of the encoder whose container the value
/// is encoded into, plus the value's key. A nested container belongs to
/// the encoder of the container that made it, so the key a nested container
/// was made for is not in the paths of the values encoded into it
/// (`a.nestedContainer(forKey: "b").encode(x, forKey: "c")` gives `x` the
/// path of `a`'s encoder plus "c"). A container's own path, and the path a
/// custom key strategy sees, do include it.
///
/// The containers are given by number (a frame's level while streaming, a
/// node in tree form), with three questions about each.
protocol EncoderCodingPaths: ~Copyable {
  /// The container holding the member `container` is the value of; nil for
  /// the root's pseudo-container, which holds the top-level value.
  func pathParent(of container: Int) -> Int?
  /// Whether a container made `container` as a nested container.
  func pathIsNested(_ container: Int) -> Bool
  /// The coding key of the member `container` is the value of.
  func pathKey(of container: Int) -> any CodingKey
}

extension EncoderCodingPaths where Self: ~Copyable {
  /// The coding path of a value encoded under `key` into `container`.
  func valuePath(key: any CodingKey, in container: Int) -> [any CodingKey] {
    guard pathParent(of: container) != nil else { return [] }
    var reversedPath = [key]
    var owner = container
    while true {
      while pathIsNested(owner), let up = pathParent(of: owner) { owner = up }
      // The top-level container's encoder is the root's: its path is empty.
      guard let up = pathParent(of: owner), pathParent(of: up) != nil else { break }
      reversedPath.append(pathKey(of: owner))
      owner = up
    }
    return reversedPath.reversed()
  }

  /// The coding path of `container` itself: that of the encoder that made
  /// it, plus the keys of the nested containers it is made through.
  func containerPath(_ container: Int) -> [any CodingKey] {
    var nestedKeys: [any CodingKey] = []
    var node = container
    while pathIsNested(node), let up = pathParent(of: node) {
      nestedKeys.append(pathKey(of: node))
      node = up
    }
    guard let up = pathParent(of: node), pathParent(of: up) != nil else {
      return nestedKeys.reversed()
    }
    return valuePath(key: pathKey(of: node), in: up) + nestedKeys.reversed()
  }
}
