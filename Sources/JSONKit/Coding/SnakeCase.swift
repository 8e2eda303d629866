import Foundation

/// Foundation's `.convertFromSnakeCase` rule, applied once per distinct key.
enum SnakeCase {
  /// `snake_case_key` → `snakeCaseKey`, exactly as Foundation converts it:
  /// leading and trailing underscores stay, the first word is lowercased, the
  /// rest are capitalized, and a key without inner underscores is unchanged.
  static func camelCased(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    var last = key.index(before: key.endIndex)
    while last > first, key[last] == "_" {
      last = key.index(before: last)
    }
    let words = key[first...last].split(separator: "_")
    guard words.count > 1 else { return key }
    var result = String(key[..<first])
    result += words[0].lowercased()
    for word in words.dropFirst() {
      result += word.capitalized
    }
    result += key[key.index(after: last)...]
    return result
  }
}
