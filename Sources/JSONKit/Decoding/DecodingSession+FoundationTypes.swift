import Foundation

/// Foundation's types that JSONDecoder reads specially: `Date`, `Data` and
/// `URL`, each by its strategy.
extension DecodingSession {
  func date(at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int) throws
    -> Date
  {
    // As Foundation: null is missing whatever the strategy (a custom one is not asked).
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(Date.self, path: path()) }
    let decoder = TapeDecoder(session: self, index: index)
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: decoder)
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()) / 1000)
    case .iso8601:
      let text = try string(at: index, path: path())
      guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
        // At the asking decoder's path, as Foundation reports it.
        throw DecodingErrors.corrupted(
          "Expected date string to be ISO8601-formatted.", path: path().dropLast(depth))
      }
      return date
    #if canImport(Darwin)
      // Elsewhere Foundation spells `.formatted` as a `.custom` closure.
      case .formatted(let formatter):
        let text = try string(at: index, path: path())
        guard let date = formatter.date(from: text) else {
          throw DecodingErrors.corrupted(
            "Date string does not match format expected by formatter.", path: path())
        }
        return date
    #endif
    case .custom(let closure):
      return try closure(decoder)
    @unknown default:
      return try Date(from: decoder)
    }
  }

  func data(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Data {
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(Data.self, path: path()) }
    let decoder = TapeDecoder(session: self, index: index)
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: decoder)
    case .base64:
      let text = try string(at: index, path: path())
      guard let data = Data(base64Encoded: text) else {
        throw DecodingErrors.corrupted("Encountered Data is not valid Base64.", path: path())
      }
      return data
    case .custom(let closure):
      return try closure(decoder)
    @unknown default:
      return try Data(from: decoder)
    }
  }

  func url(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> URL {
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(URL.self, path: path()) }
    let text = try string(at: index, path: path())
    guard let url = URL(string: text) else {
      throw DecodingErrors.corrupted("Invalid URL string.", path: path())
    }
    return url
  }
}
