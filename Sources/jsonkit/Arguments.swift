/// One option a command accepts, as its `--help` lists it.
struct OptionSpec: Sendable {
  /// The spelling, such as `--max-depth`.
  let name: String
  /// The placeholder for the option's value, such as `N`; `nil` for a flag.
  let valueName: String?
  /// What the option does, one line.
  let help: String

  /// A flag: an option without a value.
  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  /// An option that takes a value, as `--name VALUE` or `--name=VALUE`.
  static func valued(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }

  /// `-h`, `--help`, which every command accepts.
  static let help = OptionSpec.flag("--help", "Show this help.")
}

/// Options under a heading in `--help`.
struct OptionGroup: Sendable {
  /// The heading, such as `PARSE OPTIONS`.
  let title: String
  /// The options, in the order `--help` lists them.
  let options: [OptionSpec]
}

/// A command line split into options and operands.
///
/// Options may come before or after operands; `--` ends the options, so that
/// `jsonkit validate -- --odd-name.json` reads a file named `--odd-name.json`;
/// a lone `-` is an operand that stands for standard input.
struct Arguments {
  /// The options given, in order, each with its value (`nil` for a flag).
  private(set) var options: [(name: String, value: String?)] = []
  /// Everything that is not an option, in order.
  private(set) var operands: [String] = []

  /// Splits `arguments` according to `specs`.
  ///
  /// - Throws: ``ToolError`` (status 2) for an unknown option, a flag given
  ///   a value, or an option missing its value.
  init(_ arguments: [String], specs: [OptionSpec]) throws(ToolError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        operands.append(contentsOf: remaining)
        break
      }
      if argument == "-h" {
        options.append((OptionSpec.help.name, nil))
        continue
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        operands.append(argument)
        continue
      }
      let name: String
      var value: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      } else {
        name = argument
      }
      guard let spec = specs.first(where: { $0.name == name }) else {
        throw .usage("unknown option '\(name)'")
      }
      if spec.valueName == nil, value != nil {
        throw .usage("option '\(name)' takes no value")
      }
      if let valueName = spec.valueName, value == nil {
        guard let next = remaining.popFirst() else {
          throw .usage("option '\(name)' needs a value (\(name) \(valueName))")
        }
        value = next
      }
      options.append((name, value))
    }
  }

  /// Whether the option `name` was given.
  func has(_ name: String) -> Bool {
    options.contains { $0.name == name }
  }

  /// The value of the last `name` option given.
  func value(of name: String) -> String? {
    options.last { $0.name == name }?.value
  }

  /// Which of `names` was given last, for options that undo each other.
  func lastOf(_ names: String...) -> String? {
    options.last { names.contains($0.name) }?.name
  }
}
