import Foundation

/// Dates as the text that `JSONDecoder` and `JSONEncoder` use for `.iso8601`, which is
/// `Date.ISO8601FormatStyle()`'s: read and written without `Calendar`, `String` or an
/// allocation, to the same `Date` bits and the same bytes as Foundation (swift-foundation).
///
/// Foundation's calendar for this style counts days as Gregorian from 1582-10-15 and as Julian
/// before, so both day counts are here. Text is turned into seconds in the same floating-point
/// steps, in the same order, as Foundation takes them, since a fraction such as `.123` rounds
/// differently when added at another point.
///
/// What Foundation reads (and so what `date(from:)` reads), in order:
/// - year, `-`, month, `-`, day, `T`, hour, `:`, minute, `:`, second: each number is 1 to 10
///   ASCII digits, zeros in front allowed (`2024-005-6T7:8:9Z`); no sign, no spaces, an upper
///   case `T` only. Month must be 1...12 and day 1...31; the rest is not range-checked but
///   carried (`24:00:00`, `:60`, Feb 30 run on into the next day or month), up to year 506714
///   and 2^31 - 1 hours, minutes or seconds.
/// - optionally `.` and 1 to 9 digits of fraction; 10 or more digits are rejected.
/// - a zone: `Z` or `z`; `GMT` or `UTC` in any case, alone or followed by an offset; or an
///   offset `+`/`-` with 1-2 digits of hours, then optionally minutes (1-2 digits, with or
///   without `:`) and seconds likewise. Minutes and seconds are not range-checked
///   (`+01:99`); the whole offset must be within 18 hours.
/// - anything at all after the zone is ignored (`…Zjunk` reads), since Foundation's `parse`
///   drops where its reading stopped.
enum ISO8601DateText {
  /// The most bytes `write` stores: a six-digit year (Foundation caps dates at year 506713).
  static let maxLength = 22

  /// Foundation's day number of 2001-01-01 (the `Date` reference), noon-based Julian days.
  private static let referenceJulianDate = 2_451_910.5
  /// The first Gregorian day (1582-10-15) as a Julian Day Number.
  private static let gregorianCutoverDay = 2_299_161
  /// 1582-10-15T00:00:00Z in seconds since the reference date: earlier instants are written
  /// with Julian calendar dates.
  private static let gregorianStart = -13_197_600_000.0
  /// The instants Foundation's calendar clamps a date into before taking it apart, in seconds
  /// since the reference date: -4712-01-01T12:00:00Z and 506713-02-07T00:00:00Z.
  private static let earliest = -211_845_067_200.0
  private static let latest = 15_927_175_497_600.0
  /// Foundation refuses components past these when building a date from them.
  private static let maxYear = 506_714
  private static let maxTimeField = Int(Int32.max)
  /// The widest offset `TimeZone(secondsFromGMT:)` accepts.
  fileprivate static let maxZoneOffset = 18 * 3600
}

// MARK: - Reading

extension ISO8601DateText {
  /// The Date that `Date.ISO8601FormatStyle().parse` gives for these UTF-8 bytes (the string's
  /// content, no quotes), or nil where it throws.
  static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    var reader = FieldReader(bytes)
    guard let year = reader.number(), reader.skip(UInt8(ascii: "-")),
      let month = reader.number(), 1...12 ~= month, reader.skip(UInt8(ascii: "-")),
      let day = reader.number(), 1...31 ~= day, reader.skip(UInt8(ascii: "T")),
      let hour = reader.number(), reader.skip(UInt8(ascii: ":")),
      let minute = reader.number(), reader.skip(UInt8(ascii: ":")),
      let second = reader.number()
    else { return nil }
    var nanoseconds: Int?
    if reader.skip(UInt8(ascii: ".")) {
      guard let fraction = reader.nanoseconds() else { return nil }
      nanoseconds = fraction
    }
    guard let offset = reader.zoneOffset(), year <= maxYear, hour <= maxTimeField,
      minute <= maxTimeField, second <= maxTimeField
    else { return nil }
    let day0 = julianDayNumber(year: year, month: month, day: day)
    // Foundation's order: the day's noon, back to midnight, plus the time of day summed in
    // its own variable, minus the zone's offset. Only steps that carry a fraction round.
    var secondsInDay = Double(hour) * 3600 + Double(minute) * 60 + Double(second)
    if let nanoseconds {
      secondsInDay += Double(nanoseconds) / 1_000_000_000
    }
    var time = (Double(day0) - referenceJulianDate) * 86400 - 43200
    time += secondsInDay
    time -= Double(offset)
    return Date(timeIntervalSinceReferenceDate: time)
  }

  /// The Julian Day Number of a calendar date as Foundation's calendar counts it: Gregorian,
  /// unless that day falls before the cutover, when the same fields are read as Julian (so
  /// 1582-10-10, which no calendar of Foundation's has, is the Julian 1582-10-10). A day
  /// past the month's end runs on into the next month. `year` must be 0 or more.
  private static func julianDayNumber(year: Int, month: Int, day: Int) -> Int {
    // Years that start in March, so that February's length comes last.
    let march = month <= 2 ? 1 : 0
    let shiftedYear = year + 4800 - march
    let shiftedMonth = month + 12 * march - 3
    let julian = day + (153 * shiftedMonth + 2) / 5 + 365 * shiftedYear + shiftedYear / 4 - 32083
    let gregorian = julian - shiftedYear / 100 + shiftedYear / 400 + 38
    return gregorian < gregorianCutoverDay ? julian : gregorian
  }
}

