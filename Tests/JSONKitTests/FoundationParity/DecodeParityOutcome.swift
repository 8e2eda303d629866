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
      } catch let error as DecodingError {
        // JSONKit's place, added after Foundation's words, must be the
        // error's own location; the words before it are compared.
        if case .dataCorrupted(let context) = error {
          message = context.wordsWithoutLocation(error.jsonLocation)
        }
        throw error
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

extension FoundationParityTests {
  /// Expects JSONKit's reader of a value's text (`ours`, given the text's
  /// UTF-8 bytes) to give Foundation's answer (`theirs`) on every text, nil
  /// where Foundation gives none, and the set to hold at least `minimum`
  /// texts each that Foundation reads and refuses, so that both sides are
  /// tested.
  static func expectReadsAsFoundation<Value: Equatable>(
    _ texts: [String], minimum: Int, ours: (UnsafeBufferPointer<UInt8>) -> Value?,
    theirs: (String) -> Value?, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var read = 0
    for text in texts {
      var text = text
      let answer = theirs(text)
      #expect(
        text.withUTF8(ours) == answer, "\(text.debugDescription)", sourceLocation: sourceLocation)
      if answer != nil {
        read += 1
      }
    }
    #expect(read > minimum, sourceLocation: sourceLocation)
    #expect(texts.count - read > minimum, sourceLocation: sourceLocation)
  }

  /// Expects `ours` to read each of `bases` with any one byte replaced as
  /// Foundation's `theirs` reads that text, and to refuse a byte above 0x7F
  /// alone, which no `String` holds.
  static func expectEveryByteAtEveryPositionReadsAsFoundation<Value: Equatable>(
    _ bases: [String], ours: (UnsafeBufferPointer<UInt8>) -> Value?,
    theirs: (String) -> Value?, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for base in bases {
      for position in 0..<base.utf8.count {
        for byte in UInt8(0)...UInt8(255) {
          var bytes = Array(base.utf8)
          bytes[position] = byte
          let answer = bytes.withUnsafeBufferPointer(ours)
          if byte < 0x80 {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(
              answer == theirs(text), "\(text.debugDescription)", sourceLocation: sourceLocation)
          } else {
            #expect(
              answer == nil, "byte \(byte) at \(position) of \(base)",
              sourceLocation: sourceLocation)
          }
        }
      }
    }
  }
}
