import Foundation
import Testing

@testable import JSONKit

/// Large output buffers are kept for the next output (`OutputBufferPool`);
/// a buffer is never handed out while the `Data` or writer using it lives.
@Suite("Output buffer reuse")
struct OutputBufferReuseTests {
  private struct Row: Codable, Equatable {
    var id: Int
    var name: String
    var values: [Double]
  }

  /// About 400 KB of JSON: above the size the pool keeps.
  private static func rows(seed: Int) -> [Row] {
    (0..<2_000).map { index in
      Row(
        id: index &* seed, name: "row \(index) of \(seed)",
        values: (0..<8).map { Double(index &* 8 &+ $0) / Double(seed) })
    }
  }

  @Test func outputKeptAliveIsNotOverwrittenByLaterEncodes() throws {
    var kept: [(data: Data, bytes: [UInt8], rows: [Row])] = []
    for seed in 1...6 {
      let rows = Self.rows(seed: seed)
      let data = try JKEncoder().encode(rows)
      #expect(data.count > OutputBufferPool.smallestKept)
      kept.append((data, Array(data), rows))
      // Every earlier output still holds its own bytes.
      for earlier in kept {
        #expect(Array(earlier.data) == earlier.bytes)
        #expect(try JSONDecoder().decode([Row].self, from: earlier.data) == earlier.rows)
      }
    }
  }

  @Test func releasedOutputsAreReusedWithTheSameBytesAsFoundation() throws {
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys, .prettyPrinted]
    let encoder = JKEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    for seed in [3, 5, 3, 7, 5, 3] {
      let rows = Self.rows(seed: seed)
      let expected = try foundation.encode(rows)
      // Released at the end of each round, so that the next round's
      // output may be written into the same buffer.
      #expect(try encoder.encode(rows) == expected)
      let value = try JSONValue(parsing: expected)
      #expect(try value.jsonData(options: [.sortedKeys, .prettyPrinted]) == expected)
      let lent = try encoder.withEncodedBytes(of: rows) { Data($0) }
      #expect(lent == expected)
    }
  }

  @Test func aFailedEncodeGivesItsBufferBackAndTheNextOneWorks() throws {
    struct Failing: Encodable {
      let rows: [Row]
      func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(contentsOf: rows)
        try container.encode(Double.nan)
      }
    }
    let rows = Self.rows(seed: 11)
    #expect(throws: EncodingError.self) { try JKEncoder().encode(Failing(rows: rows)) }
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let encoder = JKEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try encoder.encode(rows) == foundation.encode(rows))
  }

  @Test func thePoolKeepsABoundedNumberOfBuffersOfBoundedSize() {
    let pool = OutputBufferPool()
    let small = OutputBufferPool.smallestKept
    // Too small and too large are freed at once.
    pool.recycle(malloc(small - 1)!, capacity: small - 1)
    pool.recycle(
      malloc(OutputBufferPool.largestKept + 1)!, capacity: OutputBufferPool.largestKept + 1)
    #expect(pool.keptCapacities.isEmpty)
    #expect(pool.take(atLeast: small) == nil)
    // Up to `spareCount` are kept; a larger one then pushes out the smallest.
    let sizes = (1...OutputBufferPool.spareCount + 2).map { small * $0 }
    for size in sizes { pool.recycle(malloc(size)!, capacity: size) }
    #expect(pool.keptCapacities.sorted() == Array(sizes.suffix(OutputBufferPool.spareCount)))
    // The smallest buffer that fits is taken, and only once.
    let wanted = sizes[sizes.count - OutputBufferPool.spareCount] - 1
    let taken = pool.take(atLeast: wanted)
    #expect(taken?.capacity == sizes[sizes.count - OutputBufferPool.spareCount])
    #expect(pool.keptCapacities == [sizes.last!])
    #expect(pool.take(atLeast: sizes.last! + 1) == nil)
    // Requests outside the kept sizes are never served from the pool, nor
    // is a buffer more than four times the size asked for.
    #expect(pool.take(atLeast: small - 1) == nil)
    pool.recycle(malloc(small * 16)!, capacity: small * 16)
    #expect(pool.keptCapacities.sorted() == [sizes.last!, small * 16])
    if let fits = pool.take(atLeast: small + 1) {
      #expect(fits.capacity == sizes.last!)
      free(fits.bytes)
    } else {
      Issue.record("no buffer for \(small + 1) bytes")
    }
    #expect(pool.take(atLeast: small + 1) == nil)
    #expect(pool.keptCapacities == [small * 16])
    if let taken { free(taken.bytes) }
    for capacity in pool.keptCapacities {
      if let spare = pool.take(atLeast: capacity) { free(spare.bytes) }
    }
    #expect(pool.keptCapacities.isEmpty)
  }
}
