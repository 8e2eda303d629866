import JSONKitCorpus

/// The seeded generator of the corpus variants, under the name the seeded
/// tests use: the same seed gives the same cases on every run and platform.
typealias SplitMix64 = JSONKitCorpus.SplitMix64

extension SplitMix64 {
  /// `text` with one slip drawn from `slips`: a character replaced or
  /// removed, or one inserted, for the near misses of a value's text that
  /// the parity tests read. `choices` above 3 makes insertion that much
  /// likelier.
  mutating func slipped(_ text: String, slips: [Character], choices: Int = 3) -> String {
    var characters = Array(text)
    let slip = slips[next(below: slips.count)]
    switch next(below: choices) {
    case 0 where !characters.isEmpty:
      characters[next(below: characters.count)] = slip
    case 1 where !characters.isEmpty:
      characters.remove(at: next(below: characters.count))
    default:
      characters.insert(slip, at: next(below: characters.count + 1))
    }
    return String(characters)
  }
}
