import BenchmarkSupport
import Foundation
import JSONKitCorpus

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  if arguments.first == "--memory-probe" {
    try MemoryProbe.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--instruction-probe" {
    try InstructionProbe.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--encode-instruction-probe" {
    try InstructionProbe.runEncodeChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--cbor-probe" {
    try InstructionProbe.runCBORChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--sample-probe" {
    try InstructionProbe.runSampleChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--stream-probe" {
    try StreamSample.runProbe(Array(arguments.dropFirst()))
  } else if arguments.first == "--validate-memory-probe" {
    try ValidateWork.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--value-probe" {
    try ValueWork.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--write-variant" {
    // `--write-variant VARIANT FILE`: the variant's bytes, for profiling one decode by
    // hand with `--instruction-probe` under callgrind or perf.
    guard arguments.count == 3,
      let variant = CorpusVariant.all.first(where: { $0.name == arguments[1] })
    else { throw ProbeFailure(message: "usage: --write-variant VARIANT FILE") }
    try variant.data(in: BenchmarkData.directory).write(to: URL(fileURLWithPath: arguments[2]))
  } else {
    try Comparison(CompareOptions(arguments)).run()
  }
} catch {
  FileHandle.standardError.write(Data("compare: \(error)\n".utf8))
  exit(1)
}
