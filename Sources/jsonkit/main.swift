#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

exit(Tool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
