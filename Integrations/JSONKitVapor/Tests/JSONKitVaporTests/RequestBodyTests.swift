import Foundation
import JSONKit
import JSONKitVapor
import NIOFoundationCompat
import Testing
import Vapor
import VaporTesting

@Suite("Request bodies on a live server")
struct RequestBodyTests {
  @Test("An order posted as JSON comes back as the same order, labelled JSON in UTF-8")
  func roundTrip() async throws {
    let order = Order.sample()
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(
        .POST, "orders", headers: jsonHeaders(),
        body: ByteBuffer(data: try vaporEncoder().encode(order))
      ) { response in
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(
          (try? vaporDecoder().decode(Order.self, from: Data(buffer: response.body))) == order)
      }
    }
  }

  @Test("A response's bytes are the bytes Foundation's encoder writes with the same settings")
  func responseBytesMatchFoundation() async throws {
    let order = Order.sample(7)
    let jsonKit = JKEncoder()
    jsonKit.outputFormatting = [.sortedKeys]
    jsonKit.dateEncodingStrategy = .iso8601
    let foundation = vaporEncoder()
    foundation.outputFormatting = [.sortedKeys]
    try await withLiveApp { app in
      app.post("orders", "sorted") { request async throws -> Response in
        let response = Response(status: .ok)
        try response.content.encode(request.content.decode(Order.self), using: jsonKit)
        return response
      }
    } _: { server in
      try await server.test(
        .POST, "orders/sorted", headers: jsonHeaders(),
        body: ByteBuffer(data: try foundation.encode(order))
      ) { response in
        #expect(response.status == .ok)
        #expect(Data(buffer: response.body) == (try? foundation.encode(order)))
      }
    }
  }

  @Test("A body that is not JSON gets 400 saying what is wrong and where, once")
  func malformedBody() async throws {
    let text = "{\n  \"id\": 1,\n  \"customer\": x\n}"
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(.POST, "orders", headers: jsonHeaders(), body: body(text)) {
        response in
        #expect(response.status == .badRequest)
        let reason = try reason(of: response)
        #expect(
          reason
            == "Data corrupted at path ''. The given data was not valid JSON. Underlying error: "
            + "Expected a value, found 'x' around line 3, column 15 (byte offset 27) near "
            + "  \"customer\": x.")
      }
    }
  }

  @Test("A value of the wrong type gets 400 with Foundation's reason and coding path")
  func typeMismatch() async throws {
    let text =
      #"{"id":1,"customer":"c","total":1,"items":[{"sku":"a","quantity":"2"}],"placedAt":"2023-11-14T22:13:20Z"}"#
    try await expectFoundationsReason(
      for: text, mentioning: "items.Index 0.quantity",
      at: "line 1, column 65 (byte offset 64)")
  }

  @Test("A missing key gets 400 with Foundation's reason and coding path")
  func missingKey() async throws {
    let text =
      #"{"id":1,"customer":"c","total":1,"items":[{"sku":"a"}],"placedAt":"2023-11-14T22:13:20Z"}"#
    try await expectFoundationsReason(
      for: text, mentioning: "items.Index 0",
      at: "line 1, column 43 (byte offset 42)")
  }

  /// Posts `text` and expects 400 with the reason Vapor gives for the error
  /// Foundation's `JSONDecoder` throws on the same bytes, followed once by
  /// where the value is.
  private func expectFoundationsReason(
    for text: String, mentioning path: String, at place: String
  ) async throws {
    let foundationReason: String
    do {
      _ = try vaporDecoder().decode(Order.self, from: Data(text.utf8))
      Issue.record("Foundation decoded \(text)")
      return
    } catch let error as DecodingError {
      foundationReason = error.reason
    }
    #expect(foundationReason.contains("at path '\(path)'"))
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(.POST, "orders", headers: jsonHeaders(), body: body(text)) {
        response in
        #expect(response.status == .badRequest)
        // Foundation's reason, then where the value is, once.
        let reason = try reason(of: response)
        #expect(reason.hasPrefix(String(foundationReason.dropLast())), "\(reason)")
        #expect(reason.contains(" Underlying error: \(place) near "), "\(reason)")
        #expect(reason.components(separatedBy: "line 1, column").count == 2, "\(reason)")
      }
    }
  }

  @Test("A body nested deeper than the decoder's limit gets 400 saying where")
  func deeplyNestedBody() async throws {
    let text =
      #"{"id":1,"customer":"c","total":1,"placedAt":"2023-11-14T22:13:20Z","items":"#
      + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(.POST, "orders", headers: jsonHeaders(), body: body(text)) {
        response in
        #expect(response.status == .badRequest)
        let reason = try reason(of: response)
        #expect(reason.contains("nest"))
        #expect(reason.contains("line 1, column"))
      }
    }
  }

  @Test("A hundred thousand open brackets get 400, not a crash")
  func hostileNesting() async throws {
    try await withLiveApp { app in
      app.on(.POST, "orders", body: .collect(maxSize: "1mb")) { request async throws -> Order in
        try request.content.decode(Order.self)
      }
    } _: { server in
      try await server.test(
        .POST, "orders", headers: jsonHeaders(),
        body: body(String(repeating: "[", count: 100_000))
      ) { response in
        #expect(response.status == .badRequest)
      }
    }
  }

  @Test("A body over the route's size limit is refused with 413 before decoding")
  func oversizedBody() async throws {
    var order = Order.sample()
    order.note = String(repeating: "n", count: 20_000)
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(
        .POST, "orders", headers: jsonHeaders(),
        body: ByteBuffer(data: try vaporEncoder().encode(order))
      ) { response in
        #expect(response.status == .payloadTooLarge)
      }
    }
  }

  @Test(
    "A UTF-16 body is read as Foundation reads it",
    arguments: [String.Encoding.utf16, .utf16BigEndian, .utf16LittleEndian])
  func utf16Body(encoding: String.Encoding) async throws {
    let order = Order.sample(3)
    let text = String(decoding: try vaporEncoder().encode(order), as: UTF8.self)
    let bytes = body(text, encoding)
    #expect(try vaporDecoder().decode(Order.self, from: Data(buffer: bytes)) == order)
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(
        .POST, "orders", headers: ["Content-Type": "application/json; charset=utf-16"], body: bytes
      ) { response in
        #expect(response.status == .ok)
        #expect(
          (try? vaporDecoder().decode(Order.self, from: Data(buffer: response.body))) == order)
      }
    }
  }

  @Test("A body sent with Content-Encoding: gzip is inflated by Vapor and decoded")
  func declaredGzipBody() async throws {
    let order = Order.sample(4)
    let gzip = JKEncoder()
    gzip.compression = .gzip
    gzip.dateEncodingStrategy = .iso8601
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(
        .POST, "orders", headers: jsonHeaders([("Content-Encoding", "gzip")]),
        body: ByteBuffer(data: try gzip.encode(order))
      ) { response in
        #expect(response.status == .ok)
        #expect(
          (try? vaporDecoder().decode(Order.self, from: Data(buffer: response.body))) == order)
      }
    }
  }

  @Test("Gzip bytes sent as plain JSON get 400, as with Foundation's decoder")
  func undeclaredGzipBody() async throws {
    let gzip = JKEncoder()
    gzip.compression = .gzip
    let bytes = try gzip.encode(Order.sample(5))
    #expect(throws: DecodingError.self) { try vaporDecoder().decode(Order.self, from: bytes) }
    try await withLiveApp(routes: echoOrders) { server in
      try await server.test(
        .POST, "orders", headers: jsonHeaders(), body: ByteBuffer(data: bytes)
      ) { response in
        #expect(response.status == .badRequest)
        #expect((try? reason(of: response))?.contains("not valid JSON") == true)
      }
    }
  }
}
