import Foundation

/// Decoding any `Decodable` from a tape value: the leaves and the types
/// Foundation's JSONDecoder treats specially first, then `init(from:)`.
extension DecodingSession {
  /// Decodes `T` from the value at `index`, handling the types Foundation's
  /// JSONDecoder treats specially before falling back to `init(from:)`.
  func unwrap<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    // The most common leaves first, without any dynamic cast.
    if T.self == String.self { return reinterpret(try string(at: index, path: path()), as: T.self) }
    if T.self == Int.self {
      return reinterpret(try integer(Int.self, at: index, path: path()), as: T.self)
    }
    if T.self == Double.self { return reinterpret(try double(at: index, path: path()), as: T.self) }
    if T.self == Bool.self { return reinterpret(try bool(at: index, path: path()), as: T.self) }
    // The other fixed-width numbers, each read without boxing it in `Any`.
    if T.self == Int64.self {
      return reinterpret(try integer(Int64.self, at: index, path: path()), as: T.self)
    }
    if T.self == Float.self { return reinterpret(try float(at: index, path: path()), as: T.self) }
    if T.self == Int32.self {
      return reinterpret(try integer(Int32.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt64.self {
      return reinterpret(try integer(UInt64.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt.self {
      return reinterpret(try integer(UInt.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt32.self {
      return reinterpret(try integer(UInt32.self, at: index, path: path()), as: T.self)
    }
    if T.self == Int16.self {
      return reinterpret(try integer(Int16.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt16.self {
      return reinterpret(try integer(UInt16.self, at: index, path: path()), as: T.self)
    }
    if T.self == Int8.self {
      return reinterpret(try integer(Int8.self, at: index, path: path()), as: T.self)
    }
    if T.self == UInt8.self {
      return reinterpret(try integer(UInt8.self, at: index, path: path()), as: T.self)
    }
    // One cached look-up of what `T` is decides the rest: most values met
    // here are models, which need none of the special types' checks.
    switch shape(of: T.self) {
    case .special:
      // A UUID that is not a string JSONKit reads goes to its `init(from:)`,
      // which reports it as under Foundation's decoder.
      guard T.self == UUID.self else { return try decodeSpecial(T.self, at: index, path: path()) }
      if let uuid = uuid(at: index) { return reinterpret(uuid, as: T.self) }
    case .array(let array):
      if entries[index].kind == .array {
        return try decodeArray(array, at: index, as: T.self)
      }
    case .dictionary(let dictionary):
      if entries[index].kind == .object {
        // Foundation decodes `[String: V]` without applying the key
        // strategy to its keys, which only a non-default strategy changes;
        // with the default one, as the standard library's `init(from:)`
        // does, which a walk over the members repeats without a keyed
        // container (unless a name repeats, which that settles).
        if !options.keyDecodingStrategy.isDefault {
          return try decodeDictionary(dictionary, at: index, as: T.self)
        }
        if entries[index].flags & TapeEntry.hasDuplicateKeys == 0 {
          return try decodeDictionaryMembers(dictionary, at: index, as: T.self)
        }
      }
    case .initializerOnly:
      break
    }
    // The metatype given, not `T`: a class's may be a subclass's, whose
    // `init(from:)` Foundation calls.
    return try initialize(type, at: index)
  }

  /// Decodes `T` as ``unwrap(_:at:path:)`` does, which takes the value to be
  /// a container's member (or the root), for other callers: `depth` is how
  /// many of the last keys of `path` lie below the decoder that asks for the
  /// value (0 for a single-value container; 2 for a member of a
  /// `[String: V]` that is itself a container's member, as Foundation reads
  /// those members with the decoder that asked for the dictionary).
  ///
  /// Foundation reports an unparsable ISO 8601 date at that decoder's path,
  /// not the date's, so only dates and such dictionaries heed `depth`.
  func unwrap<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int
  ) throws -> T {
    if depth != 1 {
      if T.self == Date.self {
        return reinterpret(try date(at: index, path: path(), depth: depth), as: T.self)
      }
      if entries[index].kind == .object, !options.keyDecodingStrategy.isDefault,
        let dictionary = T.self as? any StringKeyedDictionary.Type
      {
        return try decodeDictionary(dictionary, at: index, depth: depth, as: T.self)
      }
    }
    return try unwrap(type, at: index, path: path())
  }

  /// Decodes `T` from the null that stands for an absent key's value (through
  /// `superDecoder(forKey:)`), whose path cannot be rebuilt from the tape and
  /// so goes along.
  func unwrapAbsent<T: Decodable>(_ type: T.Type, path: [any CodingKey]) throws -> T {
    if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self {
      return try unwrap(type, at: absentIndex, path: path)
    }
    if T.self != UUID.self, Self.isReadSpecially(T.self) {
      return try decodeSpecial(T.self, at: absentIndex, path: path)
    }
    return try type.init(from: TapeDecoder(session: self, index: absentIndex, explicitPath: path))
  }

  private func decodeArray<A: TapeDecodableArray, T>(
    _ array: A.Type, at index: Int, as type: T.Type
  )
    throws -> T
  {
    reinterpret(try A.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try D.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionaryMembers<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try D.decodeMembers(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, depth: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try D.decode(from: self, at: index, depth: depth), as: T.self)
  }

  /// The same value seen as `T`, for callers that have just checked that
  /// `U` and `T` are the same type (so no dynamic cast is needed).
  @inline(__always)
  func reinterpret<U, T>(_ value: U, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// The types Foundation's JSONDecoder reads specially, and the other
  /// integer widths: every type ``isReadSpecially(_:)`` names but the
  /// leaves `unwrap` reads before looking up a type's shape, and `UUID`,
  /// which its callers read. A date is a container's member here (see
  /// ``unwrap(_:at:path:depth:)``).
  ///
  /// Generic, so that no value is boxed in an existential and cast back;
  /// and returning `T` itself, not `T?`, whose metadata code that is not
  /// specialized for `T` would look up at run time on every call.
  private func decodeSpecial<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    if T.self == Date.self {
      return reinterpret(try date(at: index, path: path(), depth: 1), as: T.self)
    }
    if T.self == Decimal.self {
      return reinterpret(try decimal(at: index, path: path()), as: T.self)
    }
    if T.self == URL.self { return reinterpret(try url(at: index, path: path()), as: T.self) }
    if T.self == Data.self { return reinterpret(try data(at: index, path: path()), as: T.self) }
    if T.self == JSONValue.self {
      return reinterpret(try jsonValue(at: index, path: path()), as: T.self)
    }
    return try specialInteger(T.self, at: index, path: path())
  }

  /// The integer types (and `Float`) that ``unwrap(_:at:path:)`` does not
  /// read before looking up a type's shape (the value an absent key's
  /// ``unwrapAbsent(_:path:)`` reads may be any of them); any other type
  /// by its `init(from:)`.
  private func specialInteger<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    func read<I: FixedWidthInteger>(_ integer: I.Type) throws -> T {
      reinterpret(try self.integer(I.self, at: index, path: path()), as: T.self)
    }
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(Int64.self): return try read(Int64.self)
    case ObjectIdentifier(Float.self):
      return reinterpret(try float(at: index, path: path()), as: T.self)
    case ObjectIdentifier(Int32.self): return try read(Int32.self)
    case ObjectIdentifier(UInt64.self): return try read(UInt64.self)
    case ObjectIdentifier(UInt.self): return try read(UInt.self)
    case ObjectIdentifier(UInt32.self): return try read(UInt32.self)
    case ObjectIdentifier(Int16.self): return try read(Int16.self)
    case ObjectIdentifier(UInt16.self): return try read(UInt16.self)
    case ObjectIdentifier(Int8.self): return try read(Int8.self)
    case ObjectIdentifier(UInt8.self): return try read(UInt8.self)
    default: break
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      if type == Int128.self { return try read(Int128.self) }
      if type == UInt128.self { return try read(UInt128.self) }
    }
    return try initialize(type, at: index)
  }

  /// Whether `unwrap` reads `type` by a path of its own, not (or not only)
  /// by `init(from:)`: the leaves it reads first, and the types that
  /// ``decodeSpecial(_:at:path:)`` reads. Kept in step with both.
  static func isReadSpecially(_ type: Any.Type) -> Bool {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self), ObjectIdentifier(Int.self), ObjectIdentifier(Double.self),
      ObjectIdentifier(Bool.self), ObjectIdentifier(Int64.self), ObjectIdentifier(Float.self),
      ObjectIdentifier(Int32.self), ObjectIdentifier(UInt64.self), ObjectIdentifier(UInt.self),
      ObjectIdentifier(UInt32.self), ObjectIdentifier(Int16.self), ObjectIdentifier(UInt16.self),
      ObjectIdentifier(Int8.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(Date.self),
      ObjectIdentifier(URL.self), ObjectIdentifier(Data.self), ObjectIdentifier(Decimal.self),
      ObjectIdentifier(UUID.self), ObjectIdentifier(JSONValue.self):
      return true
    default:
      break
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      if type == Int128.self || type == UInt128.self { return true }
    }
    return false
  }

  /// A JSONValue built straight from the tape, with its object keys
  /// converted as decoding it through keyed containers would convert them:
  /// its numbers, strings and arrays are read alike under every strategy.
  func jsonValue(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
    let convert: ((Int, String) -> String)?
    switch options.keyDecodingStrategy {
    case .convertFromSnakeCase:
      convert = { _, key in SnakeCase.camelCased(key) }
    case .custom(let transform):
      // The strategy sees each key's path, as a keyed container's keys
      // see it; consecutive keys mostly share their object's path.
      var pathObject = -1
      var objectPath: [any CodingKey] = []
      convert = { object, key in
        if object != pathObject {
          objectPath = self.codingPaths.path(to: object)
          pathObject = object
        }
        return transform(objectPath + [AnyCodingKey(stringValue: key)]).stringValue
      }
    default:
      convert = nil
    }
    do {
      return try JSONValueBuilder.value(at: index, in: tape, convertingKeys: convert)
    } catch {
      throw integerBeyond64Bits(entries[error.index], path: codingPaths.path(to: error.index))
    }
  }
}

extension JSONDecoder.KeyDecodingStrategy {
  /// Whether this is `.useDefaultKeys`.
  var isDefault: Bool {
    if case .useDefaultKeys = self { return true }
    return false
  }
}
