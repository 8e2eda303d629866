import Foundation

/// Draws a ``BenchChart`` as a horizontal bar chart in plain SVG 1.1.
///
/// The file stands alone wherever it is shown — a browser, GitHub, a DocC
/// page: no script, no style sheet, no font to fetch (the generic
/// `sans-serif`), and a white background of its own, so that its dark text
/// reads the same on a light page and a dark one. All bars share one scale,
/// so that lengths compare across files and tasks; each bar is a `rect` of
/// class `bar`, labelled with its MB/s and its speedup over the baseline.
struct BenchChartSVG {
  /// The chart to draw.
  let chart: BenchChart

  private static let minimumWidth = 960.0
  private static let margin = 24.0
  private static let titleSize = 20.0
  private static let noteSize = 12.0
  private static let headingSize = 14.0
  private static let labelSize = 12.0
  private static let barHeight = 18.0
  private static let barGap = 3.0
  private static let taskGap = 10.0
  private static let groupGap = 16.0
  /// The average advance of a character as a share of the font size: the
  /// drawing cannot measure text, so space is set aside from this estimate,
  /// generously, since the viewer picks the font.
  fileprivate static let characterWidth = 0.55
  /// JSONKit's blue, Foundation's grey, then colours for any further coders;
  /// each dark or strong enough to stand out on white.
  private static let palette = ["#1f6feb", "#8c959f", "#d4760b", "#1a7f37", "#8250df", "#cf222e"]
  private static let textColour = "#1f2328"
  private static let noteColour = "#57606a"
  private static let gridColour = "#d0d7de"

  /// The SVG document.
  var document: String {
    let scale = Scale(maximum: chart.bars.map(\.megabytesPerSecond).max() ?? 0)
    let taskColumn = max(
      80, (chart.groups.flatMap(\.tasks).map(\.name.count).max() ?? 0).width(Self.labelSize) + 16)
    let labelColumn = (chart.bars.map { label($0).count }.max() ?? 0).width(Self.labelSize) + 16
    let lines =
      [chart.title.count.width(Self.titleSize)] + chart.notes.map { $0.count.width(Self.noteSize) }
    let width = max(Self.minimumWidth, (lines.max() ?? 0) + 2 * Self.margin).rounded(.up)
    let plotLeft = Self.margin + taskColumn
    let plotWidth = max(120, width - plotLeft - labelColumn - Self.margin)
    let pixelsPerUnit = scale.top > 0 ? plotWidth / scale.top : 0

    var body = ""
    var y = Self.margin + Self.titleSize
    body += text(chart.title, x: Self.margin, y: y, size: Self.titleSize, bold: true)
    for note in chart.notes {
      y += Self.noteSize + 6
      body += text(note, x: Self.margin, y: y, size: Self.noteSize, colour: Self.noteColour)
    }
    y += 14
    body += legend(top: y)
    y += 12 + 14

    let plotTop = y
    var bars = ""
    for group in chart.groups {
      y += Self.headingSize + 6
      bars += text(group.title, x: Self.margin, y: y, size: Self.headingSize, bold: true)
      y += 8
      for task in group.tasks {
        let height =
          Double(task.bars.count) * Self.barHeight + Double(max(0, task.bars.count - 1))
          * Self.barGap
        bars += text(
          task.name, x: Self.margin, y: y + height / 2 + Self.labelSize * 0.35, size: Self.labelSize
        )
        for bar in task.bars {
          let length = bar.megabytesPerSecond * pixelsPerUnit
          let fill = colour(of: bar.coder)
          bars += """
            <rect class="bar" x="\(plotLeft.svg)" y="\(y.svg)" width="\(length.svg)" \
            height="\(Self.barHeight.svg)" fill="\(fill)">\
            <title>\(escape("\(group.title), \(task.name), \(bar.coder): \(label(bar))"))</title>\
            </rect>\n
            """
          bars += text(
            label(bar), x: plotLeft + length + 6, y: y + Self.barHeight / 2 + Self.labelSize * 0.35,
            size: Self.labelSize)
          y += Self.barHeight + Self.barGap
        }
        y += Self.taskGap - Self.barGap
      }
      y += Self.groupGap - Self.taskGap
    }
    let plotBottom = y

    // The grid goes first so that the bars cover it.
    var grid = ""
    for tick in scale.ticks {
      let x = plotLeft + tick * pixelsPerUnit
      grid += """
        <line class="grid" x1="\(x.svg)" y1="\(plotTop.svg)" x2="\(x.svg)" \
        y2="\(plotBottom.svg)" stroke="\(Self.gridColour)" stroke-width="1"/>\n
        """
      grid += text(
        Self.number(tick), x: x, y: plotBottom + Self.labelSize + 4, size: Self.labelSize,
        colour: Self.noteColour, anchor: "middle")
    }
    grid += text(
      "MB/s (10⁶ bytes per second)", x: plotLeft,
      y: plotBottom + 2 * Self.labelSize + 12, size: Self.labelSize, colour: Self.noteColour)
    let height = (plotBottom + 2 * Self.labelSize + 12 + Self.margin).rounded(.up)

    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width.svg)" \
      height="\(height.svg)" viewBox="0 0 \(width.svg) \(height.svg)" font-family="sans-serif">
      <title>\(escape(chart.title))</title>
      <desc>\(escape(chart.notes.joined(separator: "\n")))</desc>
      <rect class="background" x="0" y="0" width="\(width.svg)" height="\(height.svg)" fill="#ffffff"/>

