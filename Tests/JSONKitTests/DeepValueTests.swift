import Foundation
import JSONKit
import Testing

/// Arrays nested `depth` deep around `null`, as code builds them: no parser
/// and its depth limit are involved.
private func deepArrays(_ depth: Int) -> JSONValue {
  var value = JSONValue.null
  for _ in 0..<depth { value = .array([value]) }
  return value
}

/// Objects nested `depth` deep around `null`, each with the one key `k`.
private func deepObjects(_ depth: Int) -> JSONValue {
  var value = JSONValue.null
  for _ in 0..<depth { value = .object(JSONObject([("k", value)])) }
  return value
}

/// `[Any]` nested `depth` deep around `1`, as `JSONSerialization` users
/// build them.
private func deepAnyArrays(_ depth: Int) -> Any {
  var value: Any = 1
  for _ in 0..<depth { value = [value] }
  return value
}

/// `[String: Any]` nested `depth` deep around `1`.
private func deepDictionaries(_ depth: Int) -> Any {
  var value: Any = 1
  for _ in 0..<depth { value = ["k": value] }
  return value
}

/// Lets go of a value one container at a time. Letting go of it at once
/// frees each container from inside its parent's release, one call-stack
/// frame per level: the standard library's way, which a value this deep
/// overflows (see the suite).
private func free(_ value: consuming JSONValue) {
  var pending = [consume value]
  while var current = pending.popLast() {
    switch current {
    case .array(var elements):
      current = .null
      while let element = elements.popLast() { pending.append(element) }
    case .object(var object):
      current = .null
      for key in object.keys {
        if let member = object.removeValue(forKey: key) { pending.append(member) }
      }
    default:
      break
    }
  }
}

/// ``free(_:)`` for `[Any]` and `[String: Any]` trees.
private func free(foundationObject value: consuming Any) {
  var pending = [consume value]
  while var current = pending.popLast() {
    if var array = current as? [Any] {
      current = 0
      while let element = array.popLast() { pending.append(element) }
    } else if var dictionary = current as? [String: Any] {
      current = 0
      while let (_, member) = dictionary.popFirst() { pending.append(member) }
    }
  }
}

/// How many arrays or dictionaries deep `value` nests along its first
/// members, and what is at the bottom.
private func depthAndLeaf(ofFoundationObject value: Any) -> (depth: Int, leaf: Any) {
  var depth = 0
  var current = value
  while true {
    if let array = current as? [Any], let first = array.first {
      current = first
    } else if let dictionary = current as? [String: Any], let first = dictionary.first {
      current = first.value
    } else {
      return (depth, current)
    }
    depth += 1
  }
}

/// Whether `error` is `EncodingError.invalidValue` at a path of
/// `pathCount` keys, saying that `JSONValue.maxDepthLimit` was passed.
private func isDepthLimitError(_ error: consuming (any Error)?, pathCount: Int) -> Bool {
  guard case EncodingError.invalidValue(_, let context)? = error else { return false }
  return context.codingPath.count == pathCount
    && context.debugDescription.contains("maxDepthLimit (\(JSONValue.maxDepthLimit))")
}

private func error(_ body: () throws -> Any) -> (any Error)? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

/// A `JSONValue` built in code can nest far deeper than anything parsed
/// (``JSONValue/maxDepthLimit``). Walks that keep no call-stack frame per
/// level take any depth; those that need Codable's recursion, or that build
/// a value JSONKit would later free, stop at the limit with an error. (Freeing
/// such a value is the standard library's recursion, which JSONKit cannot
/// reach: these tests take theirs apart one level at a time.)
@Suite("Values built in code, deeper than any parsed one")
struct DeepValueTests {
  private static let deep = 100_000

