import Foundation
import JSONKitCorpus

@testable import JSONKit

/// gzip streams for the tests: members made by JSONKit's writer, headers
/// rebuilt with optional fields, and the checked-in fixtures.
enum GzipStreams {
  /// `text` as one gzip member, compressed at `level`.
  static func member(_ text: some StringProtocol, level: Int = 6) -> [UInt8] {
    member(Array(text.utf8), level: level)
  }

  /// `bytes` as one gzip member, compressed at `level`.
  static func member(_ bytes: [UInt8], level: Int = 6) -> [UInt8] {
    var writer = ByteWriter()
    bytes.withUnsafeBytes { GzipWriter.compress($0, level: level, into: &writer) }
    return writer.finishBytes()
  }

  /// The inflated text of a stream, through JSONKit's reader, or its error.
  static func inflate(_ stream: [UInt8], limit: Int = 1 << 30) throws(JKParseError) -> [UInt8] {
    try stream.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        let text = try GzipReader.inflate(bytes, limit: limit)
        defer { text.deallocate() }
        return Array(text.bytes)
      }
    }.get()
  }

  /// Header flag bits (RFC 1952).
  static let headerCRC: UInt8 = 0x02
  static let extra: UInt8 = 0x04
  static let name: UInt8 = 0x08
  static let comment: UInt8 = 0x10

  /// `member` with its plain ten-byte header replaced by one that carries
  /// the optional fields `flags` names, as other writers set them.
  static func withHeaderFields(_ member: [UInt8], flags: UInt8) -> [UInt8] {
    var header: [UInt8] = [0x1F, 0x8B, 8, flags, 0x78, 0x56, 0x34, 0x12, 0, 3]
    if flags & extra != 0 {
      let field: [UInt8] = [0x41, 0x70, 4, 0, 1, 2, 3, 0]  // subfield "Ap", 4 bytes
      header += [UInt8(field.count), 0] + field
    }
    if flags & name != 0 { header += Array("data.json".utf8) + [0] }
    if flags & comment != 0 { header += Array("written for a test".utf8) + [0] }
    if flags & headerCRC != 0 {
      let crc = crc32(header)
      header += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF)]
    }
    return header + member[10...]
  }

  /// CRC-32 (ISO 3309, as gzip uses it), bit by bit: an oracle independent
  /// of zlib's.
  static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// A checked-in fixture in `Tests/Fixtures/Gzip`.
  static func fixture(_ name: String) throws -> [UInt8] {
    [UInt8](
      try Data(
        contentsOf: Fixtures.directory.appendingPathComponent("Gzip").appendingPathComponent(name)))
  }

  /// A corpus's plain JSON.
  static func corpus(_ corpus: Corpus) throws -> [UInt8] {
    guard let directory = Corpus.dataDirectory(nearSourceFile: #filePath) else {
      throw CocoaError(.fileNoSuchFile)
    }
    return [UInt8](try corpus.data(in: directory))
  }
}
