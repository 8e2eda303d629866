import Foundation

/// How one encode call names the object (or map) members it writes under
/// its key strategy (`.useDefaultKeys` or `.convertToSnakeCase`; a custom
/// strategy's names the session asks for itself), for JKEncoder and
/// JKCBOREncoder alike: each name with the
/// written form the process-wide ``EncodedKeyCache`` keeps for it, from a
/// snapshot of the cache taken when the call begins, and the snake_case
/// conversions the cache does not keep.
struct MemberNaming {
  /// Keeps every member's coding key, not only those with an int value:
  /// a key strategy makes member names differ from the keys' strings.
  let keepsAllKeys: Bool
  /// Whether keys are written converted to snake_case.
  let convertsToSnakeCase: Bool
  /// The process-wide cache of the written form of keys for the key
  /// strategy (see ``EncodedKeyCache``); nil when the session names keys
  /// itself (a custom strategy), and ``name(of:)`` is not used.
  private let keyCache: EncodedKeyCache?
  /// The written form of keys, from a snapshot of `keyCache` (empty
  /// without one).
  private var keyTable: EncodedKeyCache.Table
  /// How many more times this call may try to add a key to the cache after
  /// tries the cache turned away: a table full near a key's slot turns every
  /// new key there away, and each try costs a lock. Keys the cache takes are
  /// not counted (the table bounds them), so that a model with many keys
  /// has them all kept after its first encode.
  private var keyAdditionsLeft = 64
  /// Converted keys for `.convertToSnakeCase` that the key cache does not
  /// keep, by coding key.
  /// Strings that are canonically equivalent are equal dictionary keys but
  /// convert differently (the conversion works on their scalars), so each
  /// entry keeps the key it was made for.
  private var snakeCaseKeys: [String: (key: String, converted: String)] = [:]

  init(keyStrategy: JSONEncoder.KeyEncodingStrategy) {
    switch keyStrategy {
    case .useDefaultKeys:
      keepsAllKeys = false
      convertsToSnakeCase = false
      keyCache = EncodedKeyCache.shared
    case .convertToSnakeCase:
      keepsAllKeys = true
      convertsToSnakeCase = true
      keyCache = EncodedKeyCache.snakeCased
    default:
      keepsAllKeys = true
      convertsToSnakeCase = false
      keyCache = nil
    }
    keyTable = keyCache?.snapshot() ?? EncodedKeyCache.Table(buckets: [])
  }

  /// The name `key` is written under (its string, or that converted to
  /// snake_case), with the written form the process-wide key cache keeps
  /// for it: found by the bits of the key's string, or added on its first
  /// use when it may be kept (see ``EncodedKeyCache``). Not for a custom key
  /// strategy, whose names the session makes.
  @inline(__always)
  mutating func name<Key: CodingKey>(of key: Key) -> MemberName {
    let string = key.stringValue
    guard _isPOD(Key.self) else {
      return MemberName(convertsToSnakeCase ? snakeCasedName(of: string) : string)
    }
    if let entry = keyTable.find(EncodedKeyCache.bits(string)) {
      // Without a conversion the entry's name is `string`, the same bits.
      return MemberName(convertsToSnakeCase ? entry.pointee.name : string, cached: entry)
    }
    return uncachedName(of: key, string)
  }

  /// The entry of the key whose string is `string`, if the snapshot of the
  /// cache holds it; nothing is added. Its name is the written one.
  /// (Mutating only so that a class holding the naming reaches it in place,
  /// rather than copying it and retaining its tables, on every member.)
  @inline(__always)
  mutating func cachedEntry(ofKey string: String) -> UnsafeMutablePointer<EncodedKeyCache.Entry>? {
    keyTable.find(EncodedKeyCache.bits(string))
  }

  /// ``name(of:)`` for a key of a plain-data type not in the snapshot of
  /// the cache, whose string is `string`: adds it to the cache when it may
  /// be kept.
  @inline(never)
  private mutating func uncachedName<Key: CodingKey>(of key: Key, _ string: String)
    -> MemberName
  {
    let name = convertsToSnakeCase ? snakeCasedName(of: string) : string
    guard keyAdditionsLeft > 0, let keyCache, EncodedKeyCache.isCacheable(name),
      EncodedKeyCache.bits(key.stringValue) == EncodedKeyCache.bits(string)
    else { return MemberName(name) }
    guard let entry = keyCache.add(string, writtenAs: name) else {
      keyAdditionsLeft -= 1
      return MemberName(name)
    }
    _ = keyTable.insert(entry)
    return MemberName(name, cached: entry)
  }

  /// The key string `original` converted to snake_case, converting each
  /// distinct key once per call (for keys the process-wide cache does not
  /// keep).
  private mutating func snakeCasedName(of original: String) -> String {
    if let cached = snakeCaseKeys[original] {
      if Self.haveSameBytes(cached.key, original) { return cached.converted }
      return KeyConversion.snakeCased(original)
    }
    let converted = KeyConversion.snakeCased(original)
    snakeCaseKeys[original] = (original, converted)
    return converted
  }

  /// Whether two strings are the same scalars, not only canonically
  /// equivalent.
  private static func haveSameBytes(_ first: String, _ second: String) -> Bool {
    let same = first.utf8.withContiguousStorageIfAvailable { first in
      second.utf8.withContiguousStorageIfAvailable { second in
        first.count == second.count
          && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
      }
    }
    return (same ?? nil) ?? first.utf8.elementsEqual(second.utf8)
  }
}
