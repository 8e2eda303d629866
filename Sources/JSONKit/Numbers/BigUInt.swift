/// An unsigned integer of any size, with just the operations the exact decimal-to-binary
/// comparison needs: building from decimal digits, multiplying by small numbers and powers of
/// five, shifting left, and comparing.
///
/// Values are at most a few thousand bits (an 800-digit significand, or 5^1150), so the
/// quadratic schoolbook algorithms are the right choice. The slow path that uses this type runs
/// only for inputs the fast layers cannot decide, so simplicity wins over speed here.
struct BigUInt: Comparable {
  /// Base-2^64 digits, least significant first, with no most-significant zero words
  /// (zero is the empty array), so that equal values have equal representations.
  private(set) var words: [UInt64]

  /// Creates the value `value`.
  init(_ value: UInt64) {
    words = value == 0 ? [] : [value]
  }

  /// Creates the value whose decimal digits, most significant first, are `digits`
  /// (each 0...9).
  init(decimalDigits digits: [UInt8]) {
    words = []
    words.reserveCapacity(digits.count / 19 + 1)
    // Nineteen digits at a time: 10^19 is the largest power of ten below 2^64.
    var index = digits.startIndex
    while index < digits.endIndex {
      let chunkEnd = min(index + 19, digits.endIndex)
      var chunk: UInt64 = 0
      var scale: UInt64 = 1
      for position in index..<chunkEnd {
        chunk = chunk * 10 + UInt64(digits[position])
        scale *= 10
      }
      multiplyAdd(multiplier: scale, addend: chunk)
      index = chunkEnd
    }
  }

  /// Whether the value is zero.
  var isZero: Bool { words.isEmpty }

  /// Replaces the value with `value * multiplier + addend`.
  mutating func multiplyAdd(multiplier: UInt64, addend: UInt64) {
    var carry = addend
    for index in words.indices {
      let product = words[index].multipliedFullWidth(by: multiplier)
      let (sum, overflow) = product.low.addingReportingOverflow(carry)
      words[index] = sum
      // product.high <= 2^64 - 2, so adding the one-bit overflow cannot wrap.
      carry = product.high &+ (overflow ? 1 : 0)
    }
    if carry != 0 {
      words.append(carry)
    }
    normalize()
  }

  /// Multiplies the value by 5^exponent.
  mutating func multiplyByPowerOfFive(_ exponent: Int) {
    precondition(exponent >= 0)
    // 5^27 is the largest power of five below 2^64.
    let largestStep: UInt64 = 7_450_580_596_923_828_125
    var remaining = exponent
    while remaining >= 27 {
      multiplyAdd(multiplier: largestStep, addend: 0)
      remaining -= 27
    }
    var last: UInt64 = 1
    for _ in 0..<remaining {
      last *= 5
    }
    if last != 1 {
      multiplyAdd(multiplier: last, addend: 0)
    }
  }

  /// Multiplies the value by 2^count.
  mutating func shiftLeft(by count: Int) {
    precondition(count >= 0)
    guard !isZero, count > 0 else { return }
    let wordShift = count / 64
    let bitShift = count % 64
    if bitShift != 0 {
      var carry: UInt64 = 0
      for index in words.indices {
        let word = words[index]
        words[index] = (word << bitShift) | carry
        carry = word >> (64 - bitShift)
      }
      if carry != 0 {
        words.append(carry)
      }
    }
    if wordShift != 0 {
      words.insert(contentsOf: repeatElement(0, count: wordShift), at: 0)
    }
  }

  /// Orders by numeric value.
  static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
    if lhs.words.count != rhs.words.count {
      return lhs.words.count < rhs.words.count
    }
    for index in lhs.words.indices.reversed() where lhs.words[index] != rhs.words[index] {
      return lhs.words[index] < rhs.words[index]
    }
    return false
  }

  private mutating func normalize() {
    while words.last == 0 {
      words.removeLast()
    }
  }
}
