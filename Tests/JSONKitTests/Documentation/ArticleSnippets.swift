import Foundation

/// The Swift code blocks of the DocC articles in `Sources/JSONKit/JSONKit.docc`,
/// and where the documentation tests keep their copies of them.
///
/// Each article's code runs in a suite of its own in this folder, which
/// asserts what the article says. A block is in sync when its lines appear
/// in those suites' sources in a row, as written, indented alike.
struct ArticleSnippets {
  /// One ```swift block of an article.
  struct Block {
    /// The article's file name.
    var article: String
    /// The one-based line of the opening fence.
    var line: Int
    /// The block's lines, without the fences and the fence's indentation.
    var lines: [String]
    /// Whether the article marks the block as compiled elsewhere.
    var isSkipped: Bool
  }

  /// What marks a block that cannot compile in this package: an HTML
  /// comment on the line before its fence, which DocC does not show.
  static let skipMarker = "<!-- snippet-check: skip"

  /// The repository's root.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `Sources/JSONKit/JSONKit.docc`.
  static let catalog = root.appendingPathComponent("Sources/JSONKit/JSONKit.docc")

  /// This folder, whose sources hold the copies.
  static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// The catalog's Markdown files (the landing page and the symbols' extension
  /// pages included), by path inside the catalog.
  static func articles() throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: catalog.path)
      .filter { $0.hasSuffix(".md") }.sorted()
  }

  /// The text of `article`.
  static func text(of article: String) throws -> String {
    try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
  }

  /// The Swift blocks of `text`, the article named `article`.
  static func blocks(in text: String, article: String) -> [Block] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      let fence = lines[index]
      let indentation = String(fence.prefix { $0 == " " })
      guard fence.dropFirst(indentation.count) == "```swift" else {
        index += 1
        continue
      }
      let previous = lines[..<index].last { !$0.allSatisfy(\.isWhitespace) } ?? ""
      var body: [String] = []
      index += 1
      while index < lines.count, lines[index].dropFirst(indentation.count) != "```" {
        body.append(
          lines[index].hasPrefix(indentation)
            ? String(lines[index].dropFirst(indentation.count)) : lines[index])
        index += 1
      }
      blocks.append(
        Block(
          article: article, line: index - body.count, lines: body,
          isSkipped: previous.trimmingCharacters(in: .whitespaces).hasPrefix(skipMarker)))
      index += 1
    }
    return blocks
  }

  /// The sources of the documentation tests, each as its lines.
  static func testSources() throws -> [String: [String]] {
    var sources: [String: [String]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: testsFolder.path)
    where name.hasSuffix(".swift") {
      let text = try String(
        contentsOf: testsFolder.appendingPathComponent(name), encoding: .utf8)
      sources[name] = text.split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
    }
    return sources
  }

  /// Whether `block` appears in `source`: its lines in a row, each behind
  /// the same run of spaces (blank lines may be blank).
  static func contains(_ source: [String], _ block: [String]) -> Bool {
    guard let first = block.first else { return true }
    for start in source.indices where source[start].hasSuffix(first) {
      let indentation = source[start].dropLast(first.count)
      guard indentation.allSatisfy({ $0 == " " }), start + block.count <= source.count else {
        continue
      }
      let matches = zip(block, source[start...]).allSatisfy { line, copy in
        line.isEmpty ? copy.allSatisfy(\.isWhitespace) : copy == indentation + line
      }
      if matches { return true }
    }
    return false
  }
}