/// A position in the text and the few ways Foundation's ISO 8601 reader moves through it.
private struct FieldReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  var next: UInt8? { index < bytes.count ? bytes[index] : nil }

  var nextIsDigit: Bool { next.map { $0 &- UInt8(ascii: "0") < 10 } ?? false }

  /// Steps over `byte` if it comes next.
  mutating func skip(_ byte: UInt8) -> Bool {
    guard next == byte else { return false }
    index += 1
    return true
  }

  /// Steps over `letter` (an ASCII lower case letter) in either case if it comes next.
  mutating func skip(eitherCase letter: UInt8) -> Bool {
    guard let byte = next, byte | 0x20 == letter else { return false }
    index += 1
    return true
  }

  /// Up to `maxDigits` ASCII digits and how many there were; Foundation reads at most 10
  /// digits into a field (so that an `Int` cannot overflow) and leaves the rest.
  mutating func digits(upTo maxDigits: Int) -> (value: Int, count: Int) {
    var value = 0
    var count = 0
    while count < maxDigits, index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value * 10 + Int(digit)
      count += 1
      index += 1
    }
    return (value, count)
  }

  /// A field of 1 to `maxDigits` digits, or nil when no digit comes next.
  mutating func number(upTo maxDigits: Int = 10) -> Int? {
    let (value, count) = digits(upTo: maxDigits)
    return count > 0 ? value : nil
  }

  /// The digits after the `.` in nanoseconds; nil for none or for 10 or more, as Foundation.
  mutating func nanoseconds() -> Int? {
    var (value, count) = digits(upTo: 10)
    guard count > 0, count < 10 else { return nil }
    while count < 9 {
      value *= 10
      count += 1
    }
    return value
  }

  /// The zone's offset east of UTC in seconds, or nil where Foundation finds no zone, an
  /// unknown one, or an offset `TimeZone` refuses.
  mutating func zoneOffset() -> Int? {
    guard let first = next else { return nil }
    index += 1
    let negative: Bool
    switch first {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      return 0
    case UInt8(ascii: "G"), UInt8(ascii: "g"):
      guard skip(eitherCase: UInt8(ascii: "m")), skip(eitherCase: UInt8(ascii: "t")) else {
        return nil
      }
      guard let sign = offsetSign() else { return 0 }
      negative = sign
    case UInt8(ascii: "U"), UInt8(ascii: "u"):
      guard skip(eitherCase: UInt8(ascii: "t")), skip(eitherCase: UInt8(ascii: "c")) else {
        return nil
      }
      guard let sign = offsetSign() else { return 0 }
      negative = sign
    case UInt8(ascii: "+"):
      negative = false
    case UInt8(ascii: "-"):
      negative = true
    default:
      return nil
    }
    guard let seconds = offsetMagnitude(), seconds <= ISO8601DateText.maxZoneOffset else {
      return nil
    }
    return negative ? -seconds : seconds
  }

  /// After `GMT` or `UTC`: whether a `-` (true) or `+` (false) follows, stepping over it; nil
  /// when neither does, and the zone is UTC whatever comes next.
  private mutating func offsetSign() -> Bool? {
    if skip(UInt8(ascii: "+")) { return false }
    if skip(UInt8(ascii: "-")) { return true }
    return nil
  }

  /// Hours, then optional minutes and seconds, each of 1-2 digits with an optional `:`
  /// between them (Foundation accepts `+05`, `+0530`, `+05:30`, `+05:30:15`, `+053015`).
  private mutating func offsetMagnitude() -> Int? {
    guard let hours = number(upTo: 2) else { return nil }
    guard skip(UInt8(ascii: ":")) || nextIsDigit else { return hours * 3600 }
    guard let minutes = number(upTo: 2) else { return nil }
    _ = skip(UInt8(ascii: ":"))
    let seconds = number(upTo: 2) ?? 0
    return hours * 3600 + minutes * 60 + seconds
  }
}

