import Foundation
import JSONKit
import JSONKitVapor
import NIOFoundationCompat
import Testing
import Vapor
import VaporTesting

@Suite("Concurrent requests on a live server")
struct ConcurrentRequestTests {
  @Test("Fifty orders posted at once each come back as the order sent")
  func fiftyAtOnce() async throws {
    useJSONKit()
    try await withApp { app in
      echoOrders(app)
      try await app.asyncBoot()
      // VaporTesting's live mode starts and stops the server for each
      // request, so concurrent requests need the server started here.
      try await app.server.start(address: .hostname("127.0.0.1", port: 0))
      let port = try #require(app.http.server.shared.localAddress?.port)
      let client = app.client
      let results = try await withThrowingTaskGroup(of: (Int, Order?).self) { group in
        for number in 1...50 {
          group.addTask {
            let response = try await client.post("http://127.0.0.1:\(port)/orders") { request in
              try request.content.encode(Order.sample(number), using: vaporEncoder())
            }
            guard response.status == .ok, let body = response.body else { return (number, nil) }
            return (number, try vaporDecoder().decode(Order.self, from: Data(buffer: body)))
          }
        }
        return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
      }
      await app.server.shutdown()
      #expect(results.count == 50)
      for (number, order) in results {
        #expect(order == Order.sample(number))
      }
    }
  }
}
