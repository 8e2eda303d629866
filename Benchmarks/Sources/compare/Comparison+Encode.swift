import BenchmarkSupport
import Foundation
import JSONKitCorpus

extension Comparison {
  /// The corpora whose models are encoded.
  static let encodedCorpora: [Corpus] = [.twitter, .citmCatalog, .canada]

  /// Each encoded corpus with each formatting, named as in the rows: `twitter`,
  /// `twitter-sorted`, `canada-pretty-sorted`.
  static var encodeRows: [(name: String, corpus: Corpus, formatting: EncodeFormatting)] {
    encodedCorpora.flatMap { corpus in
      EncodeFormatting.allCases.map {
        (CorpusVariant(corpus).name + $0.suffix, corpus, $0)
      }
    }
  }

  /// The bytes of `corpus`'s file, from the inputs read before anything was timed.
  func original(_ corpus: Corpus) -> Data {
    guard let input = inputs.first(where: { $0.variant == CorpusVariant(corpus) }) else {
      preconditionFailure("no declaration-order input for \(corpus.fileName)")
    }
    return input.data
  }

  /// Encoding each corpus's model with each formatting: `JSONEncoder()` per call through
  /// the generic function against three JKEncoder calls, the least favourable of which
  /// is marked. MB and MB/s are of JSONKit's output.
  func encodeSection() throws {
    var table = MarkdownTable(
      "model", "MB out", "JSONEncoder() generic", "JKEncoder() generic",
      "reused JKEncoder generic", "JKEncoder() direct", "least ×", "fresh ÷ reused", "spread",
      "bytes")
    for row in Self.encodeRows where options.includes("encode/\(row.name)") {
      progress("encode/\(row.name)")
      let calls = try EncodeCalls(row.corpus, row.formatting, from: original(row.corpus))
      let outputs = try calls.outputs()
      let timings = try Contender.timings(
        [
          Contender(name: "JSONEncoder() generic", run: calls.foundationFresh),
          Contender(name: "generic", run: calls.jsonKitFresh),
          Contender(name: "reused", run: calls.jsonKitReused),
          Contender(name: "direct", run: calls.jsonKitDirect),
        ], rounds: options.rounds, batchSeconds: options.batchSeconds)
      let sameBytes =
        !row.formatting.sortsKeys
        ? (outputs.foundation.count == outputs.jsonKit.count ? "same size" : "size differs")
        : (outputs.foundation == outputs.jsonKit ? "= Foundation's" : "**differ**")
      table.append(
        [row.name, Figure.megabytes(outputs.jsonKit.count)]
          + ratioCells(
            timings, bytes: outputs.jsonKit.count, names: ["generic", "reused", "direct"])
          + [sameBytes])
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### Encode (median time per call · MB/s of output · × = JSONEncoder's time ÷ "
        + "JSONKit's, median over the rounds; bytes compared with JSONEncoder's, whose "
        + "unsorted key order on Linux differs per run)\n")
    table.print()
  }

  /// Instruction counts of one warm encode per encoder, corpus and formatting, under
  /// callgrind (`--instructions` only).
  func encodeInstructionSection() throws {
    guard options.instructions else { return }
    let rows = Self.encodeRows.filter { options.includes("instructions/encode/\($0.name)") }
    guard !rows.isEmpty, InstructionProbe.valgrind != nil else { return }
    var table = MarkdownTable(
      "model", "JSONEncoder()", "JKEncoder()", "reused JKEncoder", "×", "fresh ÷ reused")
    for row in rows {
      progress("instructions/encode/\(row.name)")
      let counts = try [ProbeDecoder.foundation, .jsonKit, .jsonKitReused].map { encoder in
        try InstructionProbe.count(
          child: [
            "--encode-instruction-probe", encoder.rawValue, row.corpus.rawValue,
            row.formatting.rawValue,
          ],
          collecting: "measuredEncode", name: "encode.\(row.name).\(encoder.rawValue)",
          scratch: scratch)
      }
      func millions(_ count: Int) -> String { Figure.significant(Double(count) / 1e6) + " M" }
      table.append([
        row.name, millions(counts[0]), millions(counts[1]), millions(counts[2]),
        Figure.ratio(Double(counts[0]) / Double(counts[1])),
        Figure.ratio(Double(counts[1]) / Double(counts[2])),
      ])
    }
    print(
      "### Instructions of one warm encode (callgrind; × = JSONEncoder()'s ÷ JKEncoder()'s)\n")
    table.print()
  }
}

extension InstructionProbe {
  /// The child's side of an encode count: `arguments` are the encoder (named as a
  /// ``ProbeDecoder``), the corpus and the formatting. The model is decoded, encoded once
  /// to warm up, then encoded inside ``measuredEncode(_:)``.
  static func runEncodeChild(_ arguments: [String]) throws {
    guard arguments.count == 3, let encoder = ProbeDecoder(rawValue: arguments[0]),
      let corpus = Corpus(rawValue: arguments[1]),
      let formatting = EncodeFormatting(rawValue: arguments[2])
    else {
      throw ProbeFailure(message: "usage: --encode-instruction-probe ENCODER CORPUS FORMATTING")
    }
    let calls = try EncodeCalls(
      corpus, formatting, from: corpus.data(in: BenchmarkData.directory))
    let encode =
      switch encoder {
      case .foundation: calls.foundationFresh
      case .jsonKit: calls.jsonKitFresh
      case .jsonKitReused, .jsonKitRejecting: calls.jsonKitReused
      }
    try encode()
    try measuredEncode(encode)
  }
}

/// The region callgrind counts for an encode: one call of `encode`.
@inline(never)
func measuredEncode(_ encode: () throws -> Void) throws {
  try encode()
}
