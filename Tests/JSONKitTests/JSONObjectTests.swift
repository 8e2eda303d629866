import JSONKit
import Testing

@Suite("JSONObject")
struct JSONObjectTests {
  @Test func settingKeepsPositionsAndNilRemoves() {
    var object: JSONObject = ["name": "Ada", "born": 1815]
    object["born"] = 1816
    object["field"] = "maths"
    #expect(object.keys == ["name", "born", "field"])
    #expect(object.values == ["Ada", 1816, "maths"])
    object["name"] = nil
    #expect(object.keys == ["born", "field"])
    object["missing"] = nil
    #expect(object.count == 2)
    #expect(object.removeValue(forKey: "born") == 1816)
    #expect(object.removeValue(forKey: "born") == nil)
    #expect(object.keys == ["field"])
    #expect(!object.isEmpty)
    #expect(JSONObject().isEmpty)
  }

  @Test func pairsInitializerLastValueWinsAtFirstPosition() {
    let object = JSONObject([("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)])
    #expect(object.keys == ["a", "b", "c"])
    #expect(object.values == [3, 5, 4])
  }

  @Test func canonicallyEquivalentKeysAreOneKey() {
    var object = JSONObject([("\u{E9}", 1)])
    object["e\u{301}"] = 2
    #expect(object.count == 1)
    #expect(object.keys.first?.unicodeScalars.count == 1)
    #expect(object["\u{E9}"] == 2)
  }

  @Test func iteratesPairsInOrder() {
    let object: JSONObject = ["x": 1, "y": 2]
    #expect(object.map(\.key) == ["x", "y"])
    #expect(object.map(\.value) == [1, 2])
    #expect(object[0].key == "x")
    #expect(object.index(forKey: "y") == 1)
    #expect(object.index(forKey: "z") == nil)
    var keys: [String] = []
    for (key, _) in object {
      keys.append(key)
    }
    #expect(keys == ["x", "y"])
  }

  @Test func equalityAndHashIgnoreOrder() {
    let forward: JSONObject = ["a": 1, "b": 2, "c": 3]
    let shuffled: JSONObject = ["c": 3, "a": 1, "b": 2]
    #expect(forward == shuffled)
    #expect(forward.hashValue == shuffled.hashValue)
    #expect(forward != ["a": 1, "b": 2, "c": 4])
    #expect(forward != ["a": 1, "b": 2, "d": 3])
    #expect(forward != ["a": 1, "b": 2])
  }

  /// Objects large enough to use the key index behave exactly like a
  /// reference model through additions, replacements and removals.
  @Test func largeObjectsMatchAReferenceModel() {
    var random = SplitMix64(seed: 99)
    var object = JSONObject()
    var model: [(String, Int)] = []
    for step in 0..<3000 {
      let key = "k\(Int.random(in: 0..<200, using: &random))"
      let position = model.firstIndex { $0.0 == key }
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        object[key] = nil
        if let position { model.remove(at: position) }
      default:
        object[key] = .int(Int64(step))
        if let position { model[position].1 = step } else { model.append((key, step)) }
      }
      if step % 97 == 0 {
        #expect(object.keys == model.map(\.0))
      }
      #expect(object[key]?.intValue == model.first { $0.0 == key }?.1)
    }
    #expect(object.keys == model.map(\.0))
    for (key, value) in model {
      #expect(object[key] == .int(Int64(value)))
    }
  }

  /// Copies share storage until one changes; each copy keeps its own keys.
  @Test func copiesAreIndependent() {
    var original = JSONObject((0..<100).map { ("key\($0)", .int(Int64($0))) })
    #expect(original["key50"] == 50)  // builds the shared index
    var copy = original
    copy["new"] = 1
    copy["key10"] = nil
    original["key20"] = "changed"
    #expect(original["new"] == nil)
    #expect(original["key10"] == 10)
    #expect(original["key99"] == 99)
    #expect(original.count == 100)
    #expect(copy["new"] == 1)
    #expect(copy["key10"] == nil)
    #expect(copy["key20"] == 20)
    #expect(copy["key99"] == 99)
    #expect(copy.index(forKey: "key11") == 10)
    #expect(copy.count == 100)
    var third = copy
    third["key0"] = nil
    #expect(third.index(forKey: "key1") == 0)
    #expect(copy.index(forKey: "key1") == 1)
  }

  @Test func largeObjectsCompareInAnyOrder() {
    let pairs = (0..<5000).map { ("member\($0)", JSONValue.int(Int64($0))) }
    let forward = JSONObject(pairs)
    let backward = JSONObject(pairs.reversed())
    #expect(forward == backward)
    #expect(forward.hashValue == backward.hashValue)
    #expect(forward.index(forKey: "member4999") == 4999)
    #expect(backward.index(forKey: "member4999") == 0)
  }

  @Test func concurrentLookupsAgree() async {
    let object = JSONObject((0..<2000).map { ("k\($0)", .int(Int64($0))) })
    await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          (0..<2000).allSatisfy {
            object["k\(($0 + task * 250) % 2000)"] == .int(Int64(($0 + task * 250) % 2000))
          }
        }
      }
      for await allFound in group {
        #expect(allFound)
      }
    }
  }
}
