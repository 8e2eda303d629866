/// A value stored out of line, so that a model can hold a value of its own type.
///
/// A struct cannot contain itself, and a tweet can contain the tweet it retweets;
/// `Indirect<Status>?` breaks the cycle. It encodes and decodes exactly as the
/// wrapped value does, with no extra level in the JSON.
public indirect enum Indirect<Wrapped> {
  /// The wrapped value.
  case wrapped(Wrapped)

  /// The wrapped value.
  public var value: Wrapped {
    switch self {
    case .wrapped(let value): value
    }
  }
}

extension Indirect: Equatable where Wrapped: Equatable {}
extension Indirect: Hashable where Wrapped: Hashable {}
extension Indirect: Sendable where Wrapped: Sendable {}

extension Indirect: Decodable where Wrapped: Decodable {
  /// Decodes the wrapped value from `decoder` itself, adding no nesting.
  public init(from decoder: any Decoder) throws {
    self = .wrapped(try Wrapped(from: decoder))
  }
}

extension Indirect: Encodable where Wrapped: Encodable {
  /// Encodes the wrapped value into `encoder` itself, adding no nesting.
  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}
