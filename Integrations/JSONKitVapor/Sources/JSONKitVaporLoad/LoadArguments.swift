/// The load server's command line.
struct LoadArguments {
  /// Whose JSON coders the server's content configuration uses.
  enum Coder: String {
    case foundation
    case jsonkit
  }

  var coder = Coder.jsonkit
  var hostname = "127.0.0.1"
  var port = 8080

  init<Arguments: Sequence<String>>(_ arguments: Arguments) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      let value = iterator.next()
      switch (argument, value) {
      case ("--coder", let name?) where Coder(rawValue: name) != nil:
        coder = Coder(rawValue: name)!
      case ("--hostname", let name?):
        hostname = name
      case ("--port", let number?) where Int(number) != nil:
        port = Int(number)!
      default:
        Self.exit(usage: "unexpected \(argument) \(value ?? "")")
      }
    }
  }

  static func exit(usage problem: String) -> Never {
    fatalError(
      "\(problem)\nusage: JSONKitVaporLoad --coder foundation|jsonkit [--hostname H] [--port N]")
  }
}
