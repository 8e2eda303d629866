import Foundation
import JSONKit

/// A Codable model that reaches every kind of value `JKDecoder` and
/// `JKEncoder` handle: every integer width (128-bit ones included),
/// `Double`, `Float`, `Decimal`, `Date`, `Data`, `URL`, optionals, arrays,
/// dictionaries with `String` and `Int` keys, enums with associated values,
/// untyped `JSONValue`, and recursion.
///
/// Only `id` is required, so that most objects the fuzzer makes decode far
/// enough to reach the nested values.
struct FuzzModel: Codable, Equatable {
  var id: Int
  var small: Int8?
  var short: Int16?
  var medium: Int32?
  var large: Int64?
  var unsigned: UInt?
  var byte: UInt8?
  var unsignedShort: UInt16?
  var unsignedMedium: UInt32?
  var unsignedLarge: UInt64?
  var wide: Int128?
  var unsignedWide: UInt128?
  var ratio: Double?
  var single: Float?
  var amount: Decimal?
  var when: Date?
  var blob: Data?
  var link: URL?
  var name: String?
  var flag: Bool?
  var tags: [String]?
  var grid: [[Int16]]?
  var scores: [String: Double]?
  var names: [Int: String]?
  var shape: Shape?
  var shapes: [Shape?]?
  var extra: JSONValue?
  var unit: Unit?
  var children: [FuzzModel]?
}

/// An enum whose cases carry values, as Swift's synthesized Codable writes
/// them: `{"circle":{"radius":1}}`, `{"label":{"_0":"x","size":2}}`.
indirect enum Shape: Codable, Equatable {
  case point
  case circle(radius: Double)
  case rect(width: UInt32, height: UInt32)
  case label(String, size: Int8?)
  case group([Shape])
  case tagged(key: String, value: Shape)
  case measure(Decimal, Float)
}

/// A string-backed enum.
enum Unit: String, Codable {
  case metre
  case second
  case kilogram
}

extension FuzzModel {
  /// A few values that between them use every field, for seeding.
  static var samples: [FuzzModel] {
    var full = FuzzModel(id: 1)
    full.small = -128
    full.short = 32767
    full.medium = -2_147_483_648
    full.large = Int64.max
    full.unsigned = 0
    full.byte = 255
    full.unsignedShort = 65535
    full.unsignedMedium = 4_294_967_295
    full.unsignedLarge = UInt64.max
    full.wide = Int128(Int64.min) * 1000
    full.unsignedWide = UInt128(UInt64.max) * 7
    full.ratio = 0.1
    full.single = 1.5e-7
    full.amount = Decimal(string: "12345.678901234567890123456789")
    full.when = Date(timeIntervalSinceReferenceDate: 123_456.789)
    full.blob = Data([0, 1, 2, 250, 255])
    full.link = URL(string: "https://example.com/a/b?c=d#e")
    full.name = "Ada \u{1F600} \"quoted\" / \\ \n"
    full.flag = true
    full.tags = ["a", "", "é"]
    full.grid = [[1, 2], [], [-3]]
    full.scores = ["x": 1.25, "y": -0.0, "snake_key": 1e300]
    full.names = [1: "one", -2: "minus two"]
    full.shape = .tagged(key: "k", value: .group([.point, .circle(radius: 2)]))
    full.shapes = [.rect(width: 1, height: 2), nil, .label("l", size: nil), .measure(1.5, 2.5)]
    full.extra = ["any": [1, 2.5, "three", nil, true, ["deep": [:]]]]
    full.unit = .kilogram
    var child = FuzzModel(id: 2)
    child.children = [FuzzModel(id: 3)]
    full.children = [child]
    var sparse = FuzzModel(id: -1)
    sparse.extra = .array([])
    sparse.shape = .point
    return [full, sparse, FuzzModel(id: 0)]
  }
}
