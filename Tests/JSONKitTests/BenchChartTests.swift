import Foundation
import Testing

@testable import jsonkit

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The picture `jsonkit bench --chart` draws: an SVG document that any XML
/// reader accepts, with one bar per figure, drawn to one scale.
@Suite("Benchmark chart")
struct BenchChartTests {
  /// Three files as `bench` measures them, one with a coder that failed.
  static let chart = BenchChart(
    title: "JSONKit and Foundation",
    notes: ["2026-01-01 · a machine", "jsonkit bench"],
    coders: ["JSONKit", "Foundation"],
    baseline: "Foundation",
    groups: [
      .init(
        title: "twitter.json (631.5 kB)",
        tasks: [
          .init(
            name: "decode",
            bars: [
              .init(coder: "JSONKit", megabytesPerSecond: 612.34, speedup: 4.4216),
              .init(coder: "Foundation", megabytesPerSecond: 138.5, speedup: 1),
            ]),
          .init(
            name: "encode",
            bars: [
              .init(coder: "JSONKit", megabytesPerSecond: 401, speedup: 2.5),
              .init(coder: "Foundation", megabytesPerSecond: 160.4, speedup: 1),
            ]),
        ]),
      .init(
        title: "canada.json (2.3 MB)",
        tasks: [
          .init(
            name: "decode",
            bars: [.init(coder: "JSONKit", megabytesPerSecond: 95.25, speedup: nil)])
        ]),
      .init(
        title: "tiny.json (27 B)",
        tasks: [
          .init(
            name: "parse",
            bars: [
              .init(coder: "JSONKit", megabytesPerSecond: 0.75, speedup: 0.5),
              .init(coder: "Foundation", megabytesPerSecond: 1.5, speedup: 1),
            ])
        ]),
    ])

  @Test func theDocumentIsWellFormedXMLWithASVGRoot() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    #expect(document.root?.name == "svg")
    #expect(document.root?.attributes["version"] == "1.1")
    #expect(document.root?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    #expect(document.elements.contains { $0.name == "script" } == false)
  }

  @Test func theBackgroundIsAWhiteRectangleOverTheWholePicture() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    let root = try #require(document.root)
    let background = try #require(document.elements.first { $0.name == "rect" })
    #expect(background.attributes["class"] == "background")
    #expect(background.attributes["fill"] == "#ffffff")
    #expect(background.attributes["width"] == root.attributes["width"])
    #expect(background.attributes["height"] == root.attributes["height"])
  }

  @Test func thereIsOneBarPerMeasuredFigure() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    #expect(document.bars.count == Self.chart.bars.count)
    #expect(document.bars.count == 7)
  }

  @Test func barLengthsAreProportionalToTheFigures() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    let widths = try document.bars.map { try #require(Double($0.attributes["width"] ?? "")) }
    let figures = Self.chart.bars.map(\.megabytesPerSecond)
    try #require(widths.count == figures.count)
    let scale = try #require(widths.max()) / (figures.max() ?? 1)
    #expect(scale > 0)
    for (width, figure) in zip(widths, figures) {
      // Lengths are written with two decimals.
      #expect(abs(width - figure * scale) <= 0.006, "\(width) for \(figure)")
    }
    let starts = Set(document.bars.map { $0.attributes["x"] })
    #expect(starts.count == 1)
  }

  @Test func eachBarIsLabelledWithItsThroughputAndSpeedup() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    #expect(document.texts.contains("612.3 MB/s · 4.42×"))
    #expect(document.texts.contains("138.5 MB/s · 1.00×"))
    #expect(document.texts.contains("0.75 MB/s · 0.50×"))
    // Without a Foundation figure there is no speedup to state.
    #expect(document.texts.contains("95.2 MB/s") || document.texts.contains("95.3 MB/s"))
    for title in Self.chart.groups.map(\.title) + Self.chart.notes + [Self.chart.title] {
      #expect(document.texts.contains(title), "\(title)")
    }
  }

  @Test func barsOfOneCoderShareAColourThatDiffersFromTheOthers() throws {
    let document = try SVGDocument(BenchChartSVG(chart: Self.chart).document)
    var colours: [String: Set<String>] = [:]
    for (bar, figure) in zip(document.bars, Self.chart.bars) {
      colours[figure.coder, default: []].insert(bar.attributes["fill"] ?? "")
    }
    #expect(colours["JSONKit"]?.count == 1)
    #expect(colours["Foundation"]?.count == 1)
    #expect(colours["JSONKit"] != colours["Foundation"])
  }

  @Test func textThatXMLGivesAMeaningToIsEscaped() throws {
    var chart = Self.chart
    chart.title = "Fish & chips <fast>"
    chart.notes = ["jsonkit bench 'a&b.json' \"<c>.json\""]
    chart.groups[0].title = "a&b<c>.json (1 B)"
    chart.groups[0].tasks[0].name = "decode <&>"
    let svg = BenchChartSVG(chart: chart).document
    #expect(!svg.contains("Fish & chips"))
    #expect(svg.contains("Fish &amp; chips &lt;fast&gt;"))
    let document = try SVGDocument(svg)
    for text in [chart.title, chart.notes[0], chart.groups[0].title, "decode <&>"] {
      #expect(document.texts.contains(text), "\(text)")
    }
  }

  @Test func anEmptyRunStillDrawsAWellFormedPicture() throws {
    var chart = Self.chart
    chart.groups = []
    let document = try SVGDocument(BenchChartSVG(chart: chart).document)
    #expect(document.bars.isEmpty)
    #expect(document.texts.contains(chart.title))
  }

  @Test func theMachineLineReadsKeyValueFiles() {
    let cpuInfo = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: fpu\n"
    #expect(Machine.value(of: "model name", in: cpuInfo, separator: ":") == "AMD EPYC 7B13")
    let osRelease = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
    #expect(
      Machine.value(of: "PRETTY_NAME", in: osRelease, separator: "=")
        == "Debian GNU/Linux 12 (bookworm)")
    #expect(Machine.value(of: "VERSION", in: osRelease, separator: "=") == nil)
    #expect(Machine.summary.contains(" core"))
  }
}

