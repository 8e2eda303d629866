/// Foundation's `.convertToSnakeCase` rule, applied once per distinct key.
enum KeyConversion {
  /// `camelCaseKey` → `camel_case_key`, as Foundation converts it: words
  /// split where a lowercase letter is followed by an uppercase one, and a
  /// run of capitals is a word of its own up to the capital that begins the
  /// next word (`myURLValue` → `my_url_value`); every word is lowercased.
  static func snakeCased(_ key: String) -> String {
    let scalars = Array(key.unicodeScalars)
    guard !scalars.isEmpty else { return key }
    var words: [Range<Int>] = []
    var wordStart = 0
    var searchStart = 1
    while let upper = firstIndex(in: scalars, from: searchStart, where: isUppercase) {
      words.append(wordStart..<upper)
      guard let lower = firstIndex(in: scalars, from: upper, where: isLowercase) else {
        wordStart = upper
        searchStart = scalars.count
        break
      }
      if lower == upper + 1 {
        // A capital followed by a lowercase letter starts a word.
        wordStart = upper
      } else {
        // A run of capitals: a word up to the capital before the lowercase.
        words.append(upper..<(lower - 1))
        wordStart = lower - 1
      }
      searchStart = lower + 1
    }
    words.append(wordStart..<scalars.count)
    var result = ""
    for (index, word) in words.enumerated() {
      if index > 0 { result += "_" }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars[word])
      result += text.lowercased()
    }
    return result
  }

  private static func firstIndex(
    in scalars: [Unicode.Scalar], from start: Int, where predicate: (Unicode.Scalar) -> Bool
  ) -> Int? {
    guard start < scalars.count else { return nil }
    return scalars[start...].firstIndex(where: predicate)
  }

  /// Letters in Foundation's `CharacterSet.uppercaseLetters`: Lu and Lt.
  private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter: true
    default: false
    }
  }

  /// Letters in Foundation's `CharacterSet.lowercaseLetters`: Ll.
  private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .lowercaseLetter
  }
}
