/// Models for `canada.json`, a GeoJSON feature collection with one polygon: the
/// border of Canada, about 56,000 points.
///
/// The file's keys have no underscores, so these types need no coding keys and
/// decode the same with the default key strategy and with `.convertFromSnakeCase`.
///
/// ```swift
/// let canada = try JSONDecoder().decode(Canada.FeatureCollection.self, from: bytes)
/// ```
public enum Canada {
  /// The whole document.
  public struct FeatureCollection: Codable, Equatable, Sendable {
    /// `FeatureCollection`.
    public let type: String
    /// The features: one, Canada.
    public let features: [Feature]
  }

  /// A named shape.
  public struct Feature: Codable, Equatable, Sendable {
    /// `Feature`.
    public let type: String
    /// The feature's name.
    public let properties: Properties
    /// The shape.
    public let geometry: Geometry
  }

  /// A feature's properties.
  public struct Properties: Codable, Equatable, Sendable {
    /// The feature's name.
    public let name: String
  }

  /// A polygon.
  public struct Geometry: Codable, Equatable, Sendable {
    /// `Polygon`.
    public let type: String
    /// The polygon's rings; each ring is a list of `[longitude, latitude]` pairs.
    public let coordinates: [[[Double]]]
  }
}
