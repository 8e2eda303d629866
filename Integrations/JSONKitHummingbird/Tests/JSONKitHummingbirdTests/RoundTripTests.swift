import Foundation
import Hummingbird
import HummingbirdTesting
import JSONKit
import JSONKitHummingbird
import Testing

@Suite("Codable round trip through a live server")
struct RoundTripTests {
  /// Posts `body` to a live server whose context is `context` and returns
  /// the response.
  func post<Context: RequestContext>(
    _ body: String, to context: Context.Type
  ) async throws -> TestResponse where Context.Source == ApplicationRequestContextSource {
    try await TestApp.make(context).test(.live) { client in
      try await client.execute(
        uri: "/orders", method: .post, headers: TestApp.jsonHeaders,
        body: ByteBuffer(string: body))
    }
  }

  @Test func anOrderComesBackChangedAsJSONUTF8() async throws {
    let response = try await post(TestApp.orderJSON(), to: JSONKitContext.self)
    #expect(response.status == .ok)
    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
    #expect(response.headers[.contentLength] == String(response.body.readableBytes))
    let order = try JSONDecoder.iso8601.decode(
      Order.self, from: Data(response.body.readableBytesView))
    let sent = try JSONDecoder.iso8601.decode(Order.self, from: Data(TestApp.orderJSON().utf8))
    #expect(order.status == "accepted")
    #expect(order.id == sent.id && order.lines == sent.lines && order.placed == sent.placed)
    #expect(order.note == sent.note)
  }

  @Test func theResponseBytesEqualFoundationsForTheSameSetUp() async throws {
    let jsonKit = try await post(TestApp.orderJSON(), to: SortedJSONKitContext.self)
    let foundation = try await post(TestApp.orderJSON(), to: SortedFoundationContext.self)
    #expect(jsonKit.status == .ok && foundation.status == .ok)
    #expect(Array(jsonKit.body.readableBytesView) == Array(foundation.body.readableBytesView))
    #expect(jsonKit.headers[.contentType] == foundation.headers[.contentType])
  }

  @Test func theDefaultContextWritesDatesAsHummingbirdsFoundationContextDoes() async throws {
    // Hummingbird's default context uses Foundation's coders with ISO 8601
    // dates; naming JSONKit's coders must not change a date on the wire.
    let jsonKit = try await post(TestApp.orderJSON(), to: JSONKitContext.self)
    let foundation = try await post(TestApp.orderJSON(), to: BasicRequestContext.self)
    let jsonKitValue = try JSONSerialization.jsonObject(with: Data(jsonKit.body.readableBytesView))
    let foundationValue = try JSONSerialization.jsonObject(
      with: Data(foundation.body.readableBytesView))
    #expect((jsonKitValue as? NSDictionary) == (foundationValue as? NSDictionary))
    #expect(String(buffer: jsonKit.body).contains(#""placed":"2024-02-29T12:30:00Z""#))
  }
}

extension JSONDecoder {
  static var iso8601: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
