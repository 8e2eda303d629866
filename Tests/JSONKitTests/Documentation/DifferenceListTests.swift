import Foundation
import Testing

/// README.md lists every intended difference from Foundation by its title;
/// the Switching from Foundation article gives each one's details and
/// reason. The two lists must name the same differences, in the same order.
@Suite("README and the Switching from Foundation article list the same differences")
struct DifferenceListTests {
  /// The bold titles that open the top-level bullets of `text`, from the line
  /// that starts `from` up to the next line that starts `upTo`.
  static func titles(in text: String, from: String, upTo: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(from) }) else { return [] }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(upTo) } ?? lines.endIndex
    return lines[start..<end].compactMap { line -> String? in
      guard line.hasPrefix("- **") else { return nil }
      let rest = line.dropFirst(4)
      guard let close = rest.range(of: "**") else { return nil }
      return String(rest[..<close.lowerBound])
        .trimmingCharacters(in: CharacterSet(charactersIn: ".:"))
    }
  }

  @Test("Every difference the article explains is listed in README, in the same order")
  func sameTitles() throws {
    let readme = try String(
      contentsOf: ArticleSnippets.root.appendingPathComponent("README.md"), encoding: .utf8)
    let article = try ArticleSnippets.text(of: "SwitchingFromFoundation.md")
    let listed = Self.titles(in: readme, from: "## Switching from Foundation", upTo: "## ")
    let explained = Self.titles(in: article, from: "## What differs, and why", upTo: "## ")
    #expect(explained.count >= 20)
    #expect(listed == explained)
  }

  @Test("A title missing from one list is noticed")
  func missingTitleIsNoticed() {
    let text = "## A\n- **One.** x\n- **Two** y\n## B\n- **Three.**\n"
    #expect(Self.titles(in: text, from: "## A", upTo: "## ") == ["One", "Two"])
  }
}
