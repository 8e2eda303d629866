import Foundation
import JSONKit
import Testing

/// How one decode ended, in a form that the outcomes of two decoders can be
/// compared in: the value, or the error's case and coding path.
enum DecodeParityOutcome<T: Equatable>: Equatable, CustomStringConvertible {
  case value(T)
  case error(kind: String, path: ParityPath)

  init(_ body: () throws -> T) {
    do {
      self = .value(try body())
    } catch let error as DecodingError {
      switch error {
      case .typeMismatch(_, let context):
        self = .error(kind: "typeMismatch", path: ParityPath(context.codingPath))
      case .valueNotFound(_, let context):
        self = .error(kind: "valueNotFound", path: ParityPath(context.codingPath))
      case .keyNotFound(let key, let context):
        self = .error(
          kind: "keyNotFound(\(key.stringValue)#\(key.intValue.map(String.init) ?? "-"))",
          path: ParityPath(context.codingPath))
      case .dataCorrupted(let context):
        self = .error(kind: "dataCorrupted", path: ParityPath(context.codingPath))
      @unknown default:
        self = .error(kind: "\(error)", path: ParityPath([]))
      }
    } catch {
      self = .error(kind: "not a DecodingError: \(error)", path: ParityPath([]))
    }
  }

  var description: String {
    switch self {
    case .value(let value): "value \(value)"
    case .error(let kind, let path): "\(kind) at \(path)"
    }
  }
}

/// Decodes `json` as `type` with `JSONDecoder` and with `JKDecoder`, set
/// alike, and expects the same value or the same error at the same path.
@discardableResult
func expectSameDecoding<T: Decodable & Equatable>(
  _ type: T.Type, _ json: String,
  keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
  sourceLocation: SourceLocation = #_sourceLocation
) -> DecodeParityOutcome<T> {
  let foundation = JSONDecoder()
  foundation.keyDecodingStrategy = keys
  let jsonKit = JKDecoder()
  jsonKit.keyDecodingStrategy = keys
  let theirs = DecodeParityOutcome { try foundation.decode(type, from: Data(json.utf8)) }
  let ours = DecodeParityOutcome { try jsonKit.decode(type, from: Data(json.utf8)) }
  #expect(theirs == ours, "\(json) as \(T.self)", sourceLocation: sourceLocation)
  return ours
}

/// How a decode ended, with the message of a `dataCorrupted` error: for the
/// values whose error text is their own initializer's or strategy's
/// ("Attempted to decode UUID from invalid UUID string.", "Encountered Data
/// is not valid Base64."), which JSONKit must give word for word.
struct MessagedDecodeOutcome<T: Equatable>: Equatable, CustomStringConvertible {
  let outcome: DecodeParityOutcome<T>
  let message: String?

  init(_ body: () throws -> T) {
    var message: String?
    outcome = DecodeParityOutcome {
      do {
        return try body()
      } catch DecodingError.dataCorrupted(let context) {
        message = context.debugDescription
        throw DecodingError.dataCorrupted(context)
      }
    }
    self.message = message
  }

  var description: String { message.map { "\(outcome): \($0)" } ?? "\(outcome)" }
}

extension FoundationParityTests {
  /// Decodes `json` with `JSONDecoder` and `JKDecoder` and expects the same
  /// value, or the same error at the same path, with the same message when
  /// it is `dataCorrupted`.
  static func expectSameDecodingAndMessage<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let theirs = MessagedDecodeOutcome { try JSONDecoder().decode(type, from: Data(json.utf8)) }
    let ours = MessagedDecodeOutcome { try JKDecoder().decode(type, from: Data(json.utf8)) }
    #expect(ours == theirs, "\(json.prefix(200)) as \(T.self)", sourceLocation: sourceLocation)
  }
}
