import Foundation
import JSONKitCorpus
import Testing

@testable import JSONKit

// MARK: - URLs

extension FoundationParityTests {
  /// Texts in and around what `URL(string:)` reads: links of every part
  /// (user, port, query, fragment, IP literals, percent escapes), relative
  /// references, texts Foundation percent-encodes (spaces, braces, non-ASCII)
  /// or refuses (an empty text, a bad port, a broken IP literal), and seeded
  /// mutations of each; the same on every run.
  static let urlTexts: [String] = {
    let notable = [
      "https://example.com", "https://example.com/", "http://example.com:8080/a/b?c=d#e",
      "https://user:pass@example.com/path", "https://[::1]:443/x", "https://[fe80::1%25en0]/",
      "https://[::1", "http://example.com:port/", "http://example.com:99999999999999999999/",
      "ftp://files.example.com/a%20b.txt", "mailto:someone@example.com", "urn:isbn:0451450523",
      "file:///etc/hosts", "/relative/path?q=1", "relative", "?query", "#fragment", "//host/x",
      "", " ", "https://example.com/a b", "https://example.com/{id}", "https://exa mple.com/",
      "https://example.com/é", "https://例え.jp/パス", "https://example.com/%",
      "https://example.com/%zz",
      "https://example.com/%41", "https:", "https://", "https:///path", "HTTPS://EXAMPLE.COM",
      "1http://example.com", "ht tp://example.com", "https://example.com/\u{7F}",
      "https://example.com/?a=1&b=2;c=3", "https://example.com/#a#b", "https://example.com/a\\b",
      "javascript:alert(1)", "data:text/plain;base64,SGVsbG8=", "https://a.b/c|d", "a:b:c",
      "https://example.com/\"quoted\"", "https://example.com/<tag>", "https://example.com/`x`",
    ]
    var random = SplitMix64(seed: 0x0BAD_CAFE_0301)
    let pieces = [
      "https://", "http://", "ftp://", "user@", "host.example", ":8080", "/", "path", "%20",
      "%2F", "?", "q=1", "&", "#", "frag", " ", "{", "}", "[", "]", "::1", "é", "|", "\\", "^",
      "@", ":", ";", "=", "+", "~", "..", ".", "-", "_", "%", "%G1",
    ]
    var texts = notable
    for _ in 0..<1500 {
      var text = ""
      for _ in 0..<Int(random.next() % 7 + 1) {
        text += pieces[Int(random.next() % UInt64(pieces.count))]
      }
      texts.append(text)
    }
    // One character of a link dropped, or replaced by printable ASCII.
    let base = Array("https://user@host.example:8080/a/b%20c?q=1&r=[2]#frag")
    for _ in 0..<600 {
      var characters = base
      let position = Int(random.next() % UInt64(characters.count))
      if random.next() % 3 == 0 {
        characters.remove(at: position)
      } else {
        characters[position] = Character(
          Unicode.Scalar(UInt8(0x20 + random.next() % 0x5F)))
      }
      texts.append(String(characters))
    }
    return texts
  }()

  @Test func jkDecoderReadsURLsAsJSONDecoderDoes() throws {
    var read = 0
    var refused = 0
    for text in Self.urlTexts {
      let json = Data("[\(try Self.jsonLiteral(text))]".utf8)
      let theirs = DecodeParityOutcome { try JSONDecoder().decode([URL].self, from: json) }
      let ours = DecodeParityOutcome { try JKDecoder().decode([URL].self, from: json) }
      #expect(ours == theirs, "\(text.debugDescription)")
      if case .value = theirs { read += 1 } else { refused += 1 }
    }
    // The set tests both sides only if it holds plenty of each.
    #expect(read > 500)
    #expect(refused > 20)
  }

  struct Linked: Codable, Equatable {
    var home: URL
    var avatar: URL?
  }

  @Test func urlFieldsDecodeAsInJSONDecoder() throws {
    let documents = [
      #"{"home":"https://example.com/a?b=c","avatar":"https://cdn.example.com/1.png"}"#,
      #"{"home":"https:\/\/example.com\/escaped","avatar":null}"#, #"{"home":"https://x.y"}"#,
      #"{"home":"","avatar":"https://x.y"}"#, #"{"home":"https://x.y","avatar":""}"#,
      #"{"home":null}"#, #"{"home":12}"#, #"{"home":["https://x.y"]}"#,
      #"{"avatar":"https://x.y"}"#,
      #"{"home":"https://x.y","avatar":7}"#, #"{"home":"http://[::1"}"#,
    ]
    for document in documents {
      let json = Data(document.utf8)
      let theirs = DecodeParityOutcome { try JSONDecoder().decode(Linked.self, from: json) }
      let ours = DecodeParityOutcome { try JKDecoder().decode(Linked.self, from: json) }
      #expect(ours == theirs, "\(document)")
    }
  }

  @Test func jkEncoderWritesURLsAsJSONEncoderDoes() throws {
    let urls = Self.urlTexts.compactMap { URL(string: $0) }
    #expect(urls.count > 500)
    for formatting: JKOutputFormatting in [[], .withoutEscapingSlashes, .prettyPrinted] {
      let (foundation, jsonKit) = Self.encoderPair(formatting)
      #expect(try jsonKit.encode(urls) == foundation.encode(urls), "\(formatting)")
      let linked = urls.prefix(200).map { Linked(home: $0, avatar: $0) }
      foundation.outputFormatting.insert(.sortedKeys)
      jsonKit.outputFormatting.insert(.sortedKeys)
      #expect(try jsonKit.encode(linked) == foundation.encode(linked), "\(formatting)")
    }
  }
}
