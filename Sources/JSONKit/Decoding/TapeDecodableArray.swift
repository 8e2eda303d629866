/// Arrays, decoded straight from the tape with exactly the capacity they
/// need, as the standard library's `Array.init(from:)` would decode them.
protocol TapeDecodableArray {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
}

extension Array: TapeDecodableArray where Element: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    let array = session[index]
    var result: [Element] = []
    result.reserveCapacity(array.childCount)
    var position = index + 1
    while position < array.containerEnd {
      result.append(
        try session.unwrap(
          Element.self, at: position,
          path: session.codingPath(to: index) + [AnyCodingKey(intValue: result.count)]))
      position = session.indexAfter(position)
    }
    return result
  }
}
