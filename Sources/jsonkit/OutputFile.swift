import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where `format` writes: standard output, or a file replaced atomically.
enum OutputFile {
  /// Writes `parts` one after another to standard output.
  static func writeStandardOutput(_ parts: [Data]) throws(ToolError) {
    for part in parts {
      if let code = write(part, to: 1) {
        throw .system("cannot write to standard output: \(SystemCalls.errorText(code))")
      }
    }
  }

  /// Throws unless `path` names a regular file, or a symbolic link to one:
  /// replacing anything else (a named pipe, a device, a directory) with a
  /// regular file would destroy it, so it is refused, as `sed -i` refuses it.
  static func checkReplaceable(_ path: String) throws(ToolError) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw .system("cannot read '\(path)': \(SystemCalls.errorText())")
    }
    try checkRegular(status, path)
  }

  private static func checkRegular(_ status: stat, _ path: String) throws(ToolError) {
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .system("cannot rewrite '\(path)': not a regular file")
    }
  }

  /// Replaces the file at `path` with `parts`, so that at every moment the
  /// path names either the complete old file or the complete new one.
  ///
  /// The new text goes to a temporary file in the same directory (a rename
  /// across file systems would not be atomic), which gets the old file's
  /// permission bits, and its owner where the system allows, is flushed to
  /// disk, and is then renamed over the old one. A symbolic link is
  /// followed, so the link stays and its target is replaced; anything but a
  /// regular file is refused (``checkReplaceable(_:)``). On any failure
  /// the temporary file is removed and the old file is left as it was.
  static func replace(_ path: String, with parts: [Data]) throws(ToolError) {
    guard let resolved = realpath(path, nil) else {
      throw .system("cannot write '\(path)': \(SystemCalls.errorText())")
    }
    let target = String(cString: resolved)
    free(resolved)
    var original = stat()
    guard stat(target, &original) == 0 else {
      throw .system("cannot write '\(path)': \(SystemCalls.errorText())")
    }
    try checkRegular(original, path)

    let slash = target.lastIndex(of: "/")!
    let directory = String(target[..<slash])
    let name = String(target[target.index(after: slash)...])
    var template = Array("\(directory)/.\(name).jsonkit-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      throw .system("cannot create a temporary file next to '\(path)': \(SystemCalls.errorText())")
    }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }

    var failure = fill(descriptor, with: parts, like: original)
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, target) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw .system("cannot write '\(path)': \(SystemCalls.errorText(failure))")
    }
  }

  /// Writes `parts` to the new file open at `descriptor`, gives it the
  /// owner (where the system allows) and permission bits of `original`, and
  /// flushes it to disk. Returns the `errno` of a failure, or `nil`.
  private static func fill(_ descriptor: Int32, with parts: [Data], like original: stat) -> Int32? {
    for part in parts {
      if let code = write(part, to: descriptor) { return code }
    }
    // The owner first: changing it can clear set-user-ID bits that the mode restores.
    _ = fchown(descriptor, original.st_uid, original.st_gid)
    if fchmod(descriptor, original.st_mode & 0o7777) != 0 { return errno }
    // Without this, a crash soon after the rename could leave an empty file on
    // some file systems, which is what writing in place is meant to prevent.
    if fsync(descriptor) != 0 { return errno }
    return nil
  }

  /// Writes `data` to `descriptor`; the `errno` of a failure, or `nil`.
  private static func write(_ data: Data, to descriptor: Int32) -> Int32? {
    data.withUnsafeBytes { SystemCalls.writeAll($0, to: descriptor) }
  }
}
