import Foundation
import Hummingbird
import Logging

/// An order as a shop's API would take it: nested objects, an array, a
/// date, an optional, and text that JSON escapes.
struct Order: Codable, Equatable, ResponseEncodable {
  struct Customer: Codable, Equatable {
    var name: String
    var email: String?
  }
  struct Line: Codable, Equatable {
    var sku: String
    var quantity: Int
    var price: Double
  }
  var id: Int
  var customer: Customer
  var lines: [Line]
  var placed: Date
  var note: String
  var status: String?
}

/// The application under test: one route that decodes an order, changes a
/// field and returns it.
enum TestApp {
  static let maxUploadSize = 64 * 1024

  static func make<Context: RequestContext>(_ context: Context.Type) -> some ApplicationProtocol
  where Context.Source == ApplicationRequestContextSource {
    let router = Router(context: Context.self)
    router.post("/orders") { request, context -> Order in
      var order = try await request.decode(as: Order.self, context: context)
      order.status = "accepted"
      return order
    }
    var logger = Logger(label: "JSONKitHummingbirdTests")
    logger.logLevel = .warning
    return Application(
      router: router,
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      logger: logger
    )
  }

  /// An order's JSON with line breaks, so that errors have lines to name.
  static func orderJSON(id: Int = 7, name: String = "\"Ada\"", lines: String? = nil) -> String {
    let lines =
      lines
      ?? #"[{"sku": "A-1", "quantity": 2, "price": 9.5}, {"sku": "B/2", "quantity": 1, "price": 0.1}]"#
    return """
      {
        "id": \(id),
        "customer": {"name": \(name), "email": null},
        "lines": \(lines),
        "placed": "2024-02-29T12:30:00Z",
        "note": "fragile \\"glass\\" — ünïcödé 😀 </tag>"
      }
      """
  }

  static let jsonHeaders: HTTPFields = [.contentType: "application/json"]
}

/// The body Hummingbird writes for an `HTTPError` with a message.
struct ErrorBody: Decodable {
  struct Detail: Decodable {
    var message: String
  }
  var error: Detail

  static func message(in body: ByteBuffer) throws -> String {
    try JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)).error.message
  }
}
