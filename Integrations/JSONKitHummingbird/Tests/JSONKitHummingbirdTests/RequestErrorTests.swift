import Foundation
import Hummingbird
import HummingbirdTesting
import JSONKit
import JSONKitHummingbird
import Testing

@Suite("Bad request bodies get 4xx responses that say what and where")
struct RequestErrorTests {
  /// Posts `body` to a live server with JSONKit's coders and returns the
  /// response's status and error message.
  func post(_ body: String) async throws -> (HTTPResponse.Status, String) {
    try await TestApp.make(JSONKitContext.self).test(.live) { client in
      try await client.execute(
        uri: "/orders", method: .post, headers: TestApp.jsonHeaders,
        body: ByteBuffer(string: body)
      ) { response in
        (response.status, try ErrorBody.message(in: response.body))
      }
    }
  }

  @Test func malformedJSONIs400WithLineAndColumn() async throws {
    let body = TestApp.orderJSON(lines: #"[{"sku": "A-1", "quantity": 2,, "price": 9.5}]"#)
    let (status, message) = try await post(body)
    #expect(status == .badRequest)
    #expect(message.hasPrefix("The given data was not valid JSON."), "\(message)")
    #expect(message.contains("around line 4, column 42"), "\(message)")
  }

  @Test func aTypeMismatchIs400WithTheCodingPath() async throws {
    let (status, message) = try await post(TestApp.orderJSON(name: "5"))
    #expect(status == .badRequest)
    #expect(
      message.hasPrefix(
        "Type mismatch at customer.name: Expected to decode String but found number instead."),
      "\(message)")
    #expect(
      message.contains("The value is around line 3, column 24 (byte offset 36)"), "\(message)")
  }

  @Test func aMismatchInsideAnArrayNamesTheIndex() async throws {
    let body = TestApp.orderJSON(
      lines:
        #"[{"sku": "A-1", "quantity": 2, "price": 9.5}, {"sku": "B", "quantity": "1", "price": 1}]"#
    )
    let (status, message) = try await post(body)
    #expect(status == .badRequest)
    #expect(message.hasPrefix("Type mismatch at lines[1].quantity: "), "\(message)")
  }

  @Test func aMissingKeyIs400WithItsFullPath() async throws {
    let body = TestApp.orderJSON(lines: #"[{"sku": "A-1", "price": 9.5}]"#)
    let (status, message) = try await post(body)
    #expect(status == .badRequest)
    #expect(message.hasPrefix("Key not found at lines[0].quantity: "), "\(message)")
  }

  @Test func aNullForANonOptionalIs400() async throws {
    let (status, message) = try await post(TestApp.orderJSON(name: "null"))
    #expect(status == .badRequest)
    #expect(message.hasPrefix("Value not found at customer.name: "), "\(message)")
  }

  @Test func anEmptyBodyIs400() async throws {
    let (status, message) = try await post("")
    #expect(status == .badRequest)
    #expect(message.hasPrefix("The given data was not valid JSON."), "\(message)")
  }

  @Test func aDeeplyNestedBodyIs400WithThePlace() async throws {
    let body = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let (status, message) = try await post(body)
    #expect(status == .badRequest)
    #expect(message.contains("around line 1, column 513"), "\(message)")
  }

  @Test func aBodyOverTheUploadLimitIs413() async throws {
    let note = String(repeating: "x", count: TestApp.maxUploadSize)
    let body = TestApp.orderJSON().replacingOccurrences(of: "fragile", with: note)
    let status = try await TestApp.make(JSONKitContext.self).test(.live) { client in
      try await client.execute(
        uri: "/orders", method: .post, headers: TestApp.jsonHeaders,
        body: ByteBuffer(string: body)
      ) { $0.status }
    }
    #expect(status == .contentTooLarge)
  }
}
