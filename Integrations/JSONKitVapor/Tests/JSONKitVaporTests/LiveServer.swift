import Foundation
import JSONKit
import JSONKitVapor
import NIOFoundationCompat
import Testing
import Vapor
import VaporTesting

/// A value with the kinds of field a request body carries.
struct Order: Content, Equatable {
  var id: Int64
  var customer: String
  var note: String?
  var total: Double
  var items: [Item]
  var placedAt: Date

  struct Item: Codable, Equatable {
    var sku: String
    var quantity: Int
  }

  static func sample(_ number: Int = 1) -> Order {
    Order(
      id: 9_007_199_254_740_993 + Int64(number),
      customer: "Zoë / \"Z\" \u{1F600} #\(number)",
      note: nil,
      total: 12.5 * Double(number),
      items: [Item(sku: "A-\(number)", quantity: number), Item(sku: "B", quantity: 0)],
      placedAt: Date(timeIntervalSince1970: 1_700_000_000))
  }
}

/// Vapor's error body: `{"error": true, "reason": "..."}`.
struct ErrorBody: Decodable {
  var error: Bool
  var reason: String
}

/// The live tests' content configuration: JSONKit's coders for JSON. Every
/// test sets the same, so tests running at once agree on it.
func useJSONKit() {
  ContentConfiguration.global.useJSONKit()
}

/// Foundation's coders as Vapor sets them up by default, for what clients
/// send and read, and for what Foundation's side of a comparison gives.
func vaporEncoder() -> JSONEncoder { JSONEncoder.custom(dates: .iso8601) }

/// Foundation's decoder as Vapor sets it up by default.
func vaporDecoder() -> JSONDecoder { JSONDecoder.custom(dates: .iso8601) }

/// Runs `test` against a Vapor app with JSONKit's coders and the routes
/// `routes` adds, served on 127.0.0.1 at a port the system chooses, so
/// every request goes through a real socket and Vapor's HTTP server.
func withLiveApp(
  routes: (Application) throws -> Void,
  _ test: (any TestingApplicationTester) async throws -> Void
) async throws {
  useJSONKit()
  try await withApp { app in
    try routes(app)
    try await test(app.testing(method: .running(hostname: "127.0.0.1", port: 0)))
  }
}

/// The routes most tests use: `POST /orders` decodes an order with the
/// configured decoder and sends it back with the configured encoder.
func echoOrders(_ app: Application) {
  app.post("orders") { request async throws -> Order in
    try request.content.decode(Order.self)
  }
}

/// A request body holding `text` in `encoding`.
func body(_ text: String, _ encoding: String.Encoding = .utf8) -> ByteBuffer {
  ByteBuffer(data: text.data(using: encoding)!)
}

/// Headers for a JSON body, with `extra` added.
func jsonHeaders(_ extra: [(String, String)] = []) -> HTTPHeaders {
  var headers = HTTPHeaders([("Content-Type", "application/json")])
  headers.add(contentsOf: extra)
  return headers
}

/// The reason in a Vapor error response's body.
func reason(of response: TestingHTTPResponse) throws -> String {
  try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body)).reason
}
