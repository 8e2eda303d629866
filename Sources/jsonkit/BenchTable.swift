import Foundation

/// The table `jsonkit bench` prints, row by row as measurements finish.
///
/// ```
///                               ------ JSONKit ------   ----- Foundation ----
///                                   time       MB/s         time       MB/s     JK/F
/// twitter.json (631.5 kB)
///   parse                        1.02 ms      619.1      4.51 ms      140.0    4.42×
/// ```
struct BenchTable {
  /// One side of a row: a median time and the bytes it processed, or why it failed.
  enum Cell {
    /// The median time of one run and the bytes it read or wrote.
    case measured(median: Duration, bytes: Int)
    /// The work threw.
    case failed
  }

  private static let labelWidth = 24
  private static let timeWidth = 11
  private static let rateWidth = 10
  private static let ratioWidth = 9

  /// Every JK/F ratio printed, for the geometric mean at the end.
  private(set) var ratios: [Double] = []

  /// The column headings.
  static var heading: String {
    let jsonKit = " JSONKit ".centered(in: timeWidth + rateWidth, padding: "-")
    let foundation = " Foundation ".centered(in: timeWidth + rateWidth, padding: "-")
    let spacer = String(repeating: " ", count: labelWidth)
    return spacer + jsonKit + "  " + foundation + "\n" + spacer
      + "time".leftPadded(to: timeWidth) + "MB/s".leftPadded(to: rateWidth)
      + "time".leftPadded(to: timeWidth + 2) + "MB/s".leftPadded(to: rateWidth)
      + "JK/F".leftPadded(to: ratioWidth) + "\n"
  }

  /// The line that introduces a file's rows.
  static func fileLine(_ name: String, size: Int) -> String {
    "\(name) (\(formatSize(size)))\n"
  }

  /// The line for one task, with the JSONKit/Foundation speed ratio.
  mutating func row(_ task: String, jsonKit: Cell, foundation: Cell) -> String {
    var line = "  \(task)".rightPadded(to: Self.labelWidth)
    line += Self.cells(jsonKit) + "  " + Self.cells(foundation)
    if case .measured(let fast, _) = jsonKit, case .measured(let slow, _) = foundation,
      fast > .zero
    {
      let ratio = slow / fast
      ratios.append(ratio)
      line += String(format: "%.2f×", ratio).leftPadded(to: Self.ratioWidth)
    }
    return line + "\n"
  }

  /// The closing line: the geometric mean of all ratios.
  var summary: String {
    guard !ratios.isEmpty else { return "" }
    let mean = exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
    return String(
      format: "\nGeometric mean of JK/F over %d measurements: %.2f×\n", ratios.count, mean)
  }

  private static func cells(_ cell: Cell) -> String {
    switch cell {
    case .measured(let median, let bytes):
      let seconds = median.seconds
      let rate = seconds > 0 ? String(format: "%.1f", Double(bytes) / seconds / 1e6) : "-"
      return formatTime(seconds).leftPadded(to: timeWidth) + rate.leftPadded(to: rateWidth)
    case .failed:
      return "failed".leftPadded(to: timeWidth) + "".leftPadded(to: rateWidth)
    }
  }

  /// A time with three significant digits in a unit that suits it.
  static func formatTime(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
    case ..<1: String(format: "%.2f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
  }

  /// A size in decimal units (1 kB = 1000 bytes), as MB/s counts them.
  static func formatSize(_ bytes: Int) -> String {
    switch bytes {
    case ..<1000: "\(bytes) B"
    case ..<1_000_000: String(format: "%.1f kB", Double(bytes) / 1e3)
    default: String(format: "%.1f MB", Double(bytes) / 1e6)
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

extension String {
  /// The string with spaces before it, to fill `width` characters.
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }

  /// The string with spaces after it, to fill `width` characters.
  func rightPadded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }

  /// The string in the middle of `width` characters of `padding`.
  func centered(in width: Int, padding: Character) -> String {
    let left = max(0, width - count) / 2
    let right = max(0, width - count - left)
    return String(repeating: padding, count: left) + self + String(repeating: padding, count: right)
  }
}
