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
      name: "\(variant.name).\(decoder.rawValue)", scratch: scratch)
  }

  /// The instructions of ``measuredDecode(_:_:)`` in this tool run again with `child`
  /// as its arguments; callgrind's output goes to `scratch`, in a file called after
  /// `name`.
  static func count(child: [String], name: String, scratch: URL) throws -> Int {
    guard let valgrind else { throw ProbeFailure(message: "valgrind is not on the PATH") }
    let output = scratch.appendingPathComponent("callgrind.\(name)", isDirectory: false)
    _ = try ProbeDecoder.output(
      of: valgrind,
      [
        "--tool=callgrind", "--callgrind-out-file=\(output.path)",
        "--toggle-collect=*measuredDecode*", ProbeDecoder.executable().path,
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
