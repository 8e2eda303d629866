import Foundation
import Hummingbird
import JSONKit
import JSONKitHummingbird

/// The context an application gets by naming JSONKit's coders: the
/// package's defaults, with a small upload limit so that the tests can
/// exceed it.
struct JSONKitContext: RequestContext {
  typealias Decoder = JKDecoder
  typealias Encoder = JKEncoder
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
  var maxUploadSize: Int { TestApp.maxUploadSize }
}

/// JSONKit's coders with sorted keys, so that their bytes can be compared
/// with Foundation's (whose unsorted key order on Linux changes per run).
struct SortedJSONKitContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
  var maxUploadSize: Int { TestApp.maxUploadSize }
  var requestDecoder: JKDecoder {
    let decoder = JKDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
  var responseEncoder: JKEncoder {
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }
}

/// Hummingbird's own Foundation set-up (ISO 8601 dates), with sorted keys.
struct SortedFoundationContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
  var maxUploadSize: Int { TestApp.maxUploadSize }
  var requestDecoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
  var responseEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }
}

/// A context whose decoder is one instance shared by every request, as an
/// application that keeps its configured decoder in a `static let` has.
struct SharedDecoderContext: RequestContext {
  static let decoder = JKDecoder()
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
  var maxUploadSize: Int { TestApp.maxUploadSize }
  var requestDecoder: JKDecoder { Self.decoder }
  var responseEncoder: JKEncoder { JKEncoder() }
}
