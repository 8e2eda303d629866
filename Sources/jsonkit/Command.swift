/// A subcommand of `jsonkit`: its name, its help, its options and what it does.
struct Command: Sendable {
  /// The name typed after `jsonkit`.
  let name: String
  /// One line for the list of commands in `jsonkit --help`.
  let summary: String
  /// The usage lines, without the leading `USAGE: `.
  let usage: [String]
  /// Paragraphs that follow the usage in `--help`.
  let discussion: String
  /// The options, under their headings; `--help` is added to every command.
  let groups: [OptionGroup]
  /// Does the work once the options are known to be valid.
  let run: @Sendable (Arguments) throws(ToolError) -> ExitStatus

  /// Every option the command accepts.
  var specs: [OptionSpec] {
    groups.flatMap(\.options) + [.help]
  }

  /// The text `jsonkit NAME --help` prints.
  var help: String {
    var text = "OVERVIEW: \(summary)\n\n"
    for (index, line) in usage.enumerated() {
      text += (index == 0 ? "USAGE: " : "       ") + line + "\n"
    }
    text += "\n\(discussion)\n"
    for group in groups + [OptionGroup(title: "OPTIONS", options: [.help])] {
      text += "\n\(group.title):\n"
      for option in group.options {
        var left = option.name == OptionSpec.help.name ? "-h, --help" : option.name
        if let valueName = option.valueName { left += " \(valueName)" }
        let padding = String(repeating: " ", count: max(2, 24 - left.count))
        text += "  \(left)\(padding)\(option.help)\n"
      }
    }
    return text
  }

  /// Parses `arguments` and runs the command, or prints its help.
  func main(_ arguments: [String]) -> ExitStatus {
    do throws(ToolError) {
      let parsed = try Arguments(arguments, specs: specs)
      if parsed.has(OptionSpec.help.name) {
        Console.write(help)
        return .success
      }
      return try run(parsed)
    } catch {
      var error = error
      if error.status == .usageOrSystemError, error.message.hasPrefix("unknown option") {
        error.message += " (see 'jsonkit \(name) --help')"
      }
      error.report(command: name)
      return error.status
    }
  }
}
