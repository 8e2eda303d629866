import Foundation

/// The benchmark corpora that JSONKit measures itself on.
///
/// The files live in `Benchmarks/Data` at the root of the package (their origin is
/// recorded in `Benchmarks/Data/SOURCES.md`). Three of them have typed models in
/// this module (``typed``); the others are parsed untyped only.
///
/// ```swift
/// guard let directory = Corpus.dataDirectory() else { fatalError("no Benchmarks/Data") }
/// let bytes = try Corpus.twitter.data(in: directory)
/// let search = try JSONDecoder().decode(Twitter.SearchResult.self, from: bytes)
/// ```
public enum Corpus: String, CaseIterable, Sendable {
  /// A 2014 Twitter search API response: snake_case keys, 64-bit ids, much text.
  case twitter
  /// A ticketing catalog: objects keyed by id strings, many small integers.
  case citmCatalog
  /// A GeoJSON polygon of Canada's border: almost all floating-point numbers.
  case canada
  /// GitHub's public event stream: untyped, and modelled by ``GitHubEvents`` for the
  /// value-type benchmarks (it has no key-order variants, so it is not ``typed``).
  case githubEvents
  /// A 3D mesh: long arrays of numbers (untyped).
  case mesh
  /// Google Summer of Code 2018 projects: long strings (untyped).
  case gsoc2018

  /// The relative path from the package root to the directory that holds the corpora.
  public static let dataDirectoryPath = "Benchmarks/Data"

  /// The file's name inside the data directory, such as `citm_catalog.json`.
  public var fileName: String {
    switch self {
    case .twitter: "twitter.json"
    case .citmCatalog: "citm_catalog.json"
    case .canada: "canada.json"
    case .githubEvents: "github_events.json"
    case .mesh: "mesh.json"
    case .gsoc2018: "gsoc-2018.json"
    }
  }

  /// Whether this module has a Codable model for the file: ``Twitter`` (and
  /// ``TwitterFromSnakeCase`` and ``TwitterApp``), ``CITM`` and ``Canada``.
  public var typed: Bool {
    switch self {
    case .twitter, .citmCatalog, .canada: true
    case .githubEvents, .mesh, .gsoc2018: false
    }
  }

  /// The URL of this corpus's file in `directory`, a directory returned by
  /// ``dataDirectory(searchingFrom:)`` or its siblings.
  public func url(in directory: URL) -> URL {
    directory.appendingPathComponent(fileName, isDirectory: false)
  }

  /// The bytes of this corpus's file in `directory`.
  public func data(in directory: URL) throws -> Data {
    try Data(contentsOf: url(in: directory))
  }

  /// Finds `Benchmarks/Data` in `start` or the nearest of its ancestors that has one.
  ///
  /// This works from the package root, from the `Benchmarks` package and from any
  /// directory below them. Returns `nil` when no ancestor holds the corpora.
  public static func dataDirectory(searchingFrom start: URL) -> URL? {
    // Path components rather than `deletingLastPathComponent()`, which on some
    // platforms turns `/` into `/..` instead of stopping.
    var components = start.standardizedFileURL.pathComponents
    while !components.isEmpty {
      let candidate = URL(
        fileURLWithPath: NSString.path(withComponents: components + [dataDirectoryPath]),
        isDirectory: true)
      if FileManager.default.fileExists(atPath: Corpus.twitter.url(in: candidate).path) {
        return candidate
      }
      components.removeLast()
    }
    return nil
  }

  /// Finds `Benchmarks/Data` by walking up from the current working directory.
  ///
  /// `swift run` and `swift package benchmark` run in the package's directory, so
  /// this finds the corpora from the package root and from the `Benchmarks` package.
  public static func dataDirectory() -> URL? {
    dataDirectory(
      searchingFrom: URL(
        fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
  }

  /// Finds `Benchmarks/Data` by walking up from the source file that calls this.
  ///
  /// Meant for tests, whose working directory is not always the package root:
  /// `Corpus.dataDirectory(nearSourceFile: #filePath)`.
  public static func dataDirectory(nearSourceFile filePath: StaticString) -> URL? {
    dataDirectory(
      searchingFrom: URL(fileURLWithPath: "\(filePath)", isDirectory: false)
        .deletingLastPathComponent())
  }
}
