import Hummingbird
import JSONKit
import JSONKitHummingbird
import Testing

// The set-up that README and the documentation's server article show, word
// for word, so that the build checks it.

struct AppRequestContext: RequestContext {
  typealias Decoder = JKDecoder
  typealias Encoder = JKEncoder
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}

@Suite("The documented set-up")
struct DocumentationSnippetTests {
  @Test("The documented context's coders are JSONKit's")
  func documentedContextUsesJSONKit() {
    #expect(AppRequestContext.Decoder.self == JKDecoder.self)
    #expect(AppRequestContext.Encoder.self == JKEncoder.self)
  }
}
