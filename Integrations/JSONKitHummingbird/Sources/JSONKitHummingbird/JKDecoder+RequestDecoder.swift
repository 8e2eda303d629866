import Hummingbird
import JSONKit

/// `JKDecoder` reads Hummingbird request bodies, as Hummingbird's own
/// conformance lets `JSONDecoder` do: make it a request context's decoder
/// and every `request.decode(as:context:)` goes through JSONKit.
///
/// ```swift
/// struct AppRequestContext: RequestContext {
///   typealias Decoder = JKDecoder  // ISO 8601 dates, as Hummingbird's default
///   typealias Encoder = JKEncoder
///   var coreContext: CoreRequestContextStorage
///   init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
///
/// or, with strategies of one's own:
///
/// ```swift
///   var requestDecoder: JKDecoder {
///     let decoder = JKDecoder()
///     decoder.keyDecodingStrategy = .convertFromSnakeCase
///     return decoder
///   }
/// ```
// Retroactive because the type and the protocol live in two other modules; safe
// because this module is JSONKit's own answer for Hummingbird, and Hummingbird,
// which does not know JSONKit, will never declare the conformance itself.
// swift-format-ignore: AvoidRetroactiveConformances
extension JKDecoder: @retroactive RequestDecoder {
  /// Decodes a value of type `T` from the request's body, read in place
  /// from the framework's buffer.
  ///
  /// The body is collected up to the context's `maxUploadSize` (more is
  /// Hummingbird's 413 Content Too Large). A gzip body (recognised by its
  /// signature, as ``JKDecoder/decompression`` allows) is inflated to at
  /// most `maxUploadSize` bytes too, or the decoder's own limit if that is
  /// lower; beyond it the request is 413 as well. A body that is not JSON,
  /// or whose JSON does not fit `T`, throws Hummingbird's `HTTPError` 400
  /// whose message says what is wrong and where: the line, column and byte
  /// offset of a syntax error, the coding path of a value that does not
  /// fit. Errors thrown by `T`'s own `init(from:)` that are not
  /// `DecodingError`s pass through unchanged.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - request: The request whose body holds the JSON.
  ///   - context: The request's context, which gives the size limit.
  public func decode<T: Decodable>(
    _ type: T.Type, from request: Request, context: some RequestContext
  ) async throws -> T {
    let body = try await request.body.collect(upTo: context.maxUploadSize)
    let decoder = boundingInflation(of: body, to: context.maxUploadSize)
    do {
      return try decoder.decode(type, from: body.readableBytesView)
    } catch let error as DecodingError {
      throw RequestBodyError.httpError(for: error)
    }
  }

  /// This decoder, or, for a gzip body that could inflate past what the
  /// server accepts, a copy whose inflation stops at `limit`: the
  /// caller's decoder is shared between requests and is never changed.
  private func boundingInflation(of body: ByteBuffer, to limit: Int) -> JKDecoder {
    let decompression = self.decompression
    guard decompression.recognizesGzip, decompression.maxInflatedSize > limit,
      body.readableBytesView.starts(with: [0x1F, 0x8B])
    else {
      return self
    }
    let copy = self.copy()
    copy.decompression = .gzip(maxInflatedSize: limit)
    return copy
  }
}
