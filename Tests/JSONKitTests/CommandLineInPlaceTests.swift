// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import Testing

  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #endif

  /// `format --in-place` replaces only regular files: a named pipe (or a
  /// link to one) would be read and then replaced by a regular file, so it
  /// is refused, as `sed -i` refuses it, with exit status 2 and nothing
  /// changed.
  @Suite("jsonkit format --in-place rewrites only regular files")
  struct CommandLineInPlaceTests {
    /// Runs `format --in-place` on `operands` while a writer offers `[ 1 ]`
    /// to the named pipe `pipe`; the pipe is then opened for reading, so
    /// that the writer finishes whether or not the tool read it (before the
    /// fix, it did, and nothing waits forever either way).
    private static func formatInPlace(_ operands: String..., in directory: TemporaryDirectory)
      throws -> ToolRun
    {
      let arguments = operands.map { "'\($0)'" }.joined(separator: " ")
      return try JSONKitTool.runShell(
        """
        printf '[ 1 ]' > pipe &
        "$JSONKIT" format --in-place \(arguments)
        status=$?
        cat pipe > /dev/null
        wait
        exit $status
        """, in: directory.url)
    }

    private static func isNamedPipe(_ url: URL) -> Bool {
      var status = stat()
      return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    @Test func aNamedPipeIsRefusedAndKept() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let pipe = directory.url.appendingPathComponent("pipe")
      #expect(mkfifo(pipe.path, 0o644) == 0)
      let run = try Self.formatInPlace("pipe", in: directory)
      #expect(run.status == 2)
      #expect(run.output.isEmpty)
      #expect(run.error == "jsonkit format: cannot rewrite 'pipe': not a regular file\n")
      #expect(Self.isNamedPipe(pipe))
      #expect(try directory.names() == ["pipe"])
    }

    @Test func aLinkToANamedPipeIsRefusedAndKept() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let pipe = directory.url.appendingPathComponent("pipe")
      #expect(mkfifo(pipe.path, 0o644) == 0)
      #expect(symlink("pipe", directory.url.appendingPathComponent("link").path) == 0)
      let run = try Self.formatInPlace("link", in: directory)
      #expect(run.status == 2)
      #expect(run.error == "jsonkit format: cannot rewrite 'link': not a regular file\n")
      #expect(Self.isNamedPipe(pipe))
      #expect(try directory.names() == ["link", "pipe"])
    }

    @Test func theRegularFilesAmongThemAreStillRewritten() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      #expect(mkfifo(directory.url.appendingPathComponent("pipe").path, 0o644) == 0)
      let file = try directory.write("[ 2 ]", to: "data.json")
      let run = try Self.formatInPlace("pipe", "data.json", in: directory)
      #expect(run.status == 2)
      #expect(run.errorLines == ["jsonkit format: cannot rewrite 'pipe': not a regular file"])
      #expect(try String(contentsOf: file, encoding: .utf8) == "[2]\n")
    }
  }
#endif
