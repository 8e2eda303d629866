/// A class whose instances ``JKCBORDecoder`` can rebuild inside a cycle of
/// shared references: an instance that refers, through its members, back to
/// itself.
///
/// Codable cannot decode a cycle: `init(from:)` makes the instance only once
/// all its members are read, so a member that refers back to it has no
/// instance to refer to. A class that conforms is made in two steps, as
/// `NSKeyedUnarchiver` and FastCoding rebuild graphs: ``init()`` first, then
/// ``decodeMembers(from:)`` on that instance, and every reference met while
/// its members are read is that instance. ``JKCBOREncoder`` writes a cycle
/// through such an instance, with ``JKCBOREncoder/Options/sharedReferences``,
/// as a tag 29 inside the tag 28 that marks it; it throws for a cycle through
/// any other instance.
///
/// ```swift
/// final class Person: Codable, JKCBORCyclicDecodable {
///   var name = ""
///   var friends: [Person] = []
///
///   init() {}
///   init(from decoder: any Decoder) throws { try decodeMembers(from: decoder) }
///
///   func decodeMembers(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: CodingKeys.self)
///     name = try container.decode(String.self, forKey: .name)
///     friends = try container.decode([Person].self, forKey: .friends)
///   }
/// }
/// ```
///
/// Only ``JKCBORDecoder`` reads a cycle; other decoders call `init(from:)`.
/// A value type, or a class that does not conform, met inside a cycle is an
/// error.
public protocol JKCBORCyclicDecodable: AnyObject, Decodable {
  /// An instance whose members are not read yet: ``decodeMembers(from:)``
  /// follows.
  init()

  /// Reads the instance's members from `decoder`, as `init(from:)` would
  /// set them; a member that refers back to this instance gets it.
  func decodeMembers(from decoder: any Decoder) throws
}
