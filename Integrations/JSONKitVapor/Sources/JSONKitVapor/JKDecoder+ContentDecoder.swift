import JSONKit
import Vapor

// Retroactive, as neither type is this module's, but safe: JSONKit never
// depends on Vapor, nor Vapor on JSONKit, so no other conformance can clash.

/// `JKDecoder` as Vapor's content decoder, as Vapor makes Foundation's
/// `JSONDecoder` one: replace the type name in the content configuration.
///
/// ```swift
/// ContentConfiguration.global.use(decoder: JKDecoder(), for: .json)
/// ```
///
/// The body's bytes are read in place, without a copy into `Data`. The
/// decoder's strategies, options and `userInfo` apply, and `userInfo`
/// passed by Vapor is merged over the decoder's own, as `JSONDecoder` does.
///
/// Errors are the `DecodingError`s `decode(_:from:)` throws, with the same
/// case and coding path, which Vapor answers with 400 Bad Request, saying
/// the coding path and, for a body that is not JSON, the line, column and
/// byte offset. Code that catches `DecodingError` (Vapor's validations
/// among it) keeps working.
///
/// A gzip body is not inflated here, whatever ``JKDecoder/decompression``
/// says: in Vapor, inflating a request is the server's job. It inflates a
/// body sent with `Content-Encoding: gzip` before any decoder sees it,
/// within the limit set in `app.http.server.configuration.requestDecompression`
/// (by default 25 times the compressed size). Compressed bytes that reach
/// the decoder anyway were not declared as such, and are refused as JSON
/// that is not valid, as `JSONDecoder` refuses them.
// swift-format-ignore: AvoidRetroactiveConformances
extension JKDecoder: @retroactive ContentDecoder {
  /// Decodes the body as JSON; see the extension's comment.
  public func decode<D: Decodable>(
    _ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders
  ) throws -> D {
    try decode(D.self, from: body, headers: headers, userInfo: [:])
  }

  /// Decodes the body as JSON, with `userInfo` merged over the decoder's
  /// own; see the extension's comment.
  public func decode<D: Decodable>(
    _ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
    userInfo: [CodingUserInfoKey: any Sendable]
  ) throws -> D {
    let view = body.readableBytesView
    let inflates = decompression.recognizesGzip && view.starts(with: [0x1F, 0x8B])
    // A copy, as JSONDecoder's conformance makes one: setting a shared
    // decoder's options would race with other requests.
    let decoder = userInfo.isEmpty && !inflates ? self : copy(mergingUserInfo: userInfo)
    do {
      return try decoder.decode(D.self, from: view)
    } catch let error as DecodingError {
      throw error.sayingPositionOnce
    }
  }

  /// A decoder with this one's settings, `userInfo` merged over its own,
  /// that reads gzip as the bytes it is.
  private func copy(mergingUserInfo userInfo: [CodingUserInfoKey: any Sendable]) -> JKDecoder {
    let copy = self.copy()
    copy.decompression = .disabled
    copy.userInfo = self.userInfo.merging(userInfo) { $1 }
    return copy
  }
}

extension DecodingError {
  /// The error with its position said once in Vapor's reason.
  ///
  /// Vapor's reason for a `DecodingError` is its description followed by
  /// the underlying error's. JSONKit's description already ends with where
  /// the error is — the underlying ``JKParseError`` of a syntax error, or
  /// the sentence about the ``JKInputLocation`` of a value — so the reason
  /// would say the position twice; the description keeps Foundation's words
  /// (and any hint about a key's spelling), and the underlying error says
  /// where.
  fileprivate var sayingPositionOnce: DecodingError {
    guard let context = errorContext else { return self }
    let repeated: [String]
    switch context.underlyingError {
    case let parseError as JKParseError:
      repeated = [" \(parseError)"]
    case let location as JKInputLocation:
      repeated = ["value", "key", "object"].map { " The \($0) is around \(location)" }
    default:
      return self
    }
    guard let suffix = repeated.first(where: context.debugDescription.hasSuffix) else {
      return self
    }
    let shortened = DecodingError.Context(
      codingPath: context.codingPath,
      debugDescription: String(context.debugDescription.dropLast(suffix.count)),
      underlyingError: context.underlyingError)
    switch self {
    case .typeMismatch(let type, _): return .typeMismatch(type, shortened)
    case .valueNotFound(let type, _): return .valueNotFound(type, shortened)
    case .keyNotFound(let key, _): return .keyNotFound(key, shortened)
    case .dataCorrupted: return .dataCorrupted(shortened)
    @unknown default: return self
    }
  }

  /// The error's context, whatever its case.
  private var errorContext: Context? {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      context
    @unknown default: nil
    }
  }
}
