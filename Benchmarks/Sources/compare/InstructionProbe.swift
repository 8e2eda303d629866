import BenchmarkSupport
import Foundation
import JSONKitCorpus

/// The instructions that one decode executes, counted by callgrind in a child process:
/// figures that a busy machine does not move, for telling apart changes smaller than the
/// clock's noise.
///
/// The child (the hidden `--instruction-probe` mode) reads the input, decodes it once to
/// warm up (metadata, caches, and the reused decoder's key cache), then decodes it again
/// inside ``measuredDecode(_:_:)``, the one function callgrind collects in
/// (`--toggle-collect`). A fresh decoder is made inside it, so its making is counted.
enum InstructionProbe {
  /// The `valgrind` executable on the `PATH`, if any.
  static let valgrind: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map {
      URL(fileURLWithPath: String($0), isDirectory: true).appendingPathComponent("valgrind")
    }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// The instructions of one warm decode of the file at `input` as `variant`'s model by
  /// `decoder`; callgrind's output goes to `scratch`.
  static func count(
    _ decoder: ProbeDecoder, _ variant: CorpusVariant, input: URL, scratch: URL
  ) throws -> Int {
    try count(
      child: ["--instruction-probe", decoder.rawValue, variant.name, input.path],
      collecting: "measuredDecode", name: "\(variant.name).\(decoder.rawValue)",
      scratch: scratch)
  }

  /// The instructions callgrind counts in the function `collecting` of this tool run
  /// again with the arguments `child`; its output goes to `scratch`, in a file that
  /// `name` tells apart.
  static func count(child: [String], collecting: String, name: String, scratch: URL) throws
    -> Int
  {
    guard let valgrind else { throw ProbeFailure(message: "valgrind is not on the PATH") }
    let output = scratch.appendingPathComponent("callgrind.\(name)", isDirectory: false)
    _ = try ProbeDecoder.output(
      of: valgrind,
      [
        "--tool=callgrind", "--callgrind-out-file=\(output.path)",
        "--toggle-collect=*\(collecting)*", ProbeDecoder.executable().path,
      ] + child)
    defer { try? FileManager.default.removeItem(at: output) }
    let text = try String(contentsOf: output, encoding: .utf8)
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") {
      if let count = Int(line.dropFirst("totals:".count).split(separator: " ").first ?? "") {
        return count
      }
    }
    throw ProbeFailure(message: "no totals in \(output.path)")
  }

  /// The child's side: `arguments` are the decoder, the variant's name and the file.
  static func runChild(_ arguments: [String]) throws {
    guard arguments.count == 3, let decoder = ProbeDecoder(rawValue: arguments[0]),
      let variant = CorpusVariant.all.first(where: { $0.name == arguments[1] })
    else { throw ProbeFailure(message: "usage: --instruction-probe DECODER VARIANT FILE") }
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let decode = decoder.call(in: DecodeCalls(variant))
    try decode(data)
    try measuredDecode(decode, data)
  }
}

/// The region callgrind counts: one call of `decode`.
@inline(never)
func measuredDecode(_ decode: (Data) throws -> Void, _ data: Data) throws {
  try decode(data)
}

extension InstructionProbe {
  /// The child's side of a sample's count (the hidden `--sample-probe` mode): `arguments`
  /// are the sample's name (`uuid`, `orders`, …), `decode` or `encode`, and optionally
  /// `foundation`; one call with a fresh JKDecoder or JKEncoder (or JSONDecoder or
  /// JSONEncoder) is counted, after one to warm up.
  ///
  /// By hand: `valgrind --tool=callgrind --toggle-collect='*measuredDecode*'
  /// .build/release/compare --sample-probe orders decode`.
  static func runSampleChild(_ arguments: [String]) throws {
    guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "foundation"),
      arguments[1] == "decode" || arguments[1] == "encode",
      let make = SampleCalls.all.first(where: { $0.name == arguments[0] })?.make
    else {
      throw ProbeFailure(message: "usage: --sample-probe SAMPLE decode|encode [foundation]")
    }
    let calls = try make()
    let foundation = arguments.count == 3
    let call: (Data) throws -> Void
    if arguments[1] == "decode" {
      call = foundation ? calls.decodeFoundationFresh : calls.decodeJSONKitFresh
    } else {
      let encode = foundation ? calls.encodeFoundationFresh : calls.encodeJSONKitFresh
      call = { _ in _ = try encode() }
    }
    try call(calls.json)
    try measuredDecode(call, calls.json)
  }
}
