import Foundation
import JSONKit
import Testing

/// Ordinary code written for `JSONDecoder` and `JSONEncoder`, with only those
/// two names changed to `JKDecoder` and `JKEncoder`. It reaches every nested
/// type, case, static member and initialiser that such code uses, spelled
/// as Foundation spells them, so this file stops compiling if one is
/// missing; the results are the ones Foundation gives for the same code.
@Suite("Foundation code after renaming the types")
struct FoundationSpellingTests {
  struct Reading: Codable, Equatable {
    var sensorName: String
    var takenAt: Date
    var raw: Data
    var value: Double
  }

  /// A value that needs a configuration, as in Foundation's documentation.
  struct Scaled: EncodableWithConfiguration, DecodableWithConfiguration, Equatable {
    typealias EncodingConfiguration = Int
    typealias DecodingConfiguration = Int
    var value: Int

    init(value: Int) { self.value = value }

    init(from decoder: any Decoder, configuration: Int) throws {
      value = try decoder.singleValueContainer().decode(Int.self) / configuration
    }

    func encode(to encoder: any Encoder, configuration: Int) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value * configuration)
    }
  }

  enum Hundred: EncodingConfigurationProviding, DecodingConfigurationProviding {
    static var encodingConfiguration: Int { 100 }
    static var decodingConfiguration: Int { 100 }
  }

  static let source = CodingUserInfoKey(rawValue: "source")!

  static func makeEncoder() -> JKEncoder {
    let encoder = JKEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.outputFormatting = JKEncoder.OutputFormatting.sortedKeys
    encoder.outputFormatting.insert(JKEncoder.OutputFormatting(rawValue: 1 << 3))
    encoder.keyEncodingStrategy = JKEncoder.KeyEncodingStrategy.convertToSnakeCase
    encoder.dateEncodingStrategy = JKEncoder.DateEncodingStrategy.secondsSince1970
    encoder.dataEncodingStrategy = JKEncoder.DataEncodingStrategy.base64
    encoder.nonConformingFloatEncodingStrategy =
      JKEncoder.NonConformingFloatEncodingStrategy.convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    encoder.userInfo[source] = "sensor"
    return encoder
  }

  static func makeDecoder() -> JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = JKDecoder.KeyDecodingStrategy.convertFromSnakeCase
    decoder.dateDecodingStrategy = JKDecoder.DateDecodingStrategy.secondsSince1970
    decoder.dataDecodingStrategy = JKDecoder.DataDecodingStrategy.base64
    decoder.nonConformingFloatDecodingStrategy =
      JKDecoder.NonConformingFloatDecodingStrategy.convertFromString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    decoder.userInfo[source] = "sensor"
    return decoder
  }

  @Test func aReadingRoundTripsWithFoundationsSpellings() throws {
    let reading = Reading(
      sensorName: "a/b", takenAt: Date(timeIntervalSince1970: 1_700_000_000),
      raw: Data([1, 2, 3]), value: .infinity)
    let data = try Self.makeEncoder().encode(reading)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"raw":"AQID","sensor_name":"a/b","taken_at":1700000000,"value":"+inf"}"#)
    #expect(try Self.makeDecoder().decode(Reading.self, from: data) == reading)
  }

  @Test func everyStrategyCaseIsSpelledAsInFoundation() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd"
    let dates: [JKEncoder.DateEncodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601, .formatted(formatter),
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(date.timeIntervalSince1970 / 86_400)
      },
    ]
    let readDates: [JKDecoder.DateDecodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601, .formatted(formatter),
      .custom { decoder in
        Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 86_400)
      },
    ]
    let day = Date(timeIntervalSince1970: 86_400 * 19_000)
    for (write, read) in zip(dates, readDates) {
      let encoder = JKEncoder()
      encoder.dateEncodingStrategy = write
      let decoder = JKDecoder()
      decoder.dateDecodingStrategy = read
      #expect(try decoder.decode([Date].self, from: encoder.encode([day])) == [day])
    }

    let encoder = JKEncoder()
    let decoder = JKDecoder()
    encoder.dataEncodingStrategy = .deferredToData
    decoder.dataDecodingStrategy = .deferredToData
    #expect(try decoder.decode(Data.self, from: encoder.encode(Data([7]))) == Data([7]))
    encoder.dataEncodingStrategy = .custom { data, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(data.count)
    }
    decoder.dataDecodingStrategy = .custom { decoder in
      Data(count: try decoder.singleValueContainer().decode(Int.self))
    }
    #expect(try decoder.decode(Data.self, from: encoder.encode(Data([7, 8]))) == Data([0, 0]))

    encoder.nonConformingFloatEncodingStrategy = .throw
    decoder.nonConformingFloatDecodingStrategy = .throw
    #expect(throws: EncodingError.self) { try encoder.encode(Double.nan) }

    encoder.keyEncodingStrategy = .useDefaultKeys
    decoder.keyDecodingStrategy = .useDefaultKeys
    encoder.keyEncodingStrategy = .custom { path in path.last! }
    decoder.keyDecodingStrategy = .custom { path in path.last! }
    let keyed = try encoder.encode(["k": 1])
    #expect(try decoder.decode([String: Int].self, from: keyed) == ["k": 1])

    encoder.outputFormatting = .prettyPrinted
    #expect(String(decoding: try encoder.encode([1]), as: UTF8.self) == "[\n  1\n]")
  }

  @Test func configurationsAreGivenAsInFoundation() throws {
    let encoder = JKEncoder()
    let decoder = JKDecoder()
    let bytes = try encoder.encode(Scaled(value: 3), configuration: 10)
    #expect(String(decoding: bytes, as: UTF8.self) == "30")
    #expect(try decoder.decode(Scaled.self, from: bytes, configuration: 10) == Scaled(value: 3))
    let hundred = try encoder.encode(Scaled(value: 2), configuration: Hundred.self)
    #expect(String(decoding: hundred, as: UTF8.self) == "200")
    #expect(
      try decoder.decode(Scaled.self, from: hundred, configuration: Hundred.self)
        == Scaled(value: 2))
  }
}
