import Foundation
import JSONKit
import JSONKitCorpus

/// The ways a benchmark calls each library to decode one corpus variant into its model.
///
/// "Fresh" makes a decoder (with the model's strategies) in every call, as code that
/// writes `try JSONDecoder().decode(T.self, from: data)` does; "reused" makes one when
/// the calls are made and decodes with it every time. "Generic" goes through
/// the generic `decode(_:_:with:)`; "direct" names the model's type at the call.
/// Every call consumes its result (see ``consume(_:)``).
public struct DecodeCalls {
  /// `JSONDecoder()` made per call, through the generic function.
  public let foundationFresh: (Data) throws -> Void
  /// One `JSONDecoder`, through the generic function.
  public let foundationReused: (Data) throws -> Void
  /// `JKDecoder()` made per call, through the generic function.
  public let jsonKitFresh: (Data) throws -> Void
  /// One `JKDecoder`, through the generic function.
  public let jsonKitReused: (Data) throws -> Void
  /// `JKDecoder()` made per call, the model's type named at the call.
  public let jsonKitDirect: (Data) throws -> Void
  /// `JKDecoder()` made per call with `unknownKeyStrategy = .reject`, through
  /// the generic function.
  public let jsonKitRejecting: (Data) throws -> Void

  /// The calls that decode `variant` into its model: ``Twitter``, ``CITM`` or ``Canada``
  /// with the default strategies, ``TwitterApp`` with `.convertFromSnakeCase` and
  /// `.iso8601` dates.
  public init(_ variant: CorpusVariant) {
    switch (variant.corpus, variant.appStyle) {
    case (.twitter, true):
      self.init(TwitterApp.SearchResult.self, appStyle: true) {
        let decoder = JKDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        consume(try decoder.decode(TwitterApp.SearchResult.self, from: $0))
      }
    case (.twitter, false):
      self.init(Twitter.SearchResult.self, appStyle: false) {
        consume(try JKDecoder().decode(Twitter.SearchResult.self, from: $0))
      }
    case (.citmCatalog, _):
      self.init(CITM.Catalog.self, appStyle: false) {
        consume(try JKDecoder().decode(CITM.Catalog.self, from: $0))
      }
    default:
      self.init(Canada.FeatureCollection.self, appStyle: false) {
        consume(try JKDecoder().decode(Canada.FeatureCollection.self, from: $0))
      }
    }
  }

  private init<Model: Decodable>(
    _ model: Model.Type, appStyle: Bool, direct: @escaping (Data) throws -> Void
  ) {
    func foundation() -> JSONDecoder {
      let decoder = JSONDecoder()
      if appStyle {
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
      }
      return decoder
    }
    func jsonKit(rejecting: Bool = false) -> JKDecoder {
      let decoder = JKDecoder()
      if rejecting { decoder.unknownKeyStrategy = .reject }
      if appStyle {
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
      }
      return decoder
    }
    let foundationDecoder = foundation()
    let jsonKitDecoder = jsonKit()
    foundationFresh = { consume(try decode(Model.self, $0, with: foundation())) }
    foundationReused = { consume(try decode(Model.self, $0, with: foundationDecoder)) }
    jsonKitFresh = { consume(try decode(Model.self, $0, with: jsonKit())) }
    jsonKitReused = { consume(try decode(Model.self, $0, with: jsonKitDecoder)) }
    jsonKitDirect = direct
    jsonKitRejecting = { consume(try decode(Model.self, $0, with: jsonKit(rejecting: true))) }
  }
}
