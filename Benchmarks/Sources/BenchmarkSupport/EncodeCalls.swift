import Foundation
import JSONKit
import JSONKitCorpus

/// The ways a benchmark calls each library to encode one corpus's model, decoded once
/// from the corpus file when the calls are made.
///
/// As ``DecodeCalls``: "fresh" makes an encoder (with the formatting) in every call, as
/// code that writes `try JSONEncoder().encode(value)` does; "reused" makes one when the
/// calls are made; "generic" goes through the generic `encode(_:with:)`, "direct" names
/// the model's type at the call. Every call consumes its result.
public struct EncodeCalls {
  /// `JSONEncoder()` made per call, through the generic function.
  public let foundationFresh: () throws -> Void
  /// `JKEncoder()` made per call, through the generic function.
  public let jsonKitFresh: () throws -> Void
  /// One `JKEncoder`, through the generic function.
  public let jsonKitReused: () throws -> Void
  /// `JKEncoder()` made per call, the model's type named at the call.
  public let jsonKitDirect: () throws -> Void
  /// One encoding by each library, for comparing their bytes.
  public let outputs: () throws -> (foundation: Data, jsonKit: Data)

  /// The calls that encode the model of `corpus` (``Twitter``, ``CITM`` or ``Canada``),
  /// decoded from `data`, its file's bytes, with `formatting`.
  public init(_ corpus: Corpus, _ formatting: EncodeFormatting, from data: Data) throws {
    switch corpus {
    case .twitter:
      let value = try JSONDecoder().decode(Twitter.SearchResult.self, from: data)
      self.init(value, formatting) {
        let encoder = JKEncoder()
        encoder.outputFormatting = formatting.jsonKit
        consume(try encoder.encode(value))
      }
    case .citmCatalog:
      let value = try JSONDecoder().decode(CITM.Catalog.self, from: data)
      self.init(value, formatting) {
        let encoder = JKEncoder()
        encoder.outputFormatting = formatting.jsonKit
        consume(try encoder.encode(value))
      }
    default:
      precondition(corpus == .canada, "\(corpus.fileName) has no model to encode")
      let value = try JSONDecoder().decode(Canada.FeatureCollection.self, from: data)
      self.init(value, formatting) {
        let encoder = JKEncoder()
        encoder.outputFormatting = formatting.jsonKit
        consume(try encoder.encode(value))
      }
    }
  }

  private init<Model: Encodable>(
    _ value: Model, _ formatting: EncodeFormatting, direct: @escaping () throws -> Void
  ) {
    func foundation() -> JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = formatting.foundation
      return encoder
    }
    func jsonKit() -> JKEncoder {
      let encoder = JKEncoder()
      encoder.outputFormatting = formatting.jsonKit
      return encoder
    }
    let jsonKitEncoder = jsonKit()
    foundationFresh = { consume(try encode(value, with: foundation())) }
    jsonKitFresh = { consume(try encode(value, with: jsonKit())) }
    jsonKitReused = { consume(try encode(value, with: jsonKitEncoder)) }
    jsonKitDirect = direct
    outputs = { (try encode(value, with: foundation()), try encode(value, with: jsonKit())) }
  }
}