// MARK: - Writing

extension ISO8601DateText {
  /// Writes `date.formatted(Date.ISO8601FormatStyle())`'s UTF-8 bytes at `out` (room for
  /// `maxLength`) and returns how many; nil only for a NaN date, on which Foundation's
  /// formatter traps rather than writes.
  ///
  /// Foundation's output, which this reproduces: the whole second at or below the date (so
  /// fractions are dropped, and half a second before midnight is 23:59:59); dates clamped into
  /// -4712-01-01T12:00:00Z...506713-02-07T00:00:00Z first (±infinity too); Julian calendar
  /// dates before 1582-10-15; the year as the astronomical year (0 is `0000`, 1 BC), at least
  /// four digits, `-` before a negative one; always `Z`.
  static func write(_ date: Date, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    let time = date.timeIntervalSinceReferenceDate
    guard !time.isNaN else { return nil }
    let capped = Swift.max(Swift.min(time, latest), earliest)
    // Whole seconds rounded down; exact in integers within the clamped range.
    var wholeSeconds = Int(capped)
    if Double(wholeSeconds) > capped {
      wholeSeconds -= 1
    }
    let seconds = Double(wholeSeconds)
    // The day as Foundation finds it, in floating point: the same day as exact arithmetic
    // would give within the clamped range, but kept in Foundation's steps regardless. It is
    // never negative there, so truncating rounds it down.
    let julianDate = seconds / 86400 + referenceJulianDate
    let dayNumber = Int(julianDate + 0.5)
    var secondOfDay = wholeSeconds % 86400
    if secondOfDay < 0 {
      secondOfDay += 86400
    }
    let civil = CivilDate(julianDayNumber: dayNumber, julian: seconds < gregorianStart)
    var count = writeYear(civil.year, to: out)
    count += writeField(civil.month, after: UInt8(ascii: "-"), to: out + count)
    count += writeField(civil.day, after: UInt8(ascii: "-"), to: out + count)
    count += writeField(secondOfDay / 3600, after: UInt8(ascii: "T"), to: out + count)
    count += writeField(secondOfDay / 60 % 60, after: UInt8(ascii: ":"), to: out + count)
    count += writeField(secondOfDay % 60, after: UInt8(ascii: ":"), to: out + count)
    out[count] = UInt8(ascii: "Z")
    return count + 1
  }

  /// Writes `year` (-4712...506713) with at least four digits and returns how many bytes.
  private static func writeYear(_ year: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var start = 0
    if year < 0 {
      out[0] = UInt8(ascii: "-")
      start = 1
    }
    var rest = year.magnitude
    let width = rest >= 100_000 ? 6 : rest >= 10_000 ? 5 : 4
    var position = start + width
    while position > start {
      position -= 1
      out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    return start + width
  }

  /// Writes `separator` and then `value` (0...99) as two digits; returns 3.
  @inline(__always)
  private static func writeField(
    _ value: Int, after separator: UInt8, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    out[0] = separator
    out[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
    out[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    return 3
  }
}

/// A year, month and day from a Julian Day Number, in the Julian or the Gregorian calendar.
private struct CivilDate {
  let year: Int
  let month: Int
  let day: Int

  /// `julianDayNumber` must be 0 or more (it is, for every date Foundation writes), so that
  /// every division below rounds down.
  init(julianDayNumber: Int, julian: Bool) {
    // Count from 1 March 4801 BC, where both calendars' 400- and 4-year cycles start, and
    // with years that start in March, so that a leap day ends its year. Unsigned, as every
    // count here is positive and unsigned division by a constant is cheaper.
    let number = UInt(truncatingIfNeeded: julianDayNumber)
    var centuries: UInt = 0
    var days = number &+ 32082
    if !julian {
      let gregorianDays = number &+ 32044
      centuries = (4 &* gregorianDays &+ 3) / 146_097
      days = gregorianDays &- 146_097 &* centuries / 4
    }
    let years = (4 &* days &+ 3) / 1461
    let dayOfYear = days &- 1461 &* years / 4
    let shiftedMonth = (5 &* dayOfYear &+ 2) / 153
    day = Int(truncatingIfNeeded: dayOfYear &- (153 &* shiftedMonth &+ 2) / 5 &+ 1)
    month = Int(truncatingIfNeeded: shiftedMonth &+ 3 &- 12 &* (shiftedMonth / 10))
    year = Int(truncatingIfNeeded: 100 &* centuries &+ years &+ shiftedMonth / 10) - 4800
  }
}
