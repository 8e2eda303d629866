import Foundation
import JSONKit
import Testing

/// What bounds a stream: the record size limit, and the consuming task's
/// cancellation.
@Suite("Stream limits and cancellation")
struct StreamLimitsTests {
  @Test("A line longer than the limit is an error naming it, after the lines before it")
  func lineSizeLimit() async {
    let text = Array("[1]\n[\"\(String(repeating: "x", count: 100))\"]\n[3]\n".utf8)
    for size in [1, 7, 64, 1000] {
      let outcome = await StreamOutcome(
        JSONValue.lines(from: ChunkedBytes(text, every: size), maxRecordSize: 50))
      #expect(outcome.elements == [[1]], "chunks of \(size)")
      #expect(outcome.parseError?.kind == .inputTooLarge, "chunks of \(size)")
      #expect(outcome.parseError?.line == 2, "chunks of \(size)")
      #expect(outcome.parseError?.offset == 4, "chunks of \(size)")
    }
    let fits = await StreamOutcome(
      JSONValue.lines(from: ChunkedBytes(text, every: 9), maxRecordSize: 104))
    #expect(fits.elements.count == 3)
  }

  @Test("An array element longer than the limit is an error naming its index")
  func elementSizeLimit() async {
    struct Anything: Decodable {}
    let text = Array("[{}, {\"a\": \"\(String(repeating: "y", count: 80))\"}, {}]".utf8)
    for size in [1, 5, 1000] {
      let outcome = await StreamOutcome(
        JKDecoder().decodeArrayElements(
          Anything.self, from: ChunkedBytes(text, every: size), maxRecordSize: 40))
      #expect(outcome.elements.count == 1, "chunks of \(size)")
      #expect(outcome.parseError?.kind == .inputTooLarge, "chunks of \(size)")
      #expect(outcome.parseError?.offset == 5, "chunks of \(size)")
      #expect(outcome.parseError?.message.contains("array element 1") == true)
    }
  }

  /// Endless JSON Lines that count how many chunks were asked for.
  struct EndlessLines: AsyncSequence {
    typealias Element = [UInt8]
    let reads: Counter

    final class Counter: @unchecked Sendable {
      // Unchecked: touched only by the one task that iterates.
      var count = 0
    }

    struct AsyncIterator: AsyncIteratorProtocol {
      let reads: Counter
      mutating func next() async -> [UInt8]? {
        reads.count += 1
        return Array("{\"n\":\(reads.count)}\n".utf8)
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reads: reads) }
  }

  @Test("Cancelling the consuming task stops reading the stream")
  func cancellation() async {
    let reads = EndlessLines.Counter()
    let task = Task {
      var delivered = 0
      do {
        for try await _ in JSONValue.lines(from: EndlessLines(reads: reads)) {
          delivered += 1
          if delivered == 10 { withUnsafeCurrentTask { $0?.cancel() } }
        }
      } catch {
        return (delivered, error is CancellationError)
      }
      return (delivered, false)
    }
    let (delivered, cancelled) = await task.value
    #expect(delivered == 10)
    #expect(cancelled)
    #expect(reads.count == 10)
  }
}
