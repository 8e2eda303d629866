import JSONKit
import Testing

@Suite("Parse options")
struct ParseOptionsTests {
  @Test func optionsAreDistinct() {
    let all: [JKParseOptions] = [
      .comments, .unicodeNewlines, .looseUnicode, .permitTextAfterValidJSON, .trailingCommas,
      .json5,
    ]
    #expect(Set(all.map(\.rawValue)).count == all.count)
    #expect(JKParseOptions().isEmpty)
  }
}
