import Foundation

/// The key and date strategies that a generated or modelled document is decoded and
/// encoded with, as values, so that a module that can name JSONKit's coders configures
/// them the same way as Foundation's.
///
/// JSONKit's `JKDecoder` and `JKEncoder` use Foundation's strategy types, so each of
/// these values sets either library's coder:
///
/// ```swift
/// let decoder = JSONDecoder()
/// GitHubEvents.strategies.configure(decoder)
/// ```
public struct CodingStrategies: Sendable {
  /// How JSON keys are matched with coding keys when decoding.
  public var keyDecoding: JSONDecoder.KeyDecodingStrategy
  /// How coding keys are written as JSON keys when encoding.
  public var keyEncoding: JSONEncoder.KeyEncodingStrategy
  /// How dates are read.
  public var dateDecoding: JSONDecoder.DateDecodingStrategy
  /// How dates are written.
  public var dateEncoding: JSONEncoder.DateEncodingStrategy

  /// Strategies with the given keys and dates.
  public init(
    keyDecoding: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
    keyEncoding: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys,
    dateDecoding: JSONDecoder.DateDecodingStrategy,
    dateEncoding: JSONEncoder.DateEncodingStrategy
  ) {
    self.keyDecoding = keyDecoding
    self.keyEncoding = keyEncoding
    self.dateDecoding = dateDecoding
    self.dateEncoding = dateEncoding
  }

  /// Keys as the properties spell them, dates in ISO 8601 (`.iso8601` both ways).
  public static let iso8601 = CodingStrategies(dateDecoding: .iso8601, dateEncoding: .iso8601)

  /// snake_case keys for camelCase properties (`.convertFromSnakeCase`,
  /// `.convertToSnakeCase`) and ISO 8601 dates.
  public static let snakeCaseISO8601 = CodingStrategies(
    keyDecoding: .convertFromSnakeCase, keyEncoding: .convertToSnakeCase,
    dateDecoding: .iso8601, dateEncoding: .iso8601)

  /// Sets `decoder`'s key and date strategies to these.
  public func configure(_ decoder: JSONDecoder) {
    decoder.keyDecodingStrategy = keyDecoding
    decoder.dateDecodingStrategy = dateDecoding
  }

  /// Sets `encoder`'s key and date strategies to these.
  public func configure(_ encoder: JSONEncoder) {
    encoder.keyEncodingStrategy = keyEncoding
    encoder.dateEncodingStrategy = dateEncoding
  }
}
