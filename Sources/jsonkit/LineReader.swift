import Foundation
import JSONKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads an input's JSON Lines in chunks, so that a file larger than memory
/// needs memory only for its longest line.
struct LineReader {
  let input: InputFile
  /// How many bytes have been read so far, for the progress line.
  let progress = ProgressCount()

  /// Calls `body` with each line (without its `\n`) and its number from 1,
  /// until the input ends or `body` returns `false`.
  func forEachLine(
    _ body: (_ line: UnsafeRawBufferPointer, _ number: Int) throws(ToolError) -> Bool
  ) throws(ToolError) {
    let descriptor: Int32
    if input.isStandardInput {
      descriptor = 0
    } else {
      descriptor = open(input.operand, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw .system("cannot read '\(input.operand)': \(SystemCalls.errorText())")
      }
    }
    defer { if descriptor != 0 { close(descriptor) } }
    let chunkSize = 1 << 20
    var pending: [UInt8] = []
    var number = 1
    var atEnd = false
    while !atEnd {
      let previous = pending.count
      pending.reserveCapacity(previous + chunkSize)
      pending.append(contentsOf: repeatElement(0, count: chunkSize))
      let count = pending.withUnsafeMutableBytes { buffer in
        SystemCalls.readBytes(
          from: descriptor, into: buffer.baseAddress! + previous, count: chunkSize)
      }
      guard let count else {
        throw .system("cannot read '\(input.displayName)': \(SystemCalls.errorText())")
      }
      pending.removeLast(chunkSize - count)
      progress.add(count)
      atEnd = count == 0
      var consumed = 0
      let goOn = try pending.withUnsafeBytes { bytes in
        Result { () throws(ToolError) -> Bool in
          var start = 0
          // Only the new bytes can hold the next line break.
          var searchFrom = previous
          while true {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[searchFrom...])
            let end: Int
            if let found = rest.firstIndex(of: 0x0A) {
              end = searchFrom + found
            } else if atEnd, start < bytes.count {
              end = bytes.count
            } else {
              consumed = start
              return true
            }
            guard try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), number) else {
              return false
            }
            number += 1
            start = Swift.min(end + 1, bytes.count)
            searchFrom = start
            if start == bytes.count {
              consumed = start
              return true
            }
          }
        }
      }.get()
      guard goOn else { return }
      pending.removeFirst(consumed)
    }
  }
}

/// A count of bytes shared between the reading thread and the progress line.
final class ProgressCount: @unchecked Sendable {
  // Unchecked: `bytes` is only touched with `lock` held.
  private let lock = NSLock()
  private var bytes = 0

  func add(_ count: Int) {
    lock.lock()
    bytes += count
    lock.unlock()
  }

  /// The count in megabytes, as the progress line shows it.
  var megabytes: String {
    lock.lock()
    defer { lock.unlock() }
    return String(format: "%.1f MB", Double(bytes) / 1_000_000)
  }
}
