import Hummingbird
import JSONKit

/// Turns JSONKit's decoding errors into the responses a client can act on.
///
/// Hummingbird's `request.decode(as:context:)` answers a `DecodingError`
/// with 400 but keeps only part of it (no line or column, and only the last
/// key of a missing key's path) and answers any other error with 500; the
/// decoder throws an `HTTPError` instead, which Hummingbird passes through.
enum RequestBodyError {
  /// Hummingbird's error for a body the decoder rejected: 400 whose message
  /// says what and where, or 413 for gzip that inflates past the limit.
  static func httpError(for error: DecodingError) -> HTTPError {
    switch error {
    case .dataCorrupted(let context):
      if let parseError = context.underlyingError as? JKParseError,
        parseError.kind == .inflatedTooLarge
      {
        return HTTPError(.contentTooLarge, message: context.debugDescription)
      }
      if context.codingPath.isEmpty {
        return HTTPError(.badRequest, message: context.debugDescription)
      }
      return badRequest("Invalid value", context)
    case .typeMismatch(_, let context):
      return badRequest("Type mismatch", context)
    case .valueNotFound(_, let context):
      return badRequest("Value not found", context)
    case .keyNotFound(let key, let context):
      return badRequest("Key not found", context, path: context.codingPath + [key])
    @unknown default:
      return HTTPError(.badRequest, message: String(describing: error))
    }
  }

  private static func badRequest(
    _ what: String, _ context: DecodingError.Context, path: [any CodingKey]? = nil
  ) -> HTTPError {
    let place = describe(path ?? context.codingPath)
    return HTTPError(.badRequest, message: "\(what) at \(place): \(context.debugDescription)")
  }

  /// A coding path as a reader writes it: `statuses[0].user.id`, or
  /// `the top level` for the empty path.
  static func describe(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the top level" }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }
}
