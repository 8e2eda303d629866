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
    var counting = Counting()
    _ = counting.visit(item)
    var numbering = Numbering(shared: counting.sharedValues())
    return numbering.rewrite(item)
  }

  /// How often each array and map is met in output order, not looking into
  /// one met before (which will be a reference), and its size in bytes.
  private struct Counting {
    var seen: [CBORValue: (count: Int, size: Int)] = [:]

    /// The size of `item` written as CBOR, noting its arrays and maps.
    mutating func visit(_ item: CBORValue) -> Int {
      switch item {
      case .array(let elements):
        if let known = note(item) { return known }
        var size = ValueSharing.headSize(UInt64(elements.count))
        for element in elements { size += visit(element) }
        seen[item] = (1, size)
        return size
      case .map(let pairs):
        if let known = note(item) { return known }
        var size = ValueSharing.headSize(UInt64(pairs.count))
        for pair in pairs { size += keySize(pair.key) + visit(pair.value) }
        seen[item] = (1, size)
        return size
      case .tagged(let tag, let content):
        return ValueSharing.headSize(tag) + visit(content)
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

    /// The size of a map key, which is never shared.
    private func keySize(_ key: CBORValue) -> Int {
      switch key {
      case .text(let text): ValueSharing.headSize(UInt64(text.utf8.count)) + text.utf8.count
      case .unsigned(let value), .negative(let value): ValueSharing.headSize(value)
      default: key.cborBytes().count
      }
    }

    /// Counts `item` once more if it was met before, and gives its size.
    private mutating func note(_ item: CBORValue) -> Int? {
      guard var known = seen[item] else { return nil }
      known.count += 1
      seen[item] = known
      return known.size
    }

    /// The values worth sharing: the bytes their references save are more
    /// than the tags cost, whatever their numbers (a reference takes at
    /// most 11 bytes, the tag 28 two).
    func sharedValues() -> Set<CBORValue> {
      var shared: Set<CBORValue> = []
      for (item, known) in seen where known.count > 1 && (known.count - 1) * (known.size - 11) > 2 {
        shared.insert(item)
      }
      return shared
    }
  }

  /// Writes the shared values' tags, numbering them as they are met.
  private struct Numbering {
    let shared: Set<CBORValue>
    var numbers: [CBORValue: UInt64] = [:]

    init(shared: Set<CBORValue>) {
      self.shared = shared
    }

    mutating func rewrite(_ item: CBORValue) -> CBORValue {
      switch item {
      case .array, .map:
        guard !shared.isEmpty else { return item }
        if let number = numbers[item] { return .tagged(ValueSharing.reference, .unsigned(number)) }
        let isShared = shared.contains(item)
        // A shared value is numbered where its tag is, before its content.
        if isShared { numbers[item] = UInt64(numbers.count) }
        let content: CBORValue
        if case .array(let elements) = item {
          content = .array(elements.map { rewrite($0) })
        } else if case .map(let pairs) = item {
          content = .map(pairs.map { (key: $0.key, value: rewrite($0.value)) })
        } else {
          content = item
        }
        return isShared ? .tagged(ValueSharing.shareable, content) : content
      case .tagged(let tag, let content):
        return .tagged(tag, rewrite(content))
      default:
        return item
      }
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
