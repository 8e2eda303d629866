import BenchmarkSupport
import Foundation

/// The decoder a child process measures, named on its command line.
enum ProbeDecoder: String, CaseIterable {
  /// `JSONDecoder()` made for the call, through the generic function.
  case foundation
  /// `JKDecoder()` made for the call, through the generic function.
  case jsonKit = "jsonkit"
  /// One `JKDecoder` that has decoded the input before, through the generic function.
  case jsonKitReused = "jsonkit-reused"
  /// `JKDecoder()` with `unknownKeyStrategy = .reject`, made for the call.
  case jsonKitRejecting = "jsonkit-reject"

  /// The call in `calls` that decodes with this decoder.
  func call(in calls: DecodeCalls) -> (Data) throws -> Void {
    switch self {
    case .foundation: calls.foundationFresh
    case .jsonKit: calls.jsonKitFresh
    case .jsonKitReused: calls.jsonKitReused
    case .jsonKitRejecting: calls.jsonKitRejecting
    }
  }

  /// This tool's own executable, which the probes run again in a child process.
  static func executable() throws -> URL {
    URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
  }

  /// Runs `executable` with `arguments` and returns what it printed, trimmed.
  static func output(of executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: bytes, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0 else {
      throw ProbeFailure(
        message: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) ended with "
          + "\(process.terminationStatus)")
    }
    return text
  }
}

/// A probe that did not give a figure.
struct ProbeFailure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
