import Foundation
import JSONKit
import Testing

/// Calls every `decodeIfPresent` of an unkeyed container on each element
/// and past the end, noting each answer, the index after it, and the path
/// of each error.
struct UnkeyedIfPresentProbe: Decodable, Equatable {
  var notes: [String] = []

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    func note(_ label: String, _ body: (inout any UnkeyedDecodingContainer) throws -> Any?) {
      do {
        let value = try body(&container)
        notes.append("\(label) \(value.map { "\($0)" } ?? "nil") @\(container.currentIndex)")
      } catch {
        let path = (error as? DecodingError).map(Self.path) ?? "\(error)"
        notes.append("\(label) threw at \(path) @\(container.currentIndex)")
      }
    }
    for _ in 0..<7 {
      note("Bool") { try $0.decodeIfPresent(Bool.self) }
      note("String") { try $0.decodeIfPresent(String.self) }
      note("Double") { try $0.decodeIfPresent(Double.self) }
      note("Float") { try $0.decodeIfPresent(Float.self) }
      note("Int") { try $0.decodeIfPresent(Int.self) }
      note("Int8") { try $0.decodeIfPresent(Int8.self) }
      note("Int16") { try $0.decodeIfPresent(Int16.self) }
      note("Int32") { try $0.decodeIfPresent(Int32.self) }
      note("Int64") { try $0.decodeIfPresent(Int64.self) }
      note("UInt") { try $0.decodeIfPresent(UInt.self) }
      note("UInt8") { try $0.decodeIfPresent(UInt8.self) }
      note("UInt16") { try $0.decodeIfPresent(UInt16.self) }
      note("UInt32") { try $0.decodeIfPresent(UInt32.self) }
      note("UInt64") { try $0.decodeIfPresent(UInt64.self) }
      note("leaf") { try $0.decodeIfPresent(ParityLeaf.self) }
      note("end") { $0.isAtEnd }
    }
    note("decode") { try $0.decode(Int.self) }
    note("nil") { try $0.decodeNil() }
  }

  static func path(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      ParityPath(context.codingPath).description
    @unknown default:
      "\(error)"
    }
  }
}

extension FoundationParityTests {
  @Test(arguments: [
    "[]", "[null]", #"[true,"s",1.5,-1,300,{"x":1},null]"#, "[1]", #"[{"x":"y"}]"#,
  ])
  func unkeyedDecodeIfPresentMovesOnAsFoundationDoes(_ json: String) {
    expectSameDecoding(UnkeyedIfPresentProbe.self, json)
  }
}

/// The paths a custom key strategy's closure is shown, gathered from any
/// thread.
final class SeenPaths: @unchecked Sendable {
  // Unchecked: `paths` is read and written under `lock` only.
  private let lock = NSLock()
  private var paths: Set<String> = []

  func insert(_ path: [any CodingKey]) {
    lock.lock()
    defer { lock.unlock() }
    paths.insert(ParityPath(path).description)
  }

  var all: Set<String> {
    lock.lock()
    defer { lock.unlock() }
    return paths
  }
}

extension FoundationParityTests {
  /// A custom key strategy sees each key below the caller's own keys, with
  /// their int values, as in Foundation.
  @Test func aCustomKeyStrategySeesTheCallersKeys() throws {
    let json = #"{"keyed":{"inner":1},"nested":{"inner":2},"superKey":{"inner":3}}"#
    func decode(_ decode: (JSONDecoder.KeyDecodingStrategy) throws -> IntKeyedProbe) throws
      -> (IntKeyedProbe, Set<String>)
    {
      let seen = SeenPaths()
      let value = try decode(
        .custom { path in
          seen.insert(path)
          return path.last!
        })
      return (value, seen.all)
    }
    let theirs = try decode { strategy in
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = strategy
      return try decoder.decode(IntKeyedProbe.self, from: Data(json.utf8))
    }
    let ours = try decode { strategy in
      let decoder = JKDecoder()
      decoder.keyDecodingStrategy = strategy
      return try decoder.decode(IntKeyedProbe.self, from: json)
    }
    #expect(theirs.0 == ours.0)
    #expect(theirs.1 == ours.1)
    #expect(ours.1.contains("[keyed#1, inner]"))
  }
}
