import Foundation

/// A table printed as Markdown, its columns padded so that it also reads as plain text.
struct MarkdownTable {
  let header: [String]
  var rows: [[String]] = []

  init(_ header: String...) {
    self.header = header
  }

  mutating func append(_ row: [String]) {
    rows.append(row)
  }

  func print() {
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      "| "
        + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
        .joined(separator: " | ") + " |"
    }
    Swift.print(line(header))
    Swift.print(line(widths.map { String(repeating: "-", count: max(3, $0)) }))
    for row in rows { Swift.print(line(row)) }
    Swift.print()
  }
}

/// Figures as the tables show them.
enum Figure {
  /// Seconds as milliseconds, to three significant digits.
  static func milliseconds(_ seconds: Double) -> String {
    significant(seconds * 1000) + " ms"
  }

  /// Bytes over seconds as MB/s (10⁶ bytes per second).
  static func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> String {
    "\(Int((Double(bytes) / seconds / 1e6).rounded())) MB/s"
  }

  /// Bytes as MB (10⁶ bytes), to three significant digits.
  static func megabytes(_ bytes: Int) -> String {
    significant(Double(bytes) / 1e6)
  }

  /// Bytes as KB (10³ bytes), to three significant digits.
  static func kilobytes(_ bytes: Int) -> String {
    significant(Double(bytes) / 1e3)
  }

  /// A ratio such as `3.78×`.
  static func ratio(_ value: Double) -> String {
    significant(value) + "×"
  }

  /// A fraction as a whole percentage, such as `4%`.
  static func percent(_ value: Double) -> String {
    "\(Int((value * 100).rounded()))%"
  }

  /// `value` to three significant digits, no exponent.
  static func significant(_ value: Double) -> String {
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return String(format: "%.\(decimals)f", value)
  }
}
