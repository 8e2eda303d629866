import Foundation
import Testing

@Suite("The articles' code is the code the documentation tests run")
struct ArticleSnippetSyncTests {
  @Test("Every Swift block of every article appears verbatim in a documentation test")
  func everyBlockHasACopy() throws {
    let sources = try ArticleSnippets.testSources()
    var checked = 0
    for article in try ArticleSnippets.articles() {
      let blocks = ArticleSnippets.blocks(
        in: try ArticleSnippets.text(of: article), article: article)
      for block in blocks where !block.isSkipped {
        checked += 1
        let copies = sources.filter { ArticleSnippets.contains($0.value, block.lines) }
        #expect(
          !copies.isEmpty,
          "\(article):\(block.line): this block is in no test under Tests/JSONKitTests/Documentation"
        )
      }
    }
    #expect(checked >= 20)
    #expect(try ArticleSnippets.articles().contains("Extensions/JKDecoder.md"))
  }

  @Test("Only the Hummingbird and Vapor article has blocks compiled elsewhere, each marked")
  func skippedBlocks() throws {
    var skipped: [String: Int] = [:]
    for article in try ArticleSnippets.articles() {
      let blocks = ArticleSnippets.blocks(
        in: try ArticleSnippets.text(of: article), article: article)
      skipped[article] = blocks.filter(\.isSkipped).count
    }
    #expect(skipped.filter { $0.value > 0 } == ["HummingbirdAndVapor.md": 2])
  }

  @Test("Each article with Swift code has its own test suite")
  func eachArticleHasASuite() throws {
    let sources = try ArticleSnippets.testSources()
    for article in try ArticleSnippets.articles() {
      let blocks = ArticleSnippets.blocks(
        in: try ArticleSnippets.text(of: article), article: article)
      guard blocks.contains(where: { !$0.isSkipped }) else { continue }
      let name =
        URL(fileURLWithPath: article).deletingPathExtension().lastPathComponent
        + "ArticleTests.swift"
      #expect(sources[name] != nil, "\(article) has Swift code but no \(name)")
    }
  }

  @Test("A block changed in the article no longer matches its copy")
  func changedBlockIsFound() throws {
    let sources = try ArticleSnippets.testSources()
    let block = try #require(
      ArticleSnippets.blocks(
        in: try ArticleSnippets.text(of: "GettingStarted.md"), article: "GettingStarted.md"
      ).first { $0.lines.contains { $0.contains("JKDecoder()") } })
    #expect(sources.values.contains { ArticleSnippets.contains($0, block.lines) })
    let line = try #require(block.lines.firstIndex { $0.contains("JKDecoder()") })
    var edited = block.lines
    edited[line] = edited[line].replacingOccurrences(of: "JKDecoder()", with: "JSONDecoder()")
    #expect(!sources.values.contains { ArticleSnippets.contains($0, edited) })
    var reindented = block.lines
    reindented[line] = " " + reindented[line]
    #expect(!sources.values.contains { ArticleSnippets.contains($0, reindented) })
  }

  @Test("Blocks are read from fences, and a skip marker applies to the next block only")
  func blockReading() {
    let text = """
      Text.

      <!-- snippet-check: skip — elsewhere -->
      ```swift
      let a = 1
      ```

      ```swift
      let b = 2

      let c = 3
      ```

      ```sh
      swift build
      ```
      """
    let blocks = ArticleSnippets.blocks(in: text, article: "A.md")
    #expect(blocks.map(\.lines) == [["let a = 1"], ["let b = 2", "", "let c = 3"]])
    #expect(blocks.map(\.isSkipped) == [true, false])
    #expect(blocks.map(\.line) == [4, 8])
  }
}
