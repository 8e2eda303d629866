#if canImport(Combine)
  import Combine
  import Foundation

  /// Combine's decoding operator takes a `JKDecoder` as it takes a
  /// `JSONDecoder`: `publisher.decode(type: User.self, decoder: JKDecoder())`.
  extension JKDecoder: TopLevelDecoder {
    /// What the decoder reads: `Data`, as for `JSONDecoder`.
    public typealias Input = Data
  }
#endif
