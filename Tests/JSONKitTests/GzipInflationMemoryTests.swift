import Foundation
import Testing

@testable import JSONKit

/// Inflating takes no more memory than its limit: the buffer grows in
/// place, never holding an old copy of the text beside a new one, for a
/// bomb that stops at the limit as for text that reaches it exactly.
///
/// Each measurement runs in a process of its own, so that no other test's
/// memory is counted in the peak.
@Suite("Inflation memory stays within the limit")
struct GzipInflationMemoryTests {
  /// The limit the tests inflate to: large enough that a copy of the text
  /// stands out from everything else the process holds.
  static let limit = 128 << 20

  /// How much more than the limit the peak may grow: a tenth of the limit
  /// (the allocator's rounding and small blocks), and room for what the
  /// process allocates besides. Growing by copying reaches 1.5 to 2 times
  /// the limit.
  static let allowance = limit / 10 + (16 << 20)

  /// Whether peaks can be measured: on Linux, and not under a sanitizer,
  /// whose allocator copies on every `realloc` and keeps freed blocks.
  static let isMeasured = ResidentMemory.isAvailable && SanitizerScale.current == 1

  /// gzip members of 1 MiB of spaces each, `count` of them (made from a
  /// small text, so that the allocator has no large free block to reuse).
  static func members(_ count: Int) -> [UInt8] {
    let member = GzipStreams.member([UInt8](repeating: 0x20, count: 1 << 20), level: 9)
    return Array([[UInt8]](repeating: member, count: count).joined())
  }

  @Test(
    "A bomb stops at the limit having used no more memory than the limit",
    .enabled(if: GzipInflationMemoryTests.isMeasured))
  func aBombStaysWithinTheLimit() async throws {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let bomb = GzipInflationMemoryTests.members(192)  // 192 MiB of text
      try ResidentMemory.report("inflate") {
        do {
          try JSONValue.validate(
            Data(bomb), decompression: .gzip(maxInflatedSize: GzipInflationMemoryTests.limit))
          exit(2)
        } catch let error as JKParseError where error.kind == .inflatedTooLarge {}
      }
    }
    let growth = try #require(ResidentMemory.reports(in: result)["inflate"]).peak
    #expect(growth <= Self.limit + Self.allowance, "peak growth \(growth >> 20) MiB")
  }

  @Test(
    "Text exactly as long as the limit takes no more memory than the limit",
    .enabled(if: GzipInflationMemoryTests.isMeasured))
  func textAtTheLimitStaysWithinTheLimit() async throws {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      // 128 MiB of text, then an empty member, read with the buffer full.
      let stream = GzipInflationMemoryTests.members(128) + GzipStreams.member([UInt8]())
      try ResidentMemory.report("inflate") {
        try stream.withUnsafeBytes { bytes in
          let text = try GzipReader.inflate(bytes, limit: GzipInflationMemoryTests.limit)
          defer { text.deallocate() }
          guard text.count == GzipInflationMemoryTests.limit else { exit(2) }
        }
      }
    }
    let growth = try #require(ResidentMemory.reports(in: result)["inflate"]).peak
    #expect(growth <= Self.limit + Self.allowance, "peak growth \(growth >> 20) MiB")
  }
}
