import Foundation

/// Paths of the files the tests read, found from this source file so that
/// `swift test` works from any directory.
enum Fixtures {
  /// `Tests/Fixtures`.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// `Tests/Fixtures/JSONTestSuite/<folder>`.
  static func suite(_ folder: String) -> URL {
    directory.appendingPathComponent("JSONTestSuite").appendingPathComponent(folder)
  }

  /// The bytes of `file` in JSONTestSuite's `folder`.
  static func bytes(_ folder: String, _ file: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: suite(folder).appendingPathComponent(file)))
  }
}
