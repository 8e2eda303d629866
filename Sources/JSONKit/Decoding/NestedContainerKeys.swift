/// The keys that nested containers and super decoders were asked for by,
/// per tape index of their value: such a container outlives the call that
/// made it, so its key cannot live on ``PathKeyStack``' stack.
///
/// Memory stays bounded however many containers a document asks for: the
/// most recent keys are kept as given (the key objects the caller made),
/// older ones only if they have an int value, the part of a key that a path
/// rebuilt from the document could not spell; any other is rebuilt with the
/// same string.
struct NestedContainerKeys {
  private static let recentCapacity = 64
  /// A ring of the most recent keys; `next` is where the next one goes.
  private var recent: [(value: Int, key: any CodingKey)] = []
  private var next = 0
  private var withIntValues: [Int: any CodingKey] = [:]

  var isEmpty: Bool { recent.isEmpty }

  mutating func remember(_ key: any CodingKey, forValue value: Int) {
    if key.intValue != nil { withIntValues[value] = key }
    if recent.count < Self.recentCapacity {
      recent.append((value, key))
    } else {
      recent[next] = (value, key)
    }
    next = (next + 1) % Self.recentCapacity
  }

  /// The key remembered last for the value at `value`.
  func key(forValue value: Int) -> (any CodingKey)? {
    var index = next
    for _ in 0..<recent.count {
      index = (index + Self.recentCapacity - 1) % Self.recentCapacity
      if recent[index].value == value { return recent[index].key }
    }
    return withIntValues[value]
  }
}
