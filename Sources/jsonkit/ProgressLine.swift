import Dispatch
import Foundation

/// A line on standard error saying what the tool is busy with, shown only
/// when a piece of work takes more than a second and standard error is a
/// terminal, and erased when the work ends.
///
/// ```swift
/// let value = try ProgressLine.during("parsing big.json (512.0 MB)") { try parse() }
/// ```
final class ProgressLine: @unchecked Sendable {
  // Unchecked: `finished` and `shown` are only touched with `lock` held.

  /// Whether progress can be shown at all.
  static let isEnabled = SystemCalls.isTerminal(2)

  private let message: String
  private let count: ProgressCount?
  private let start = ContinuousClock.now
  private let lock = NSLock()
  private var finished = false
  private var shown = false

  private init(_ message: String, count: ProgressCount?) {
    self.message = message
    self.count = count
  }

  /// Runs `body`, with `message`, the bytes `count` has counted (if any)
  /// and the seconds elapsed on standard error from the first second on,
  /// updated every second.
  static func during<R, E: Error>(
    _ message: String, counting count: ProgressCount? = nil, _ body: () throws(E) -> R
  ) throws(E) -> R {
    guard isEnabled else { return try body() }
    let line = ProgressLine(message, count: count)
    line.scheduleTick()
    defer { line.finish() }
    return try body()
  }

  private func scheduleTick() {
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { self.tick() }
  }

  private func tick() {
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
    shown = true
    let seconds = (ContinuousClock.now - start).components.seconds
    // Carriage return and "erase to end of line" redraw the line in place.
    let counted = count.map { ", \($0.megabytes) read" } ?? ""
    Console.writeError("\r\u{1B}[Kjsonkit: \(message)… \(seconds) s\(counted)")
    scheduleTick()
  }

  private func finish() {
    lock.lock()
    defer { lock.unlock() }
    finished = true
    if shown {
      Console.writeError("\r\u{1B}[K")
    }
  }
}
