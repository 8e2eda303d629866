import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// The benchmark inputs made from the corpora: reordered keys, the app-style Twitter
/// document and repeated statuses hold the same data as the originals, and come out the
/// same on every run.
@Suite("Corpus variants")
struct CorpusVariantTests {
  private func directory() throws -> URL {
    try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
  }

  private func expectSameModel<Model: Decodable & Equatable>(
    _ type: Model.Type, _ original: Data, _ variant: Data, _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try JSONDecoder().decode(type, from: original)
    #expect(
      try JSONDecoder().decode(type, from: variant) == expected, "\(name) through JSONDecoder",
      sourceLocation: sourceLocation)
    #expect(
      try JKDecoder().decode(type, from: variant) == expected, "\(name) through JKDecoder",
      sourceLocation: sourceLocation)
  }

  @Test func everyReorderedVariantDecodesToTheOriginalsModel() throws {
    let directory = try directory()
    for variant in CorpusVariant.all where !variant.appStyle && variant.keyOrder != .declaration {
      let original = try variant.corpus.data(in: directory)
      let bytes = try variant.data(fromOriginal: original)
      #expect(bytes != original, "\(variant.name)")
      switch variant.corpus {
      case .twitter: try expectSameModel(Twitter.SearchResult.self, original, bytes, variant.name)
      case .citmCatalog: try expectSameModel(CITM.Catalog.self, original, bytes, variant.name)
      default: try expectSameModel(Canada.FeatureCollection.self, original, bytes, variant.name)
      }
    }
  }

  /// Every object's keys in the order the document lists them, by the object's path
  /// (keys and indices), so that documents whose objects come in another order compare.
  private func keyLists(_ value: JSONValue, at path: String = "$") -> [String: [String]] {
    switch value {
    case .array(let elements):
      return elements.enumerated().reduce(into: [:]) { lists, element in
        lists.merge(keyLists(element.element, at: "\(path)[\(element.offset)]")) { $1 }
      }
    case .object(let object):
      return zip(object.keys, object.values).reduce(into: [path: object.keys]) { lists, member in
        lists.merge(keyLists(member.1, at: "\(path).\(member.0)")) { $1 }
      }
    default:
      return [:]
    }
  }

  @Test func reorderedVariantsAreMinifiedAndInTheirOrder() throws {
    let directory = try directory()
    for corpus in [Corpus.twitter, .citmCatalog, .canada] {
      let original = keyLists(try JSONValue(parsing: corpus.data(in: directory)))
      let sortedBytes = try CorpusVariant(corpus, .sorted).data(in: directory)
      let shuffledBytes = try CorpusVariant(corpus, .shuffled).data(in: directory)
      for bytes in [sortedBytes, shuffledBytes] {
        #expect(!bytes.contains(UInt8(ascii: "\n")), "\(corpus)")
      }
      let sorted = keyLists(try JSONValue(parsing: sortedBytes))
      let shuffled = keyLists(try JSONValue(parsing: shuffledBytes))
      #expect(Set(sorted.keys) == Set(original.keys), "\(corpus)")
      #expect(Set(shuffled.keys) == Set(original.keys), "\(corpus)")
      let unsorted = original.filter { path, keys in
        sorted[path] != keys.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
      }
      #expect(unsorted.isEmpty, "\(corpus): \(unsorted.keys.sorted().prefix(3))")
      let notPermuted = original.filter { path, keys in
        shuffled[path].map { $0.sorted() } != keys.sorted()
      }
      #expect(notPermuted.isEmpty, "\(corpus): \(notPermuted.keys.sorted().prefix(3))")
      let larger = original.filter { $0.value.count > 2 }
      let moved = larger.filter { shuffled[$0.key] != $0.value }
      #expect(moved.count * 2 > larger.count, "\(corpus): \(moved.count) of \(larger.count)")
    }
  }

  /// A change to how variants are made changes what every benchmark measures; these
  /// digests make it a visible decision.
  @Test func variantsAreTheSameBytesOnEveryRun() throws {
    let directory = try directory()
    func digest(_ data: Data) -> String {
      // FNV-1a, 64 bits.
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return String(hash, radix: 16)
    }
    var digests: [String: String] = [:]
    for variant in CorpusVariant.all where variant.keyOrder != .declaration || variant.appStyle {
      digests[variant.name] = digest(try variant.data(in: directory))
    }
    #expect(
      digests == [
        "twitter-sorted": "1ecc0bed02a86f3", "twitter-shuffled": "2023ce61168cf7d9",
        "citm_catalog-sorted": "2db3d46bf7b3848c", "citm_catalog-shuffled": "93ee680bbb8d5cdc",
        "canada-sorted": "2262a173d2685fe", "canada-shuffled": "790c6c8120b8aeba",
        "twitter-app": "3ffee6eebba99a51", "twitter-app-sorted": "9ed78b7577d1ea81",
        "twitter-app-shuffled": "5c420709c284f91f",
      ])
  }

  @Test func twitterDatesBecomeISO8601WithoutACalendar() {
    #expect(
      TwitterApp.iso8601(fromTwitterDate: "Sun Aug 31 00:29:15 +0000 2014")
        == "2014-08-31T00:29:15Z")
    #expect(
      TwitterApp.iso8601(fromTwitterDate: "Tue Jan 01 23:05:09 -0530 2013")
        == "2013-01-01T23:05:09-05:30")
    for text in [
      "", "Sun Aug 31 00:29:15 2014", "Sun Foo 31 00:29:15 +0000 2014",
      "Sun Aug 31 0:29:15 +0000 2014", "2014-08-31T00:29:15Z",
    ] {
      #expect(TwitterApp.iso8601(fromTwitterDate: text) == nil, "\(text)")
    }
  }

  private func foundationAppDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  private func jsonKitAppDecoder() -> JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  @Test func appStyleTwitterDecodesAlikeThroughFoundationAndJSONKitInEveryKeyOrder() throws {
    let directory = try directory()
    var models: [TwitterApp.SearchResult] = []
    for variant in CorpusVariant.all where variant.appStyle {
      let bytes = try variant.data(in: directory)
      let expected = try foundationAppDecoder().decode(TwitterApp.SearchResult.self, from: bytes)
      #expect(
        try jsonKitAppDecoder().decode(TwitterApp.SearchResult.self, from: bytes) == expected,
        "\(variant.name)")
      models.append(expected)
    }
    #expect(models.count == 3 && models.allSatisfy { $0 == models[0] })
    let first = try #require(models.first?.statuses.first)
    #expect(first.createdAt == Date(timeIntervalSince1970: 1_409_444_955))
    #expect(first.metadata.resultType == .recent)
    #expect(first.user.profileImageUrl.scheme == "http")
  }

  /// The app-style model holds what the literal one does, in other types.
  @Test func appStyleTwitterHoldsTheLiteralModelsData() throws {
    let original = try Corpus.twitter.data(in: try directory())
    let app = try foundationAppDecoder().decode(
      TwitterApp.SearchResult.self, from: TwitterApp.appStyleDocument(from: original))
    let literal = try JSONDecoder().decode(Twitter.SearchResult.self, from: original)
    #expect(app.statuses.count == literal.statuses.count)
    for (app, literal) in zip(app.statuses, literal.statuses) {
      #expect(app.id == literal.id && app.text == literal.text)
      #expect(TwitterApp.iso8601(fromTwitterDate: literal.createdAt) != nil)
      #expect(app.metadata.resultType.rawValue == literal.metadata.resultType)
      #expect(app.user.url?.absoluteString == literal.user.url)
      #expect(
        app.entities.urls.map(\.expandedUrl.absoluteString)
          == literal.entities.urls.map(\.expandedUrl))
      #expect(app.entities.media?.map(\.type.rawValue) == literal.entities.media?.map(\.type))
    }
  }

  @Test func minifiedCorporaKeepTheirKeysAndValues() throws {
    for corpus in [Corpus.twitter, .citmCatalog, .canada] {
      let original = try corpus.data(in: try directory())
      let minified = try CorpusVariant.minified(original)
      #expect(minified.count < original.count, "\(corpus)")
      #expect(try CorpusVariant.minified(minified) == minified, "\(corpus)")
      #expect(try JSONValue(parsing: minified) == (try JSONValue(parsing: original)), "\(corpus)")
      #expect(
        keyLists(try JSONValue(parsing: minified)) == keyLists(try JSONValue(parsing: original)))
    }
  }

  @Test func repeatedTwitterHoldsTheStatusesThatManyTimes() throws {
    let original = try Corpus.twitter.data(in: try directory())
    let once = try JSONDecoder().decode(
      Twitter.SearchResult.self, from: CorpusVariant.twitterRepeated(original, times: 1))
    #expect(once == (try JSONDecoder().decode(Twitter.SearchResult.self, from: original)))
    let repeated = try CorpusVariant.twitterRepeated(original, times: 4)
    let four = try JKDecoder().decode(Twitter.SearchResult.self, from: repeated)
    #expect(four.statuses == Array([[Twitter.Status]](repeating: once.statuses, count: 4).joined()))
    #expect(four.searchMetadata == once.searchMetadata)
  }

  @Test func variantNamesFollowTheBenchmarkNaming() {
    #expect(
      CorpusVariant.all.map(\.name) == [
        "twitter", "twitter-sorted", "twitter-shuffled",
        "citm_catalog", "citm_catalog-sorted", "citm_catalog-shuffled",
        "canada", "canada-sorted", "canada-shuffled",
        "twitter-app", "twitter-app-sorted", "twitter-app-shuffled",
      ])
  }
}
