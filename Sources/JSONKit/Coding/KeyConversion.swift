/// Foundation's `.convertToSnakeCase` and `.convertFromSnakeCase` rules,
/// each applied once per distinct key.
enum KeyConversion {
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

  /// `camelCaseKey` → `camel_case_key`, as Foundation converts it: words
  /// split where a lowercase letter is followed by an uppercase one, and a
  /// run of capitals is a word of its own up to the capital that begins the
  /// next word (`myURLValue` → `my_url_value`); every word is lowercased.
  ///
  /// Foundation finds letters one Unicode scalar at a time but steps over
  /// whole characters around them (the first character, the one after a
  /// capital, the one before a lowercase letter), so a capital with an
  /// accent written as a combining mark (`B\u{301}`) counts as one letter.
  /// The same `String` index operations are used here so that keys with
  /// combining marks convert to the same words.
  static func snakeCased(_ key: String) -> String {
    guard !key.isEmpty else { return key }
    var words: [Range<String.Index>] = []
    var wordStart = key.startIndex
    var searchStart = key.index(after: wordStart)
    while let upper = firstScalar(in: key, from: searchStart, where: isUppercase) {
      words.append(wordStart..<upper)
      guard let lower = firstScalar(in: key, from: upper, where: isLowercase) else {
        wordStart = upper
        break
      }
      if lower == key.index(after: upper) {
        // A capital followed by a lowercase letter starts a word.
        wordStart = upper
      } else {
        // A run of capitals: a word up to the character before the
        // lowercase letter. (Foundation traps when that character begins
        // before the capital, which a lowercase letter joined to the
        // capital's character would cause; this keeps an empty word.)
        let beforeLower = max(key.index(before: lower), upper)
        words.append(upper..<beforeLower)
        wordStart = beforeLower
      }
      searchStart = key.unicodeScalars.index(after: lower)
    }
    words.append(wordStart..<key.endIndex)
    var result = ""
    for (index, word) in words.enumerated() {
      if index > 0 { result += "_" }
      result += key[word].lowercased()
    }
    return result
  }

  /// The index of the first scalar at or after `start` that `predicate`
  /// accepts.
  private static func firstScalar(
    in key: String, from start: String.Index, where predicate: (Unicode.Scalar) -> Bool
  ) -> String.Index? {
    let scalars = key.unicodeScalars
    guard start < scalars.endIndex else { return nil }
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
