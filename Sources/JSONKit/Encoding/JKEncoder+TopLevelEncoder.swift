#if canImport(Combine)
  import Combine
  import Foundation

  /// Combine's encoding operator takes a `JKEncoder` as it takes a
  /// `JSONEncoder`: `publisher.encode(encoder: JKEncoder())`.
  extension JKEncoder: TopLevelEncoder {
    /// What the encoder writes: `Data`, as for `JSONEncoder`.
    public typealias Output = Data
  }
#endif