/// How `jsonkit bench` takes turns between the coders it compares.
@Suite("Benchmark rounds")
struct StopwatchTests {
  @Test func roundsInterleaveThePiecesOfWorkAfterTheWarmUp() {
    var order: [Int] = []
    var stopwatch = Stopwatch()
    stopwatch.warmUps = 1
    stopwatch.rounds = 3
    let readings = stopwatch.measure([
      {
        order.append(0)
        return 10
      },
      {
        order.append(1)
        return 20
      },
    ])
    #expect(order == [0, 1, 0, 1, 0, 1, 0, 1])
    #expect(readings.map { try? $0.get().bytes } == [10, 20])
  }

  @Test func theCPUClockCountsTheWorkDone() {
    var stopwatch = Stopwatch()
    stopwatch.cpuTime = true
    stopwatch.rounds = 3
    let readings = stopwatch.measure([
      {
        var sum = 0
        for index in 0..<200_000 { sum &+= index &* index }
        blackHole(sum)
        return 1
      }
    ])
    let median = try? readings[0].get().median
    #expect(median.map { $0 > .zero } == true)
  }

  @Test func aPieceThatFailsDropsOutAndTheOthersGoOn() {
    struct Broken: Error {}
    var calls = [0, 0]
    var stopwatch = Stopwatch()
    stopwatch.warmUps = 0
    stopwatch.rounds = 4
    let readings = stopwatch.measure([
      {
        calls[0] += 1
        if calls[0] == 2 { throw Broken() }
        return 1
      },
      {
        calls[1] += 1
        return 2
      },
    ])
    #expect(calls == [2, 4])
    #expect((try? readings[0].get()) == nil)
    #expect((try? readings[1].get().bytes) == 2)
  }
}

/// An SVG file as an XML reader sees it: its elements in order and its text.
private struct SVGDocument {
  struct Element {
    var name: String
    var attributes: [String: String]
  }

  private(set) var elements: [Element] = []
  /// The text of each `text` element, entities resolved.
  private(set) var texts: [String] = []

  var root: Element? { elements.first }
  var bars: [Element] { elements.filter { $0.name == "rect" && $0.attributes["class"] == "bar" } }

  init(_ svg: String) throws {
    let reader = Reader()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = reader
    guard parser.parse() else {
      throw ParseFailure(message: "\(parser.parserError.map { "\($0)" } ?? "unknown")")
    }
    elements = reader.elements
    texts = reader.texts
  }

  struct ParseFailure: Error {
    var message: String
  }

  private final class Reader: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var texts: [String] = []
    var current: String?

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String]
    ) {
      elements.append(Element(name: name, attributes: attributes))
      if name == "text" || name == "title" || name == "desc" { current = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      current? += string
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      if name == "text", let current { texts.append(current) }
      if name == "text" || name == "title" || name == "desc" { current = nil }
    }
  }
}
