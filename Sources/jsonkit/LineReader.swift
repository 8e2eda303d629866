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
/// needs memory only for its longest line, which may hold at most
/// ``maxLineLength`` bytes.
///
/// gzip input is inflated as it is read, a chunk at a time, unless
/// ``decompression`` says not to; its compressed bytes are mapped (a file)
/// or read whole (standard input, a pipe), as the other commands read them.
struct LineReader {
  let input: InputFile
  /// The longest line accepted, in bytes; a longer one is reported and skipped.
  let maxLineLength: Int
  /// Whether gzip input is inflated, and to at most how much text.
  let decompression: JKDecompression
  /// How many bytes have been read so far, for the progress line.
  let progress = ProgressCount()
  /// How many bytes making room for more input has moved so far: a bounded
  /// multiple of the input, whatever the length of its lines.
  private(set) var movedBytes = 0

  /// The longest line accepted unless `--max-record-size` says otherwise:
  /// 64 MiB, as the library's JSON Lines readers accept by default.
  static let defaultMaxLineLength = 64 << 20

  /// `--max-record-size`, which sets ``maxLineLength``.
  static let maxRecordSizeOption = OptionSpec.valued(
    "--max-record-size", "BYTES",
    "With --lines, accept lines of at most BYTES (\(defaultMaxLineLength)).")

  /// A reader of `input` that accepts lines of up to `maxLineLength` bytes
  /// and inflates gzip input as `decompression` says.
  init(
    input: InputFile, maxLineLength: Int = defaultMaxLineLength,
    decompression: JKDecompression = .gzip
  ) {
    self.input = input
    self.maxLineLength = maxLineLength
    self.decompression = decompression
  }

  /// The longest line `arguments` accept: `--max-record-size`, or the default.
  static func maxLineLength(_ arguments: Arguments) throws(ToolError) -> Int {
    guard let text = arguments.value(of: maxRecordSizeOption.name) else {
      return defaultMaxLineLength
    }
    guard let size = Int(text), size > 0 else {
      throw .usage("--max-record-size needs a positive whole number of bytes, not '\(text)'")
    }
    return size
  }

  /// How many bytes each read asks for.
  private static let chunkSize = 1 << 20

  /// Calls `body` with each line (without its `\n`), or the error for a
  /// line longer than ``maxLineLength``, and the line's number from 1,
  /// until the input ends or `body` returns `false`.
  ///
  /// - Throws: ``ToolError`` for an input that cannot be read, or whose gzip
  ///   stream is not valid or inflates past its limit; lines before the
  ///   problem have been handed to `body`.
  mutating func forEachLine(
    _ body: (_ line: Result<UnsafeRawBufferPointer, ToolError>, _ number: Int) throws(ToolError)
      -> Bool
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
    var buffer = LineBuffer(capacity: Self.chunkSize)
    defer {
      movedBytes += buffer.movedBytes
      buffer.deallocate()
    }
    let name = input.displayName
    let readFile = { (destination: UnsafeMutableRawPointer, count: Int) throws(ToolError) in
      guard let read = SystemCalls.readBytes(from: descriptor, into: destination, count: count)
      else {
        throw .system("cannot read '\(name)': \(SystemCalls.errorText())")
      }
      return read
    }
    // Enough of the input to recognise gzip's signature.
    var atEnd = false
    while buffer.unread.count < 2, !atEnd {
      atEnd = try fill(&buffer, from: readFile) == 0
    }
    guard decompression.recognizesGzip, buffer.unread.starts(with: [0x1F, 0x8B]) else {
      return try readLines(into: &buffer, atEnd: atEnd, from: readFile, body)
    }
    let compressed = try compressedInput(startingWith: buffer.unread, descriptor: descriptor)
    buffer.discardAll()
    try compressed.withUnsafeBytes { bytes in
      Result { () throws(ToolError) in
        let inflater: GzipInflater
        do throws(JKParseError) {
          inflater = try GzipInflater(bytes, limit: decompression.maxInflatedSize)
        } catch {
          throw .invalid(error, in: name)
        }
        try readLines(into: &buffer, atEnd: false, from: reading(inflater), body)
      }
    }.get()
  }

  /// Reads of the text `inflater` inflates, in the form `readLines` takes.
  private func reading(_ inflater: GzipInflater)
    -> (UnsafeMutableRawPointer, Int) throws(ToolError) -> Int
  {
    { destination, count throws(ToolError) in
      do throws(JKParseError) {
        return try inflater.read(into: destination, count: count)
      } catch {
        throw .invalid(error, in: input.displayName)
      }
    }
  }

  /// The whole compressed input, of which `prefix` has been read from
  /// `descriptor` already: a regular file is mapped, anything else read on.
  private func compressedInput(startingWith prefix: UnsafeRawBufferPointer, descriptor: Int32)
    throws(ToolError) -> Data
  {
    var status = stat()
    if !input.isStandardInput, fstat(descriptor, &status) == 0,
      status.st_mode & S_IFMT == S_IFREG
    {
      return try input.read()
    }
    return Data(prefix) + (try InputFile.readToEnd(descriptor, name: input.displayName))
  }

