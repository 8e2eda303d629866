import JSONKit
import Vapor

extension ContentConfiguration {
  /// Uses JSONKit's coders for JSON and JSON:API bodies, where Vapor uses
  /// Foundation's by default: one line at start-up.
  ///
  /// ```swift
  /// ContentConfiguration.global.useJSONKit()
  /// ```
  ///
  /// Without arguments, the coders are set up as Vapor sets up its default
  /// Foundation coders: dates as ISO 8601 strings, every other setting as
  /// `JSONEncoder`'s and `JSONDecoder`'s defaults. Pass configured coders
  /// for other settings; they are used as given.
  ///
  /// ```swift
  /// let encoder = JKEncoder()
  /// encoder.keyEncodingStrategy = .convertToSnakeCase
  /// ContentConfiguration.global.useJSONKit(encoder: encoder)
  /// ```
  public mutating func useJSONKit(encoder: JKEncoder? = nil, decoder: JKDecoder? = nil) {
    let encoder = encoder ?? Self.jsonKitEncoder()
    let decoder = decoder ?? Self.jsonKitDecoder()
    for mediaType in [HTTPMediaType.json, .jsonAPI] {
      use(encoder: encoder, for: mediaType)
      use(decoder: decoder, for: mediaType)
    }
  }

  /// A `JKEncoder` with Vapor's default JSON settings.
  private static func jsonKitEncoder() -> JKEncoder {
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// A `JKDecoder` with Vapor's default JSON settings.
  private static func jsonKitDecoder() -> JKDecoder {
    let decoder = JKDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
