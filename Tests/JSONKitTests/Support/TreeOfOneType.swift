/// A tree whose nodes are all of one type, so that each node's keyed
/// container is held while its children, of the same key type, are read or
/// written, and used again after them: decoding reads the children first.
struct TreeNode: Codable, Equatable {
  var name: String
  var children: [TreeNode]
  var after: Int

  enum CodingKeys: String, CodingKey { case name, children, after }

  init(name: String, children: [TreeNode], after: Int) {
    (self.name, self.children, self.after) = (name, children, after)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    children = try container.decode([TreeNode].self, forKey: .children)
    name = try container.decode(String.self, forKey: .name)
    after = try container.decode(Int.self, forKey: .after)
  }

  /// A tree `depth` levels deep below a node named `name`, three children
  /// to a node.
  static func tree(depth: Int, name: String = "r") -> TreeNode {
    TreeNode(
      name: name,
      children: depth == 0 ? [] : (0..<3).map { tree(depth: depth - 1, name: name + ".\($0)") },
      after: depth)
  }
}