  /// Appends the next chunk that `read` gives to `buffer` and returns its length.
  private func fill(
    _ buffer: inout LineBuffer,
    from read: (UnsafeMutableRawPointer, Int) throws(ToolError) -> Int
  ) throws(ToolError) -> Int {
    let destination = buffer.makeRoom(Self.chunkSize)
    let count = try read(destination, Self.chunkSize)
    buffer.didAppend(count)
    progress.add(count)
    return count
  }

  /// Hands each line of the bytes `read` gives, after those `buffer` holds,
  /// to `body`.
  private func readLines(
    into buffer: inout LineBuffer, atEnd: Bool,
    from read: (UnsafeMutableRawPointer, Int) throws(ToolError) -> Int,
    _ body: (Result<UnsafeRawBufferPointer, ToolError>, Int) throws(ToolError) -> Bool
  ) throws(ToolError) {
    var atEnd = atEnd
    var number = 1
    // The unread bytes before this offset hold no line break.
    var searched = 0
    // Whether the unread bytes are the rest of a line already reported as too long.
    var skipping = false
    while true {
      let unread = buffer.unread
      if let found = memchr(unread.baseAddress! + searched, 0x0A, unread.count - searched) {
        let length = UnsafeRawPointer(found) - unread.baseAddress!
        if skipping {
          skipping = false
        } else if try !body(line(unread, length: length, number: number), number) {
          return
        }
        number += 1
        buffer.consume(length + 1)
        searched = 0
        continue
      }
      if atEnd {
        if !skipping, !unread.isEmpty {
          _ = try body(line(unread, length: unread.count, number: number), number)
        }
        return
      }
      if !skipping, unread.count > maxLineLength {
        guard try body(line(unread, length: unread.count, number: number), number) else { return }
        skipping = true
      }
      if skipping {
        buffer.consume(unread.count)
      }
      searched = buffer.unread.count
      atEnd = try fill(&buffer, from: read) == 0
    }
  }

  /// The first `length` bytes of `unread`, line `number`, or the error for
  /// a line that is too long.
  private func line(_ unread: UnsafeRawBufferPointer, length: Int, number: Int)
    -> Result<UnsafeRawBufferPointer, ToolError>
  {
    guard length <= maxLineLength else {
      return .failure(
        ToolError(
          status: .invalidInput,
          message: "\(input.displayName):\(number):1: the line is longer than the limit of "
            + "\(maxLineLength) bytes for one record (see --max-record-size)"))
    }
    return .success(UnsafeRawBufferPointer(rebasing: unread[..<length]))
  }
}

/// The bytes a ``LineReader`` has read but not yet handed out: the line it
/// is reading and whatever came after it, at the front of one allocation
/// that doubles when it must grow, so that a line of any length costs time
/// in proportion to its length.
struct LineBuffer {
  private var storage: UnsafeMutableRawPointer
  private(set) var capacity: Int
  /// Where the unread bytes begin and end in `storage`.
  private var start = 0
  private var end = 0
  /// How many bytes moving the unread bytes to the front and growing have
  /// copied (a `realloc` that remaps pages is counted as a copy).
  private(set) var movedBytes = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    guard let storage = malloc(self.capacity) else { fatalError("out of memory") }
    self.storage = storage
  }

  /// The bytes read and not yet consumed; valid until the buffer next changes.
  var unread: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage + start, count: end - start)
  }

  /// Marks the first `count` unread bytes as consumed.
  mutating func consume(_ count: Int) {
    start += count
    if start == end { (start, end) = (0, 0) }
  }

  /// Consumes every unread byte.
  mutating func discardAll() {
    (start, end) = (0, 0)
  }

  /// Room for `count` more bytes after the unread ones: their address, to
  /// be followed by ``didAppend(_:)``.
  mutating func makeRoom(_ count: Int) -> UnsafeMutableRawPointer {
    if capacity - end < count, start > 0 {
      let unreadCount = end - start
      storage.copyMemory(from: storage + start, byteCount: unreadCount)
      movedBytes += unreadCount
      (start, end) = (0, unreadCount)
    }
    if capacity - end < count {
      let newCapacity = Self.grownCapacity(from: capacity, toHold: end + count)
      guard let grown = realloc(storage, newCapacity) else { fatalError("out of memory") }
      movedBytes += end
      storage = grown
      capacity = newCapacity
    }
    return storage + end
  }

  /// Counts `count` bytes written at ``makeRoom(_:)``'s address as read.
  mutating func didAppend(_ count: Int) {
    end += count
  }

  /// The capacity that follows `capacity` when `needed` bytes must fit:
  /// doubled as often as it takes, so that the bytes copied while a long
  /// line grows add up to less than twice its length.
  static func grownCapacity(from capacity: Int, toHold needed: Int) -> Int {
    var grown = max(capacity, 1)
    while grown < needed {
      grown = grown > Int.max / 2 ? needed : grown * 2
    }
    return grown
  }

  func deallocate() {
    free(storage)
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
