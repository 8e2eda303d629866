import Foundation
import JSONKit

/// Bytes delivered as an async sequence of chunks cut where a test says,
/// as a file reader or a network body would deliver them.
struct ChunkedBytes: AsyncSequence {
  typealias Element = [UInt8]

  let chunks: [[UInt8]]

  /// `bytes` cut before each of `cuts` (offsets, in increasing order).
  init(_ bytes: [UInt8], cuts: [Int]) {
    var chunks: [[UInt8]] = []
    var start = 0
    for cut in cuts where cut > start && cut < bytes.count {
      chunks.append(Array(bytes[start..<cut]))
      start = cut
    }
    chunks.append(Array(bytes[start...]))
    self.chunks = chunks
  }

  /// `bytes` in chunks of `size` bytes.
  init(_ bytes: [UInt8], every size: Int) {
    self.init(bytes, cuts: Array(stride(from: size, to: bytes.count, by: size)))
  }

  /// `bytes` cut at random places drawn from `generator`.
  init(_ bytes: [UInt8], randomCuts count: Int, using generator: inout SplitMix64) {
    let cuts = (0..<count).map { _ in Int(generator.next() % UInt64(Swift.max(bytes.count, 1))) }
    self.init(bytes, cuts: cuts.sorted())
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var remaining: ArraySlice<[UInt8]>
    mutating func next() async -> [UInt8]? { remaining.popFirst() }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

/// Bytes delivered one at a time, as `URL.AsyncBytes` delivers them.
struct SingleBytes: AsyncSequence {
  typealias Element = UInt8

  let bytes: [UInt8]

  struct AsyncIterator: AsyncIteratorProtocol {
    var remaining: ArraySlice<UInt8>
    mutating func next() async -> UInt8? { remaining.popFirst() }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: bytes[...]) }
}

/// Everything a record sequence delivers before it ends, and the error
/// that ended it, if any.
struct StreamOutcome<Element> {
  var elements: [Element] = []
  var error: (any Error)?

  init(_ sequence: JKRecordSequence<Element>) async {
    do {
      for try await element in sequence { elements.append(element) }
    } catch {
      self.error = error
    }
  }

  /// The ending error's ``JKParseError``, directly or under a `DecodingError`.
  var parseError: JKParseError? {
    if let error = error as? JKParseError { return error }
    if case .dataCorrupted(let context) = error as? DecodingError {
      return context.underlyingError as? JKParseError
    }
    return nil
  }
}
