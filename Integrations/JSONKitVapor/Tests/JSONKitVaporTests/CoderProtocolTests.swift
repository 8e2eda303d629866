import Foundation
import JSONKit
import JSONKitVapor
import Testing
import Vapor

/// A value that records what its coder's `userInfo` held.
struct UserInfoProbe: Codable, Equatable {
  static let own = CodingUserInfoKey(rawValue: "own")!
  static let shared = CodingUserInfoKey(rawValue: "shared")!

  var own: String?
  var shared: String?

  init(own: String?, shared: String?) {
    self.own = own
    self.shared = shared
  }

  init(from decoder: any Decoder) throws {
    _ = try decoder.singleValueContainer().decode([String: String].self)
    own = decoder.userInfo[Self.own] as? String
    shared = decoder.userInfo[Self.shared] as? String
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode([
      "own": encoder.userInfo[Self.own] as? String ?? "-",
      "shared": encoder.userInfo[Self.shared] as? String ?? "-",
    ])
  }
}

@Suite("Vapor's content coder protocols")
struct CoderProtocolTests {
  @Test(
    "useJSONKit puts JSONKit's coders on JSON and JSON:API, with Vapor's default settings",
    arguments: [HTTPMediaType.json, .jsonAPI])
  func useJSONKitKeepsVaporsDefaults(mediaType: HTTPMediaType) throws {
    var configuration = ContentConfiguration.default()
    configuration.useJSONKit()
    let encoder = try configuration.requireEncoder(for: mediaType)
    let decoder = try configuration.requireDecoder(for: mediaType)
    #expect(encoder is JKEncoder)
    #expect(decoder is JKDecoder)

    let dates = [Date(timeIntervalSince1970: 1_700_000_000)]
    var written = ByteBuffer()
    var headers = HTTPHeaders()
    try encoder.encode(dates, to: &written, headers: &headers)
    var expected = ByteBuffer()
    var expectedHeaders = HTTPHeaders()
    try ContentConfiguration.default().requireEncoder(for: mediaType)
      .encode(dates, to: &expected, headers: &expectedHeaders)
    #expect(String(buffer: written) == #"["2023-11-14T22:13:20Z"]"#)
    #expect(written == expected)
    #expect(headers == expectedHeaders)
    #expect(try decoder.decode([Date].self, from: expected, headers: [:]) == dates)
  }

  @Test("User info passed by Vapor is merged over the decoder's own, as with JSONDecoder")
  func decoderUserInfo() throws {
    let jsonKit = JKDecoder()
    jsonKit.userInfo = [UserInfoProbe.own: "decoder", UserInfoProbe.shared: "decoder"]
    let foundation = JSONDecoder()
    foundation.userInfo = [UserInfoProbe.own: "decoder", UserInfoProbe.shared: "decoder"]
    let body = ByteBuffer(string: "{}")
    let passed: [CodingUserInfoKey: any Sendable] = [UserInfoProbe.shared: "request"]

    let expected = try foundation.decode(
      UserInfoProbe.self, from: body, headers: [:], userInfo: passed)
    #expect(expected == UserInfoProbe(own: "decoder", shared: "request"))
    #expect(
      try jsonKit.decode(UserInfoProbe.self, from: body, headers: [:], userInfo: passed)
        == expected)
    #expect(jsonKit.userInfo[UserInfoProbe.shared] as? String == "decoder")
  }

  @Test("User info passed by Vapor is merged over the encoder's own, as with JSONEncoder")
  func encoderUserInfo() throws {
    let jsonKit = JKEncoder()
    jsonKit.userInfo = [UserInfoProbe.own: "encoder", UserInfoProbe.shared: "encoder"]
    jsonKit.outputFormatting = .sortedKeys
    let foundation = JSONEncoder()
    foundation.userInfo = [UserInfoProbe.own: "encoder", UserInfoProbe.shared: "encoder"]
    foundation.outputFormatting = .sortedKeys
    let passed: [CodingUserInfoKey: any Sendable] = [UserInfoProbe.shared: "response"]
    let probe = UserInfoProbe(own: nil, shared: nil)

    var expected = ByteBuffer()
    var expectedHeaders = HTTPHeaders()
    try foundation.encode(probe, to: &expected, headers: &expectedHeaders, userInfo: passed)
    var written = ByteBuffer()
    var headers = HTTPHeaders()
    try jsonKit.encode(probe, to: &written, headers: &headers, userInfo: passed)

    #expect(String(buffer: expected) == #"{"own":"encoder","shared":"response"}"#)
    #expect(written == expected)
    #expect(headers == expectedHeaders)
    #expect(jsonKit.userInfo[UserInfoProbe.shared] as? String == "encoder")
  }

  @Test("Encoding appends to the body and labels it JSON in UTF-8, as JSONEncoder does")
  func encoderAppendsAndLabels() throws {
    var written = ByteBuffer(string: "prefix ")
    var headers = HTTPHeaders([("X-Kept", "1")])
    try JKEncoder().encode([1, 2], to: &written, headers: &headers)
    var expected = ByteBuffer(string: "prefix ")
    var expectedHeaders = HTTPHeaders([("X-Kept", "1")])
    try JSONEncoder().encode([1, 2], to: &expected, headers: &expectedHeaders)

    #expect(written == expected)
    #expect(headers == expectedHeaders)
    #expect(headers.first(name: "Content-Type") == "application/json; charset=utf-8")
  }

  @Test("A value that cannot be encoded leaves the body and headers as they were")
  func failedEncodingChangesNothing() throws {
    var written = ByteBuffer(string: "prefix ")
    var headers = HTTPHeaders()
    #expect(throws: EncodingError.self) {
      try JKEncoder().encode([Double.nan], to: &written, headers: &headers)
    }
    #expect(String(buffer: written) == "prefix ")
    #expect(headers.isEmpty)
  }

  @Test("A compressing encoder says Content-Encoding: gzip, and its body inflates to the JSON")
  func compressingEncoder() throws {
    let encoder = JKEncoder()
    encoder.compression = .gzip
    var written = ByteBuffer()
    var headers = HTTPHeaders()
    try encoder.encode(Order.sample(), to: &written, headers: &headers)

    #expect(headers.first(name: "Content-Encoding") == "gzip")
    #expect(written.readableBytesView.starts(with: [0x1F, 0x8B]))
    #expect(try JKDecoder().decode(Order.self, from: written.readableBytesView) == Order.sample())
  }

  @Test("The decoder reads the body's readable bytes only, wherever they start in the buffer")
  func readsReadableBytesOnly() throws {
    var body = ByteBuffer(string: "ignored[1,2,3]")
    body.moveReaderIndex(forwardBy: 7)
    #expect(try JKDecoder().decode([Int].self, from: body, headers: [:]) == [1, 2, 3])
    #expect(try JSONDecoder().decode([Int].self, from: body, headers: [:]) == [1, 2, 3])
  }
}
