import Foundation
import JSONKit
import JSONKitCorpus

/// The ways a benchmark calls each library to decode and encode one ``CodableSample``:
/// a column of one value type (``ValueColumns``), the generated orders or the GitHub
/// events, each with its own key and date strategies.
///
/// As ``DecodeCalls``: "fresh" makes the coder, and sets its strategies, in every call,
/// as code that writes `try JSONDecoder().decode(T.self, from: data)` does; "reused" makes
/// one when the calls are made. Every call goes through the generic `decode(_:_:with:)` or
/// `encode(_:with:)`, neither inlined nor specialized, and consumes its result.
public struct SampleCalls {
  /// The sample's name, such as `uuid`, `orders` or `github-events`.
  public let name: String
  /// How many values the sample's top level holds.
  public let count: Int
  /// The sample's JSON, which the decode calls are given.
  public let json: Data
  /// `JSONDecoder()` made per call, through the generic function.
  public let decodeFoundationFresh: (Data) throws -> Void
  /// One `JSONDecoder`, through the generic function.
  public let decodeFoundationReused: (Data) throws -> Void
  /// `JKDecoder()` made per call, through the generic function.
  public let decodeJSONKitFresh: (Data) throws -> Void
  /// One `JKDecoder`, through the generic function.
  public let decodeJSONKitReused: (Data) throws -> Void
  /// `JSONEncoder()` made per call, through the generic function; returns the output.
  public let encodeFoundationFresh: () throws -> Data
  /// One `JSONEncoder`, through the generic function; returns the output.
  public let encodeFoundationReused: () throws -> Data
  /// `JKEncoder()` made per call, through the generic function; returns the output.
  public let encodeJSONKitFresh: () throws -> Data
  /// One `JKEncoder`, through the generic function; returns the output.
  public let encodeJSONKitReused: () throws -> Data
  /// One encoding by each library with `.sortedKeys`, whose bytes are the same on every
  /// run (Foundation's unsorted key order on Linux is not), for comparing them.
  public let sortedOutputs: () throws -> (foundation: Data, jsonKit: Data)

  /// The calls that decode `sample`'s JSON into its value type and encode its value,
  /// compact, with its strategies.
  public init<Value>(_ sample: CodableSample<Value>) {
    let strategies = sample.strategies
    let value = sample.value
    func foundationDecoder() -> JSONDecoder { strategies.foundationDecoder() }
    func jsonKitDecoder() -> JKDecoder { strategies.jsonKitDecoder() }
    func foundationEncoder() -> JSONEncoder { strategies.foundationEncoder() }
    func jsonKitEncoder() -> JKEncoder { strategies.jsonKitEncoder() }
    let reusedFoundationDecoder = foundationDecoder()
    let reusedJSONKitDecoder = jsonKitDecoder()
    let reusedFoundationEncoder = foundationEncoder()
    let reusedJSONKitEncoder = jsonKitEncoder()
    name = sample.name
    count = sample.count
    json = sample.json
    decodeFoundationFresh = { consume(try decode(Value.self, $0, with: foundationDecoder())) }
    decodeFoundationReused = {
      consume(try decode(Value.self, $0, with: reusedFoundationDecoder))
    }
    decodeJSONKitFresh = { consume(try decode(Value.self, $0, with: jsonKitDecoder())) }
    decodeJSONKitReused = { consume(try decode(Value.self, $0, with: reusedJSONKitDecoder)) }
    encodeFoundationFresh = { try encode(value, with: foundationEncoder()) }
    encodeFoundationReused = { try encode(value, with: reusedFoundationEncoder) }
    encodeJSONKitFresh = { try encode(value, with: jsonKitEncoder()) }
    encodeJSONKitReused = { try encode(value, with: reusedJSONKitEncoder) }
    sortedOutputs = {
      let foundation = foundationEncoder()
      foundation.outputFormatting = .sortedKeys
      let jsonKit = jsonKitEncoder()
      jsonKit.outputFormatting = .sortedKeys
      return (try foundation.encode(value), try jsonKit.encode(value))
    }
  }

  /// Every sample by name, in the order the tables show them, with what makes its calls:
  /// the columns of ``ValueColumns`` (20,000 values each; dates, UUIDs and the plain
  /// strings with their text, decimals and the doubles with their numbers, data, URLs, the
  /// enum, the dictionaries, a set, optional strings), then the generated orders and the
  /// GitHub events. A caller
  /// makes only the samples it runs: making them takes a fraction of a second each.
  public static var all: [(name: String, make: () throws -> SampleCalls)] {
    [
      ("date-iso8601", { SampleCalls(try ValueColumns.dates()) }),
      ("date-iso8601-fractional", { SampleCalls(ValueColumns.fractionalDates()) }),
      ("uuid", { SampleCalls(try ValueColumns.uuids()) }),
      ("string", { SampleCalls(try ValueColumns.strings()) }),
      ("decimal", { SampleCalls(try ValueColumns.decimals()) }),
      ("double", { SampleCalls(try ValueColumns.doubles()) }),
      ("data-base64", { SampleCalls(try ValueColumns.datas()) }),
      ("url", { SampleCalls(try ValueColumns.urls()) }),
      ("enum", { SampleCalls(try ValueColumns.statuses()) }),
      ("dictionary-int", { SampleCalls(try ValueColumns.stockBySKU()) }),
      ("dictionary-double", { SampleCalls(try ValueColumns.priceBySKU()) }),
      ("set", { SampleCalls(try ValueColumns.skuSet()) }),
      ("optional", { SampleCalls(try ValueColumns.optionalStrings()) }),
      ("orders", orders),
      ("github-events", githubEvents),
    ]
  }

  /// The calls for the generated orders (``Orders/sample(count:)``, about 1 MB).
  public static func orders() throws -> SampleCalls {
    SampleCalls(try Orders.sample())
  }

  /// The calls for `github_events.json` and ``GitHubEvents``.
  public static func githubEvents() throws -> SampleCalls {
    SampleCalls(try GitHubEvents.sample(in: BenchmarkData.directory))
  }
}

extension CodingStrategies {
  /// A `JSONDecoder` with these strategies.
  public func foundationDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    configure(decoder)
    return decoder
  }

  /// A `JKDecoder` with these strategies.
  public func jsonKitDecoder() -> JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = keyDecoding
    decoder.dateDecodingStrategy = dateDecoding
    return decoder
  }

  /// A `JSONEncoder` with these strategies.
  public func foundationEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    configure(encoder)
    return encoder
  }

  /// A `JKEncoder` with these strategies.
  public func jsonKitEncoder() -> JKEncoder {
    let encoder = JKEncoder()
    encoder.keyEncodingStrategy = keyEncoding
    encoder.dateEncodingStrategy = dateEncoding
    return encoder
  }
}