      """ + body + grid + bars + "</svg>\n"
  }

  /// A bar's label: its throughput and its speedup over the baseline.
  func label(_ bar: BenchChart.Bar) -> String {
    // Two decimals below 10 MB/s, where one would blur a twofold difference.
    let decimals = bar.megabytesPerSecond < 10 ? 2 : 1
    let rate = String(format: "%.\(decimals)f MB/s", bar.megabytesPerSecond)
    guard let speedup = bar.speedup else { return rate }
    return rate + String(format: " · %.2f×", speedup)
  }

  /// A swatch and name for each coder, and what the × figures mean.
  private func legend(top: Double) -> String {
    var x = Self.margin
    var drawn = ""
    for coder in chart.coders {
      drawn += """
        <rect class="swatch" x="\(x.svg)" y="\(top.svg)" width="12" height="12" \
        fill="\(colour(of: coder))"/>\n
        """
      drawn += text(coder, x: x + 18, y: top + 10.5, size: Self.labelSize)
      x += 18 + coder.count.width(Self.labelSize) + 18
    }
    let meaning = "N.NN× = times as fast as \(chart.baseline) on the same task"
    return drawn
      + text(meaning, x: x + 6, y: top + 10.5, size: Self.labelSize, colour: Self.noteColour)
  }

  private func colour(of coder: String) -> String {
    let index = chart.coders.firstIndex(of: coder) ?? chart.coders.count
    return Self.palette[index % Self.palette.count]
  }

  private func text(
    _ content: String, x: Double, y: Double, size: Double, bold: Bool = false,
    colour: String = BenchChartSVG.textColour, anchor: String? = nil
  ) -> String {
    var attributes = "x=\"\(x.svg)\" y=\"\(y.svg)\" font-size=\"\(size.svg)\" fill=\"\(colour)\""
    if bold { attributes += " font-weight=\"bold\"" }
    if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
    return "<text \(attributes)>\(escape(content))</text>\n"
  }

  /// `text` with the characters XML gives a meaning to replaced by entities.
  func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A tick value without needless decimals.
  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
  }

  /// The axis: round tick values from zero to at least the largest figure.
  private struct Scale {
    /// The value at the right end of the plot.
    let top: Double
    /// The gridline values, zero and up to ``top``.
    let ticks: [Double]

    init(maximum: Double) {
      guard maximum > 0, maximum.isFinite else {
        top = 0
        ticks = []
        return
      }
      // A step of 1, 2 or 5 times a power of ten that gives four to ten ticks.
      let rough = maximum / 5
      let power = pow(10, (log10(rough)).rounded(.down))
      let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
      top = (maximum / step).rounded(.up) * step
      ticks = (0...Int((top / step).rounded())).map { Double($0) * step }
    }
  }
}

extension Int {
  /// The width a run of this many characters is expected to take at `size`.
  fileprivate func width(_ size: Double) -> Double {
    Double(self) * size * BenchChartSVG.characterWidth
  }
}

extension Double {
  /// The number as an SVG attribute value: two decimals at most, no exponent.
  fileprivate var svg: String {
    // "%.2f" always writes a point, so only decimals are trimmed.
    var text = String(format: "%.2f", self)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
