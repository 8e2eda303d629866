/// The `jsonkit` command: finds the subcommand and hands it the arguments.
enum Tool {
  /// The version `jsonkit --version` prints.
  static let version = "0.1.0"

  /// The subcommands, in the order `--help` lists them.
  static let commands = [ValidateCommand.command, FormatCommand.command, BenchCommand.command]

  /// The text `jsonkit --help` prints.
  static var help: String {
    var text = """
      OVERVIEW: Check, reformat and benchmark JSON with JSONKit.

      USAGE: jsonkit COMMAND [OPTIONS] [FILE...]

      COMMANDS:

      """
    for command in commands {
      let padding = String(repeating: " ", count: 12 - command.name.count)
      text += "  \(command.name)\(padding)\(command.summary)\n"
    }
    text += """

      OPTIONS:
        -h, --help  Show this help; 'jsonkit COMMAND --help' shows a command's.
        --version   Show the version.

      A FILE of '-' is standard input. Exit status: 0 when all went well, 1 when
      an input is not valid JSON, 2 for a wrong command line or a file that
      cannot be read or written.

      """
    return text
  }

  /// Runs the tool with the arguments that follow the program's name.
  static func main(_ arguments: [String]) -> ExitStatus {
    guard let first = arguments.first else {
      ToolError.usage("no command given (see 'jsonkit --help')").report()
      return .usageOrSystemError
    }
    switch first {
    case "-h", "--help":
      Console.write(help)
      return .success
    case "--version":
      Console.write("jsonkit \(version)\n")
      return .success
    case "help":
      // `jsonkit help format` reads as `jsonkit format --help`.
      if let name = arguments.dropFirst().first {
        return main([name, "--help"])
      }
      Console.write(help)
      return .success
    default:
      break
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      let kind = first.hasPrefix("-") ? "option" : "command"
      ToolError.usage("unknown \(kind) '\(first)' (see 'jsonkit --help')").report()
      return .usageOrSystemError
    }
    return command.main(Array(arguments.dropFirst()))
  }
}
