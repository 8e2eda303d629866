import Foundation
import JSONKit
import Testing

/// The result of one decode or encode.
enum OracleOutcome<T> {
  case value(T)
  case error(any Error)

  init(_ body: () throws -> T) {
    do {
      self = .value(try body())
    } catch {
      self = .error(error)
    }
  }

  var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }
}

/// What a `DecodingError` says, in a form two errors can be compared in:
/// the case, the type or key it names, and the coding path by string and
/// int values.
struct DecodingErrorShape: Equatable, CustomStringConvertible {
  let kind: String
  /// The type (`typeMismatch`, `valueNotFound`) or key (`keyNotFound`).
  let subject: String
  let path: [PathKey]
  let message: String

  struct PathKey: Equatable, CustomStringConvertible {
    let string: String
    let int: Int?
    var description: String { int.map { "\(string)#\($0)" } ?? string }
  }

  init?(_ error: any Error) {
    guard let error = error as? DecodingError else { return nil }
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(let type, let c):
      (kind, subject, context) = ("typeMismatch", "\(type)", c)
    case .valueNotFound(let type, let c):
      (kind, subject, context) = ("valueNotFound", "\(type)", c)
    case .keyNotFound(let key, let c):
      (kind, subject, context) = ("keyNotFound", key.stringValue, c)
    case .dataCorrupted(let c):
      (kind, subject, context) = ("dataCorrupted", "", c)
    @unknown default:
      return nil
    }
    path = context.codingPath.map { PathKey(string: $0.stringValue, int: $0.intValue) }
    message = context.debugDescription
  }

  /// Equal in case, subject and path; messages may differ.
  func matches(_ other: DecodingErrorShape) -> Bool {
    kind == other.kind && subject == other.subject && path == other.path
  }

  var description: String {
    "\(kind)(\(subject)) at [\(path.map(\.description).joined(separator: ", "))]: \(message)"
  }
}

/// Foundation's strategies and user info, set on both decoders at once.
struct DecodingSetup: @unchecked Sendable {
  // Unchecked: `.formatted` strategies hold a DateFormatter, used read-only.
  var keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
  var dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
  var data: JSONDecoder.DataDecodingStrategy = .base64
  var floats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  var foundation: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = keys
    decoder.dateDecodingStrategy = dates
    decoder.dataDecodingStrategy = data
    decoder.nonConformingFloatDecodingStrategy = floats
    decoder.userInfo = userInfo
    return decoder
  }

  var jsonKit: JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = keys
    decoder.dateDecodingStrategy = dates
    decoder.dataDecodingStrategy = data
    decoder.nonConformingFloatDecodingStrategy = floats
    decoder.userInfo = userInfo
    return decoder
  }
}

/// Decodes with Foundation and JSONKit and compares the results.
enum DecodingOracle {
  /// How two decodes compared.
  enum Verdict: Equatable {
    case sameValue
    case sameError
    /// Foundation's number-conversion error: `dataCorrupted` with a path
    /// that is a prefix of JSONKit's, which leads to the number.
    case numberPathDifference
    case different(String)
  }

  static func compare<T>(
    _ foundation: OracleOutcome<T>, _ ours: OracleOutcome<T>, document: OracleJSON? = nil,
    equal: (T, T) -> Bool
  ) -> Verdict {
    switch (foundation, ours) {
    case (.value(let theirs), .value(let mine)):
      if equal(theirs, mine) { return .sameValue }
      if let theirs = theirs as? OracleValue, let mine = mine as? OracleValue {
        if let difference = theirs.firstDifference(from: mine) {
          return .different("values differ (Foundation vs JSONKit) at \(difference)")
        }
      }
      return .different("values differ:\n  Foundation \(theirs)\n  JSONKit    \(mine)")
    case (.error(let theirs), .value(let mine)):
      return .different("Foundation threw \(describe(theirs)); JSONKit gave \(mine)")
    case (.value(let theirs), .error(let mine)):
      return .different("Foundation gave \(theirs); JSONKit threw \(describe(mine))")
    case (.error(let theirs), .error(let mine)):
      guard let theirShape = DecodingErrorShape(theirs), let myShape = DecodingErrorShape(mine)
      else {
        return "\(theirs)" == "\(mine)"
          ? .sameError : .different("errors differ: \(theirs) / \(mine)")
      }
      if theirShape.matches(myShape) { return .sameError }
      if isNumberPathDifference(foundation: theirShape, ours: myShape, document: document) {
        return .numberPathDifference
      }
      return .different("errors differ:\n  Foundation \(theirShape)\n  JSONKit    \(myShape)")
    }
  }

  /// The documented difference (a): Foundation reports a number that does
  /// not fit its type as invalid JSON at the root (or a shorter path), and
  /// JSONKit says which number, at its full path.
  static func isNumberPathDifference(
    foundation: DecodingErrorShape, ours: DecodingErrorShape, document: OracleJSON?
  ) -> Bool {
    guard foundation.kind == "dataCorrupted", ours.kind == "dataCorrupted",
      ours.message.hasPrefix("Number "),
      foundation.path.count < ours.path.count,
      Array(ours.path.prefix(foundation.path.count)) == foundation.path
    else { return false }
    guard let document else { return true }
    let keys = ours.path.map { key -> any CodingKey in
      key.int.map { OracleKey(intValue: $0) } ?? OracleKey(stringValue: key.string)
    }
    return document.resolve(keys)?.isNumber ?? true
  }

  static func describe(_ error: any Error) -> String {
    DecodingErrorShape(error)?.description ?? "\(error)"
  }

  /// Decodes `json` as `type` with both decoders and expects the same value
  /// or the same error.
  @discardableResult
  static func expectSame<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, _ setup: DecodingSetup = DecodingSetup(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Verdict {
    let data = Data(json.utf8)
    let foundation = OracleOutcome { try setup.foundation.decode(type, from: data) }
    let ours = OracleOutcome { try setup.jsonKit.decode(type, from: data) }
    let verdict = compare(foundation, ours, equal: ==)
    if case .different(let difference) = verdict {
      Issue.record("\(json)\n\(difference)", sourceLocation: sourceLocation)
    }
    return verdict
  }

  /// The error JSONKit throws for `json`, as a shape.
  static func ourError<T: Decodable>(
    _ type: T.Type, _ json: String, _ setup: DecodingSetup = DecodingSetup()
  ) -> DecodingErrorShape? {
    OracleOutcome { try setup.jsonKit.decode(type, from: Data(json.utf8)) }.error.flatMap(
      DecodingErrorShape.init)
  }

  /// The error Foundation throws for `json`, as a shape.
  static func foundationError<T: Decodable>(
    _ type: T.Type, _ json: String, _ setup: DecodingSetup = DecodingSetup()
  ) -> DecodingErrorShape? {
    OracleOutcome { try setup.foundation.decode(type, from: Data(json.utf8)) }.error.flatMap(
      DecodingErrorShape.init)
  }
}
