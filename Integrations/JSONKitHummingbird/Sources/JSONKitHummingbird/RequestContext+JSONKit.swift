import Hummingbird
import JSONKit

// Hummingbird gives a context whose coders are Foundation's a decoder and an
// encoder that read and write dates as ISO 8601. These give JSONKit's coders
// the same set-up, so that naming them changes no date on the wire.

extension RequestContext where Decoder == JKDecoder {
  /// A `JKDecoder` set up as Hummingbird sets up `JSONDecoder`: dates as
  /// ISO 8601 strings (`.iso8601`), everything else at its default.
  ///
  /// A context picks it by naming the decoder type:
  ///
  /// ```swift
  /// struct AppRequestContext: RequestContext {
  ///   typealias Decoder = JKDecoder
  ///   typealias Encoder = JKEncoder
  ///   var coreContext: CoreRequestContextStorage
  ///   init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
  /// }
  /// ```
  ///
  /// A context that wants other strategies declares `requestDecoder` itself.
  public var requestDecoder: JKDecoder {
    let decoder = JKDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

extension RequestContext where Encoder == JKEncoder {
  /// A `JKEncoder` set up as Hummingbird sets up `JSONEncoder`: dates as
  /// ISO 8601 strings (`.iso8601`), everything else at its default.
  ///
  /// A context picks it with `typealias Encoder = JKEncoder`, or declares
  /// `responseEncoder` itself for other strategies.
  public var responseEncoder: JKEncoder {
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}
