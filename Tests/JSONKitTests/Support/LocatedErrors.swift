import Foundation
import JSONKit

extension DecodingError.Context {
  /// The description without the place JSONKit adds at its end (" The value
  /// is around line …"), which must name the error's own location: the
  /// words that Foundation's error has.
  func wordsWithoutLocation(_ location: JKInputLocation?) -> String {
    guard let location, underlyingError is JKInputLocation else { return debugDescription }
    for place in ["The value", "The object", "The key"] {
      let suffix = " \(place) is around \(location)"
      if debugDescription.hasSuffix(suffix) {
        return String(debugDescription.dropLast(suffix.count))
      }
    }
    return debugDescription
  }
}
