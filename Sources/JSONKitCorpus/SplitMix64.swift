/// SplitMix64, the small pseudo-random generator that seeds Java's `SplittableRandom`
/// and the xoshiro family: the same seed gives the same numbers on every platform and
/// Swift version, which the system generator does not promise.
///
/// The shuffled corpus variants (``KeyOrder/shuffled``) are made with it, so that every
/// run and every machine measures the same bytes; JSONKit's seeded tests use it too.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose numbers follow from `seed` alone.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 pseudo-random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<bound`, from the high half of a 128-bit product (Lemire's method
  /// without its rejection step: the bias, below 2⁻⁵⁰ for the bounds a corpus needs,
  /// does not matter here, and the result stays a pure function of the seed).
  public mutating func next(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// Shuffles `elements` in place with the Fisher–Yates algorithm, written out so that
  /// the order depends on this generator only, not on the standard library's
  /// `shuffle(using:)`, whose algorithm is not specified.
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    var index = elements.count - 1
    while index > 0 {
      elements.swapAt(index, next(below: index + 1))
      index -= 1
    }
  }
}
