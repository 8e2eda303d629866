import BenchmarkSupport
import Foundation
import JSONKitCorpus

/// The peak memory that one decode adds, measured in a process of its own.
///
/// Peak resident memory is a property of a process, so each measurement runs this tool
/// again with the hidden `--memory-probe` mode: the child reads the input from a file,
/// resets the peak (`/proc/self/clear_refs`) where the kernel allows it, reads `VmHWM`,
/// decodes once with a fresh decoder through the generic function, and reads `VmHWM`
/// again. The difference is the growth; it includes the decoded model, which is alive at
/// the peak, and everything the first decode in a process sets up. Linux only: elsewhere
/// the tables say so.
enum MemoryProbe {
  /// Whether `/proc/self/status` can be read here.
  static var available: Bool { FileManager.default.isReadableFile(atPath: "/proc/self/status") }

  /// The growth in bytes of one decode of the file at `input` as `variant`'s model
  /// by `decoder`: the median of `probes` child processes, since where the allocator
  /// places things moves a figure by a tenth or so from one process to the next.
  static func growth(
    _ decoder: ProbeDecoder, _ variant: CorpusVariant, input: URL, probes: Int = 3
  ) throws -> Int {
    let growths = try (0..<probes).map { _ in
      let text = try ProbeDecoder.output(
        of: ProbeDecoder.executable(),
        ["--memory-probe", decoder.rawValue, variant.name, input.path])
      guard let growth = Int(text) else {
        throw ProbeFailure(message: "memory probe of \(variant.name) printed \(text)")
      }
      return Double(growth)
    }
    return Int(middle(of: growths))
  }

  /// The child's side: `arguments` are the decoder, the variant's name and the file.
  /// Prints the growth in bytes.
  static func runChild(_ arguments: [String]) throws {
    guard arguments.count == 3, let decoder = ProbeDecoder(rawValue: arguments[0]),
      let variant = CorpusVariant.all.first(where: { $0.name == arguments[1] })
    else { throw ProbeFailure(message: "usage: --memory-probe DECODER VARIANT FILE") }
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let calls = DecodeCalls(variant)
    let decode = decoder.call(in: calls)
    resetPeak()
    let before = try kilobytes("VmHWM")
    try decode(data)
    let after = try kilobytes("VmHWM")
    print((after - before) * 1024)
  }

  /// Sets the process's peak resident size to its current one (Linux 4.0 and later);
  /// where that is refused, the peak so far stays, which the input's loading has set.
  static func resetPeak() {
    if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
      try? handle.write(contentsOf: Data("5".utf8))
      try? handle.close()
    }
  }

  /// A `kB` figure of `/proc/self/status`, such as `VmHWM`.
  static func kilobytes(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      if let value = Int(
        line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
      {
        return value
      }
    }
    throw ProbeFailure(message: "no \(field) in /proc/self/status")
  }
}
