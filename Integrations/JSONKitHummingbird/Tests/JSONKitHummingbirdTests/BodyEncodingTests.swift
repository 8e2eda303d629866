import Foundation
import Hummingbird
import HummingbirdTesting
import JSONKit
import JSONKitHummingbird
import Testing

@Suite("Bodies in UTF-16 and gzip")
struct BodyEncodingTests {
  /// Posts `body` with `headers` to a live server whose context is
  /// `context` and returns the response.
  func post<Context: RequestContext>(
    _ body: some Sequence<UInt8>, headers: HTTPFields,
    to context: Context.Type = JSONKitContext.self
  ) async throws -> TestResponse where Context.Source == ApplicationRequestContextSource {
    let body = ByteBuffer(bytes: Array(body))
    return try await TestApp.make(context).test(.live) { client in
      try await client.execute(uri: "/orders", method: .post, headers: headers, body: body)
    }
  }

  func gzip(_ text: String) throws -> [UInt8] {
    let encoder = JKEncoder()
    encoder.compression = .gzip
    return Array(try encoder.encode(JSONValue(parsing: text)))
  }

  @Test func aUTF16BodyWithItsCharsetDecodesAsItsUTF8Twin() async throws {
    let json = TestApp.orderJSON()
    let headers: HTTPFields = [.contentType: "application/json; charset=utf-16"]
    let utf8 = try await post(Array(json.utf8), headers: TestApp.jsonHeaders)
    // With a byte order mark, as `charset=utf-16` asks; and without one, little-endian.
    let withMark = try await post(json.data(using: .utf16)!, headers: headers)
    let littleEndian = try await post(json.data(using: .utf16LittleEndian)!, headers: headers)
    #expect(utf8.status == .ok && withMark.status == .ok && littleEndian.status == .ok)
    #expect(withMark.body == utf8.body)
    #expect(littleEndian.body == utf8.body)
  }

  @Test func aUTF16BodyIsReadAsFoundationReadsIt() async throws {
    // Hummingbird's Foundation context reads UTF-16 too: same bytes out.
    let body = TestApp.orderJSON().data(using: .utf16BigEndian)!
    let headers: HTTPFields = [.contentType: "application/json; charset=utf-16be"]
    let jsonKit = try await post(body, headers: headers, to: SortedJSONKitContext.self)
    let foundation = try await post(body, headers: headers, to: SortedFoundationContext.self)
    #expect(jsonKit.status == .ok && foundation.status == .ok)
    #expect(jsonKit.body == foundation.body)
  }

  @Test func aGzipBodyIsInflatedAndDecoded() async throws {
    let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]
    let plain = try await post(Array(TestApp.orderJSON().utf8), headers: TestApp.jsonHeaders)
    let gzipped = try await post(try gzip(TestApp.orderJSON()), headers: headers)
    #expect(gzipped.status == .ok)
    #expect(gzipped.body == plain.body)
  }

  @Test func gzipThatInflatesPastTheUploadLimitIs413() async throws {
    // A few hundred bytes on the wire, far more than the limit once inflated.
    let note = String(repeating: "x", count: 4 * TestApp.maxUploadSize)
    let body = try gzip(TestApp.orderJSON().replacingOccurrences(of: "fragile", with: note))
    #expect(body.count < TestApp.maxUploadSize / 16)
    let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]
    let response = try await post(body, headers: headers)
    #expect(response.status == .contentTooLarge)
    #expect(try ErrorBody.message(in: response.body).contains("gzip"))
  }

  @Test func boundingInflationLeavesASharedDecoderAsItWas() async throws {
    let note = String(repeating: "x", count: 4 * TestApp.maxUploadSize)
    let body = try gzip(TestApp.orderJSON().replacingOccurrences(of: "fragile", with: note))
    let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]
    let response = try await post(body, headers: headers, to: SharedDecoderContext.self)
    #expect(response.status == .contentTooLarge)
    #expect(SharedDecoderContext.decoder.decompression == .gzip)
  }

  @Test func corruptGzipIs400() async throws {
    var body = try gzip(TestApp.orderJSON())
    body[body.count / 2] ^= 0xFF
    let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]
    let response = try await post(body, headers: headers)
    #expect(response.status == .badRequest)
    #expect(
      try ErrorBody.message(in: response.body).hasPrefix(
        "The given data was not valid gzip-compressed JSON."))
  }
}
