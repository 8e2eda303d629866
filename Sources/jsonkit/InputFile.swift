import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One input named on the command line: a file, or standard input for `-`.
struct InputFile {
  /// The operand as given; `-` for standard input.
  let operand: String

  /// Whether this input is standard input.
  var isStandardInput: Bool { operand == "-" }

  /// How messages name the input: its path, or `<stdin>`.
  var displayName: String { isStandardInput ? "<stdin>" : operand }

  /// All the bytes of the input.
  ///
  /// A regular file is mapped into memory rather than copied, so that files
  /// of hundreds of megabytes cost no more than their pages; other files
  /// (pipes, devices, standard input) are read to their end.
  ///
  /// - Throws: ``ToolError`` (status 2) naming the file and the system's reason.
  func read() throws(ToolError) -> Data {
    if isStandardInput {
      return try Self.readToEnd(0, name: displayName)
    }
    let descriptor = open(operand, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .system("cannot read '\(operand)': \(SystemCalls.errorText())")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .system("cannot read '\(operand)': \(SystemCalls.errorText())")
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      throw .system("cannot read '\(operand)': \(SystemCalls.errorText(EISDIR))")
    case S_IFREG where status.st_size > 0:
      if let mapped = Self.map(descriptor, count: Int(status.st_size)) {
        return mapped
      }
      return try Self.readToEnd(descriptor, name: operand)
    default:
      return try Self.readToEnd(descriptor, name: operand)
    }
  }

  /// The file open at `descriptor` mapped read-only, unmapped when the
  /// `Data` is released; `nil` if the system refuses to map it.
  ///
  /// The mapping keeps showing the file as it was after `format --in-place`
  /// renames a new file over it. As with any mapped file, another program
  /// truncating the file while it is being read would stop the tool with
  /// SIGBUS, a risk worth taking to read large files without copying them.
  private static func map(_ descriptor: Int32, count: Int) -> Data? {
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != UnsafeMutableRawPointer(bitPattern: -1)
    else { return nil }
    return Data(
      bytesNoCopy: address, count: count,
      deallocator: .custom { address, count in munmap(address, count) })
  }

  /// Everything that remains to be read from `descriptor`, in 1 MiB reads.
  static func readToEnd(_ descriptor: Int32, name: String) throws(ToolError) -> Data {
    var data = Data()
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
      data.reserveCapacity(Int(status.st_size))
    }
    let chunkSize = 1 << 20
    let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      guard let count = SystemCalls.readBytes(from: descriptor, into: chunk, count: chunkSize)
      else {
        throw .system("cannot read '\(name)': \(SystemCalls.errorText())")
      }
      if count == 0 { return data }
      data.append(chunk.assumingMemoryBound(to: UInt8.self), count: count)
    }
  }
}
