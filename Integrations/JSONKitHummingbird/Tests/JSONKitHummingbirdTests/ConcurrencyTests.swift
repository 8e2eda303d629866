import Foundation
import Hummingbird
import HummingbirdTesting
import JSONKit
import JSONKitHummingbird
import Testing

@Suite("Concurrent requests")
struct ConcurrencyTests {
  @Test func fiftyConcurrentRequestsEachGetTheirOwnOrderBack() async throws {
    // `.ahc` runs a live server and AsyncHTTPClient, which opens as many
    // connections as there are requests in flight (`.live` has one).
    let ids = try await TestApp.make(JSONKitContext.self).test(.ahc(.http)) { client in
      try await withThrowingTaskGroup(of: (Int, Order?).self) { group in
        for id in 0..<50 {
          group.addTask {
            try await client.execute(
              uri: "/orders", method: .post, headers: TestApp.jsonHeaders,
              body: ByteBuffer(string: TestApp.orderJSON(id: id, name: "\"customer \(id)\""))
            ) { response in
              let order = try? JSONDecoder.iso8601.decode(
                Order.self, from: Data(response.body.readableBytesView))
              return (id, response.status == .ok ? order : nil)
            }
          }
        }
        var seen: [Int] = []
        for try await (id, order) in group {
          #expect(order?.id == id)
          #expect(order?.customer.name == "customer \(id)")
          #expect(order?.status == "accepted")
          seen.append(id)
        }
        return seen.sorted()
      }
    }
    #expect(ids == Array(0..<50))
  }
}
