/// Where one encoded value goes: the `member`th member begun in container
/// `container` (counting from 0, in the order they were begun).
///
/// Containers are numbered in the order they were opened, for the whole
/// `encode` call; the root value is member 0 of container 0, a
/// pseudo-container that holds only it. The numbers mean the same in
/// streaming and in tree form, so containers and encoders made before a
/// hand-over keep working after it.
struct EncodingSlot: Hashable {
  var container: Int
  var member: Int

  static let root = EncodingSlot(container: 0, member: 0)
}
