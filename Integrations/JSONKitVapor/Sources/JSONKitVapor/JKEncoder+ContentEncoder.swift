import JSONKit
import Vapor

// Retroactive, as neither type is this module's, but safe: JSONKit never
// depends on Vapor, nor Vapor on JSONKit, so no other conformance can clash.

/// `JKEncoder` as Vapor's content encoder, as Vapor makes Foundation's
/// `JSONEncoder` one: replace the type name in the content configuration.
///
/// ```swift
/// ContentConfiguration.global.use(encoder: JKEncoder(), for: .json)
/// ```
///
/// The JSON is written straight into the response's buffer, with no `Data`
/// on the way, and the response says `Content-Type: application/json;
/// charset=utf-8`, as with `JSONEncoder`. The encoder's strategies, output
/// formatting and `userInfo` apply, and `userInfo` passed by Vapor is merged
/// over the encoder's own, as `JSONEncoder` does. An encoder whose
/// ``JKEncoder/compression`` is gzip also says `Content-Encoding: gzip`.
///
/// When encoding fails, the body and headers are left as they were and the
/// `EncodingError` is thrown, which Vapor answers with 500, as for
/// `JSONEncoder`: a value that cannot be written is the server's fault.
// swift-format-ignore: AvoidRetroactiveConformances
extension JKEncoder: @retroactive ContentEncoder {
  /// Encodes `encodable` as the body; see the extension's comment.
  public func encode<E: Encodable>(
    _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders
  ) throws {
    try encode(encodable, to: &body, headers: &headers, userInfo: [:])
  }

  /// Encodes `encodable` as the body, with `userInfo` merged over the
  /// encoder's own; see the extension's comment.
  public func encode<E: Encodable>(
    _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
    userInfo: [CodingUserInfoKey: any Sendable]
  ) throws {
    // A copy, as JSONEncoder's conformance makes one: setting a shared
    // encoder's options would race with other responses.
    let encoder = userInfo.isEmpty ? self : copy(mergingUserInfo: userInfo)
    _ = try encoder.withEncodedBytes(of: encodable) { body.writeBytes($0) }
    headers.contentType = .json
    if encoder.compression != .none {
      headers.replaceOrAdd(name: .contentEncoding, value: "gzip")
    }
  }

  /// An encoder with this one's settings, `userInfo` merged over its own.
  private func copy(mergingUserInfo userInfo: [CodingUserInfoKey: any Sendable]) -> JKEncoder {
    let copy = self.copy()
    copy.userInfo = self.userInfo.merging(userInfo) { $1 }
    return copy
  }
}
