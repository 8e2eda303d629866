/// Upper bounds of the powers of five for the shortest-decimal writer.
///
/// `ShortestDecimal` needs, for each decimal exponent it scales by, a 128-bit value a little
/// above the normalized power: the exact T(q) of `PowersOfFive` plus at most one unit. Below
/// q = 0 the table's entries are already rounded up; from q = 0 they are truncated, so one is
/// added. Subnormal doubles need powers up to 5^324, past the parser's table, so the missing
/// entries 5^309 ... 5^324 (truncated, normalized as the table's) follow here.
extension PowersOfFive {
  /// The largest exponent `upperBound(_:)` accepts.
  static let maxUpperBoundExponent = 324

  /// T(q) for q = 309 ... 324, high word first, truncated like the table's positive entries.
  private static let wordsBeyondTable: [UInt64] = [
    0xB201_833B_35D6_3F73, 0x2CD2_CC65_51E5_13DA,
    0xDE81_E40A_034B_CF4F, 0xF807_7F7E_A65E_58D1,
    0x8B11_2E86_420F_6191, 0xFB04_AFAF_27FA_F782,
    0xADD5_7A27_D293_39F6, 0x79C5_DB9A_F1F9_B563,
    0xD94A_D8B1_C738_0874, 0x1837_5281_AE78_22BC,
    0x87CE_C76F_1C83_0548, 0x8F22_9391_0D0B_15B5,
    0xA9C2_794A_E3A3_C69A, 0xB2EB_3875_504D_DB22,
    0xD433_179D_9C8C_B841, 0x5FA6_0692_A461_51EB,
    0x849F_EEC2_81D7_F328, 0xDBC7_C41B_A6BC_D333,
    0xA5C7_EA73_224D_EFF3, 0x12B9_B522_906C_0800,
    0xCF39_E50F_EAE1_6BEF, 0xD768_226B_3487_0A00,
    0x8184_2F29_F2CC_E375, 0xE6A1_1583_00D4_6640,
    0xA1E5_3AF4_6F80_1C53, 0x6049_5AE3_C109_7FD0,
    0xCA5E_89B1_8B60_2368, 0x385B_B19C_B14B_DFC4,
    0xFCF6_2C1D_EE38_2C42, 0x4672_9E03_DD9E_D7B5,
    0x9E19_DB92_B4E3_1BA9, 0x6C07_A2C2_6A83_46D1,
  ]

  /// T(q) for q = `maxExponent` + 1 ... `maxUpperBoundExponent`, truncated, as high and low words.
  static func truncatedBeyondTable(_ q: Int) -> (high: UInt64, low: UInt64) {
    let index = 2 * (q - maxExponent - 1)
    return (wordsBeyondTable[index], wordsBeyondTable[index + 1])
  }

  /// A 128-bit g with exact < g <= exact + 1, where exact is 5^q normalized as T(q) is;
  /// `q` must lie in `minExponent ... maxUpperBoundExponent`.
  @inline(__always)
  static func upperBound(_ q: Int) -> (high: UInt64, low: UInt64) {
    if q < 0 {
      return approximation(q)
    }
    let truncated = q <= maxExponent ? approximation(q) : truncatedBeyondTable(q)
    let (low, carry) = truncated.low.addingReportingOverflow(1)
    return (truncated.high &+ (carry ? 1 : 0), low)
  }
}
