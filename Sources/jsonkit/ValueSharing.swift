import JSONKit

/// `jsonkit format --to cbor --shared-references`: a document has no
/// identities, so the arrays and maps it shares are those that occur more
/// than once with equal contents (to the bit: `CBORValue`'s equality). Each
/// is written once, in tag 28, and then as tag 29 with its number
/// (cbor.schmorp.de/value-sharing), numbered in output order, when that
/// makes the output smaller. Map keys are left as they are: JSONKit's
/// decoder, like most, reads only plain keys.
///
/// A reader that knows the tags (`JKCBORDecoder`, `CBORValue(cbor:)`,
/// Python's `cbor2`) reads the same document back.
enum ValueSharing {
  /// The tag of a value that is referred to.
  private static let shareable: UInt64 = 28
  /// The tag of a reference.
  private static let reference: UInt64 = 29

  /// `item` with its repeated arrays and maps shared.
  static func shared(_ item: CBORValue) -> CBORValue {
    var sharing = Sharing()
    _ = sharing.count(item)
    guard sharing.containers.values.contains(where: \.isShared) else { return item }
    return sharing.rewrite(item)
  }

  /// An array or map of the document.
  private struct Container {
    /// How often it is met in output order, not looking into one met
    /// before (which will be a reference).
    var count = 1
    /// Its size in bytes, written as CBOR.
    var size: Int
    /// Its shared number, once written.
    var number: UInt64?

    /// Whether the bytes its references save are more than the tags cost,
    /// whatever its number (a reference takes at most 11 bytes, tag 28 two).
    var isShared: Bool { count > 1 && (count - 1) * (size - 11) > 2 }
  }

  private struct Sharing {
    var containers: [CBORValue: Container] = [:]
    var nextNumber: UInt64 = 0

    /// The size of `item` written as CBOR, counting its arrays and maps.
    mutating func count(_ item: CBORValue) -> Int {
      switch item {
      case .array(let elements):
        if let size = countAgain(item) { return size }
        var size = ValueSharing.headSize(UInt64(elements.count))
        for element in elements { size += count(element) }
        containers[item] = Container(size: size)
        return size
      case .map(let pairs):
        if let size = countAgain(item) { return size }
        var size = ValueSharing.headSize(UInt64(pairs.count))
        for pair in pairs { size += keySize(pair.key) + count(pair.value) }
        containers[item] = Container(size: size)
        return size
      case .tagged(let tag, let content):
        return ValueSharing.headSize(tag) + count(content)
      case .text(let text):
        return ValueSharing.headSize(UInt64(text.utf8.count)) + text.utf8.count
      case .bytes(let bytes):
        return ValueSharing.headSize(UInt64(bytes.count)) + bytes.count
      case .unsigned(let value), .negative(let value):
        return ValueSharing.headSize(value)
      default:
        return item.cborBytes().count
      }
    }

    /// Counts `item` once more if it was met before, and gives its size.
    private mutating func countAgain(_ item: CBORValue) -> Int? {
      guard let index = containers.index(forKey: item) else { return nil }
      containers.values[index].count += 1
      return containers.values[index].size
    }

    /// The size of a map key, which is never shared.
    private func keySize(_ key: CBORValue) -> Int {
      switch key {
      case .text(let text): ValueSharing.headSize(UInt64(text.utf8.count)) + text.utf8.count
      case .unsigned(let value), .negative(let value): ValueSharing.headSize(value)
      default: key.cborBytes().count
      }
    }

    /// `item` with the shared values' tags, numbered as they are met.
    mutating func rewrite(_ item: CBORValue) -> CBORValue {
      switch item {
      case .array(let elements):
        return share(item) { sharing in .array(elements.map { sharing.rewrite($0) }) }
      case .map(let pairs):
        return share(item) { sharing in
          .map(pairs.map { (key: $0.key, value: sharing.rewrite($0.value)) })
        }
      case .tagged(let tag, let content):
        return .tagged(tag, rewrite(content))
      default:
        return item
      }
    }

    /// A reference to `container` if it was written, else its content
    /// (`content` writes it), in tag 28 when shared.
    private mutating func share(
      _ container: CBORValue, _ content: (inout Sharing) -> CBORValue
    ) -> CBORValue {
      guard let index = containers.index(forKey: container) else { return content(&self) }
      if let number = containers.values[index].number {
        return .tagged(ValueSharing.reference, .unsigned(number))
      }
      guard containers.values[index].isShared else { return content(&self) }
      // A shared value is numbered where its tag is, before its content.
      containers.values[index].number = nextNumber
      nextNumber += 1
      return .tagged(ValueSharing.shareable, content(&self))
    }
  }

  /// `item` with every map's members in the order of their keys' bytes,
  /// at every level, as `JKCBOREncoder.Options.deterministic` orders them.
  static func sortingMaps(_ item: CBORValue) -> CBORValue {
    switch item {
    case .array(let elements):
      return .array(elements.map(sortingMaps))
    case .map(let pairs):
      let members = pairs.map { (key: sortingMaps($0.key), value: sortingMaps($0.value)) }
      let keyBytes = members.map { $0.key.cborBytes() }
      let order = members.indices.sorted {
        keyBytes[$0].lexicographicallyPrecedes(keyBytes[$1])
          || (keyBytes[$0] == keyBytes[$1] && $0 < $1)
      }
      return .map(order.map { members[$0] })
    case .tagged(let tag, let content):
      return .tagged(tag, sortingMaps(content))
    default:
      return item
    }
  }

  /// The size of a head whose argument is `argument`.
  private static func headSize(_ argument: UInt64) -> Int {
    argument < 24 ? 1 : argument < 256 ? 2 : argument < 65536 ? 3 : argument < 1 << 32 ? 5 : 9
  }
}
