import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

/// The comparison the tool prints: decoding, tape building, memory and linearity, each a
/// Markdown table, with progress on standard error.
struct Comparison {
  let options: CompareOptions
  /// Every corpus variant's bytes, made once before anything is timed.
  let inputs: [(variant: CorpusVariant, data: Data)]
  /// Where the memory probes' inputs are written for the child processes.
  let scratch: URL

  init(_ options: CompareOptions) throws {
    self.options = options
    var originals: [Corpus: Data] = [:]
    inputs = try CorpusVariant.all.map { variant in
      let original =
        try originals[variant.corpus] ?? variant.corpus.data(in: BenchmarkData.directory)
      originals[variant.corpus] = original
      return (variant, try variant.data(fromOriginal: original))
    }
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "jsonkit-compare-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
  }

  func run() throws {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    print(
      "Foundation's JSONDecoder and JSONKit's JKDecoder, interleaved; median of "
        + "\(options.rounds) rounds, batches of about \(Int(options.batchSeconds * 1000)) ms; "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores; "
        + "\(Date().formatted(.iso8601)).\n")
    try decodeSection()
    try rejectSection()
    try cborSection()
    try cborOptionsSection()
    try encodeSection()
    try typesSection()
    try smallDocumentsSection()
    try tapeSection()
    try validateSection()
    try memorySection()
    try linearitySection()
    try streamsSection()
    try gzipSection()
    try valueSection()
    try instructionSection()
    try encodeInstructionSection()
  }

  func progress(_ row: String) {
    FileHandle.standardError.write(Data("\(row)…\n".utf8))
  }

  /// Writes `data` where a memory probe's child process can read it.
  func scratchFile(_ name: String, _ data: Data) throws -> URL {
    let file = scratch.appendingPathComponent("\(name).json", isDirectory: false)
    try data.write(to: file)
    return file
  }
}
