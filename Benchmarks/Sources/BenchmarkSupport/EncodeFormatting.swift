import Foundation
import JSONKit

/// The output options the encoding benchmarks measure, the same for both libraries.
public enum EncodeFormatting: String, CaseIterable, Sendable {
  /// The default: compact, keys in the order the model encodes them.
  case compact
  /// `[.sortedKeys]`.
  case sorted
  /// `[.prettyPrinted, .sortedKeys]`.
  case prettySorted = "pretty-sorted"

  /// The suffix in row names: none for the default, else `-sorted`, `-pretty-sorted`.
  public var suffix: String { self == .compact ? "" : "-\(rawValue)" }

  /// Foundation's spelling of the options.
  public var foundation: JSONEncoder.OutputFormatting {
    switch self {
    case .compact: []
    case .sorted: [.sortedKeys]
    case .prettySorted: [.prettyPrinted, .sortedKeys]
    }
  }

  /// JSONKit's spelling of the options.
  public var jsonKit: JKOutputFormatting {
    switch self {
    case .compact: []
    case .sorted: [.sortedKeys]
    case .prettySorted: [.prettyPrinted, .sortedKeys]
    }
  }

  /// Whether the output is fixed by the options alone, so that the two libraries' bytes
  /// can be compared: Foundation on Linux orders unsorted keys differently on every run.
  public var sortsKeys: Bool { self != .compact }
}
