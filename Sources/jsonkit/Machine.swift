import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The machine the tool runs on, as a benchmark's reader needs to know it.
enum Machine {
  /// One line: the processor's model, how many cores the process may use,
  /// and the operating system, such as
  /// `AMD EPYC, 2 cores, Debian GNU/Linux 12 (bookworm), Linux 6.1.0`.
  static var summary: String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    return "\(processor), \(cores) \(cores == 1 ? "core" : "cores"), \(operatingSystem)"
  }

  /// The processor's model name, or the architecture when the system does not say.
  static var processor: String {
    #if os(Linux)
      if let cpuInfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let model = value(of: "model name", in: cpuInfo, separator: ":")
      {
        return model
      }
    #elseif canImport(Darwin)
      var size = 0
      if sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 {
        var name = [CChar](repeating: 0, count: size)
        if sysctlbyname("machdep.cpu.brand_string", &name, &size, nil, 0) == 0 {
          return String(cString: name)
        }
      }
    #endif
    return systemName(\.machine)
  }

  /// The operating system's name and version, and the kernel's.
  static var operatingSystem: String {
    let kernel = "\(systemName(\.sysname)) \(systemName(\.release))"
    #if os(Linux)
      if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
        let name = value(of: "PRETTY_NAME", in: release, separator: "=")
      {
        return "\(name), \(kernel)"
      }
      return kernel
    #else
      return "\(ProcessInfo.processInfo.operatingSystemVersionString), \(kernel)"
    #endif
  }

  /// The value on the first line of `text` that reads `key SEPARATOR value`,
  /// without surrounding blanks or quotes.
  static func value(of key: String, in text: String, separator: Character) -> String? {
    for line in text.split(separator: "\n") {
      guard let split = line.firstIndex(of: separator),
        line[..<split].trimmingCharacters(in: .whitespaces) == key
      else { continue }
      let value = line[line.index(after: split)...].trimmingCharacters(
        in: .whitespaces.union(CharacterSet(charactersIn: "\"")))
      return value.isEmpty ? nil : value
    }
    return nil
  }

  /// One field of `uname(2)`, such as the kernel's release.
  private static func systemName<Field>(_ field: KeyPath<utsname, Field>) -> String {
    var names = utsname()
    guard uname(&names) == 0 else { return "unknown" }
    return withUnsafeBytes(of: names[keyPath: field]) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