  @Test func foundationObjectConvertsAnyDepth() async {
    await #expect(processExitsWith: .success) {
      for build in [deepArrays, deepObjects] {
        let value = build(DeepValueTests.deep)
        let object = value.foundationObject
        free(consume value)
        let (depth, leaf) = depthAndLeaf(ofFoundationObject: object)
        free(foundationObject: consume object)
        if depth != DeepValueTests.deep || !(leaf is NSNull) { exit(1) }
      }
    }
  }

  @Test func serializationRefusesArraysAndDictionariesDeeperThanTheLimit() async {
    await #expect(processExitsWith: .success) {
      for build in [deepAnyArrays, deepDictionaries] {
        let object = build(20_000)
        let pathCount = JSONValue.maxDepthLimit
        let refused =
          isDepthLimitError(
            error { try JKSerialization.data(withJSONObject: object) }, pathCount: pathCount)
          && isDepthLimitError(
            error { try JSONValue(foundationObject: object) }, pathCount: pathCount)
          && !JKSerialization.isValidJSONObject(object)
        free(foundationObject: consume object)
        if !refused { exit(1) }
      }
    }
  }

  @Test func serializationWritesExactlyTheLimit() throws {
    let limit = JSONValue.maxDepthLimit
    let deepest = String(repeating: "[", count: limit) + "1" + String(repeating: "]", count: limit)
    let written = try JKSerialization.data(withJSONObject: deepAnyArrays(limit))
    #expect(String(decoding: written, as: UTF8.self) == deepest)
    #expect(JKSerialization.isValidJSONObject(deepDictionaries(limit)))
    let tooDeep = deepAnyArrays(limit + 1)
    #expect(!JKSerialization.isValidJSONObject(tooDeep))
    #expect(
      isDepthLimitError(
        error { try JKSerialization.data(withJSONObject: tooDeep) }, pathCount: limit))
  }

  /// Codable's `encode(to:)` of a `JSONValue` stops at the limit; JKEncoder,
  /// which writes a `JSONValue` without Codable, takes it as deep as its
  /// `maxDepth`.
  @Test func codableEncodingStopsAtTheLimit() async {
    await #expect(processExitsWith: .success) {
      let ok = onThread(stackSize: 64 << 20) {
        let value = deepArrays(DeepValueTests.deep)
        let snakeCase = JKEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        snakeCase.maxDepth = .max
        let direct = JKEncoder()
        direct.maxDepth = .max
        let outcome =
          isDepthLimitError(error { try JSONEncoder().encode(value) }, pathCount: 1024)
          && isDepthLimitError(error { try snakeCase.encode(value) }, pathCount: 1024)
          && (try? direct.encode(value))?.count == 2 * DeepValueTests.deep + 4
        free(consume value)
        return outcome
      }
      if ok != true { exit(1) }
    }
  }

  @Test func codableEncodesExactlyTheLimit() {
    let ok = onThread(stackSize: 64 << 20) {
      let encoder = JKEncoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      encoder.maxDepth = .max
      let limit = JSONValue.maxDepthLimit
      for value in [deepArrays(limit), deepObjects(limit)] {
        guard (try? encoder.encode(value)) == (try? value.jsonData()) else { return false }
      }
      return isDepthLimitError(
        error { try encoder.encode(deepObjects(limit + 1)) }, pathCount: limit)
    }
    #expect(ok == true)
  }

  /// Equality, hashing, writing and description keep no call-stack frame
  /// per level (hashing looks at the outer levels only).
  @Test func theOtherWalksTakeAnyDepth() throws {
    for build in [deepArrays, deepObjects] {
      let value = build(Self.deep)
      let copy = build(Self.deep)
      let shallower = build(Self.deep - 1)
      let equal = value == copy
      let hashesAlike = value.hashValue == copy.hashValue
      let differs = value != shallower
      // Compact: pretty-printed, the indentation alone would be depth²
      // bytes.
      let text = try value.jsonString(options: [.sortedKeys])
      let description = value.description
      let debugDescription = value.debugDescription
      free(consume value)
      free(consume copy)
      free(consume shallower)
      #expect(equal && hashesAlike && differs)
      #expect(text.count > Self.deep)
      #expect(description.count > Self.deep)
      #expect(debugDescription.count > Self.deep)
    }
  }
}
