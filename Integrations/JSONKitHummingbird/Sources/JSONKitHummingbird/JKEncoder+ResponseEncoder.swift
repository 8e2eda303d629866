import Hummingbird
import JSONKit

/// `JKEncoder` writes Hummingbird responses, as Hummingbird's own
/// conformance lets `JSONEncoder` do: name it as a request context's
/// encoder and every `Encodable` a route returns (a `ResponseEncodable`
/// type, or an `HTTPError`'s message) goes through JSONKit.
///
/// ```swift
/// typealias Encoder = JKEncoder  // ISO 8601 dates, as Hummingbird's default
/// ```
///
/// or, with strategies of one's own:
///
/// ```swift
/// var responseEncoder: JKEncoder {
///   let encoder = JKEncoder()
///   encoder.outputFormatting = .sortedKeys
///   return encoder
/// }
/// ```
// Retroactive because the type and the protocol live in two other modules; safe
// because this module is JSONKit's own answer for Hummingbird, and Hummingbird,
// which does not know JSONKit, will never declare the conformance itself.
// swift-format-ignore: AvoidRetroactiveConformances
extension JKEncoder: @retroactive ResponseEncoder {
  /// Encodes `value` as the body of a 200 OK response with
  /// `Content-Type: application/json; charset=utf-8` and its
  /// `Content-Length`, as Hummingbird does for `JSONEncoder`.
  ///
  /// The encoded bytes go straight into the response's buffer, with no
  /// `Data` on the way. Encoding errors (`EncodingError`, such as a NaN the
  /// non-conforming-float strategy does not allow) are the server's fault,
  /// not the client's, and pass through unchanged: Hummingbird answers
  /// them with 500.
  ///
  /// - Parameters:
  ///   - value: The value to encode.
  ///   - request: The request being answered.
  ///   - context: The request's context.
  public func encode(
    _ value: some Encodable, from request: Request, context: some RequestContext
  ) throws -> Response {
    let buffer = try withEncodedBytes(of: value) { ByteBuffer(bytes: $0) }
    return Response(
      status: .ok,
      headers: [
        .contentType: "application/json; charset=utf-8",
        .contentLength: String(buffer.readableBytes),
      ],
      body: ResponseBody(byteBuffer: buffer)
    )
  }
}
