import Foundation

/// Decoding any `Decodable` from a tape value: the leaves and the types
/// Foundation's JSONDecoder treats specially first, then `init(from:)`.
extension DecodingSession {
  /// Decodes `T` from the value at `index`, handling the types Foundation's
  /// JSONDecoder treats specially before falling back to `init(from:)`.
  func unwrap<T: Decodable>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    // The leaves first, without any dynamic cast: where `T` is known at
    // compile time, this comes down to its reader, or to nothing.
    if let kind = LeafKind.scalar(T.self) { return try leaf(kind, T.self, at: index, path: path()) }
    // One cached look-up of what `T` is decides the rest: most values met
    // here are models, which need none of the special types' checks.
    switch shape(of: T.self) {
    case .leaf(let kind):
      return try specialLeaf(kind, T.self, at: index, path: path())
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
    case .optional(let optional):
      return try decodeOptional(optional, at: index, as: T.self)
    case .set(let set):
      if entries[index].kind == .array {
        return try decodeSet(set, at: index, as: T.self)
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
    // A UUID goes to its `init(from:)`, as a UUID that is not a string does.
    if let kind = LeafKind(T.self), kind != .uuid {
      return try specialLeaf(kind, T.self, at: absentIndex, path: path)
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

  private func decodeOptional<O: TapeDecodableOptional, T>(
    _ optional: O.Type, at index: Int, as type: T.Type
  ) throws -> T {
    reinterpret(try O.decode(from: self, at: index), as: T.self)
  }

  private func decodeSet<S: TapeDecodableSet, T>(_ set: S.Type, at index: Int, as type: T.Type)
    throws -> T
  {
    reinterpret(try S.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, as type: T.Type
  ) throws -> T {
    unknownKeys?.readsWhole(index)
    return reinterpret(try D.decode(from: self, at: index), as: T.self)
  }

  private func decodeDictionaryMembers<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, as type: T.Type
  ) throws -> T {
    unknownKeys?.readsWhole(index)
    return reinterpret(try D.decodeMembers(from: self, at: index), as: T.self)
  }

  private func decodeDictionary<D: StringKeyedDictionary, T>(
    _ dictionary: D.Type, at index: Int, depth: Int, as type: T.Type
  ) throws -> T {
    unknownKeys?.readsWhole(index)
    return reinterpret(try D.decode(from: self, at: index, depth: depth), as: T.self)
  }

  /// The same value seen as `T`, for callers that have just checked that
  /// `U` and `T` are the same type (so no dynamic cast is needed).
  @inline(__always)
  func reinterpret<U, T>(_ value: U, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// Decodes `T`, of kind `kind`, from the value at `index` by the reader
  /// of its kind; a UUID that is not a string JSONKit reads by its
  /// `init(from:)`, which reports it as under Foundation's decoder. Where
  /// `T` is known at compile time, so is `kind`, and this comes down to the
  /// one reader.
  ///
  /// Generic, so that no value is boxed in an existential and cast back;
  /// and returning `T` itself, not `T?`, whose metadata code that is not
  /// specialized for `T` would look up at run time on every call. A date is
  /// a container's member here (see ``unwrap(_:at:path:depth:)``).
  @inline(__always)
  private func leaf<T: Decodable>(
    _ kind: LeafKind, _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    switch kind {
    case .string: return reinterpret(try string(at: index, path: path()), as: T.self)
    case .bool: return reinterpret(try bool(at: index, path: path()), as: T.self)
    case .double: return reinterpret(try double(at: index, path: path()), as: T.self)
    case .float: return reinterpret(try float(at: index, path: path()), as: T.self)
    case .int: return reinterpret(try integer(Int.self, at: index, path: path()), as: T.self)
    case .int8: return reinterpret(try integer(Int8.self, at: index, path: path()), as: T.self)
    case .int16: return reinterpret(try integer(Int16.self, at: index, path: path()), as: T.self)
    case .int32: return reinterpret(try integer(Int32.self, at: index, path: path()), as: T.self)
    case .int64: return reinterpret(try integer(Int64.self, at: index, path: path()), as: T.self)
    case .uint: return reinterpret(try integer(UInt.self, at: index, path: path()), as: T.self)
    case .uint8: return reinterpret(try integer(UInt8.self, at: index, path: path()), as: T.self)
    case .uint16:
      return reinterpret(try integer(UInt16.self, at: index, path: path()), as: T.self)
    case .uint32:
      return reinterpret(try integer(UInt32.self, at: index, path: path()), as: T.self)
    case .uint64:
      return reinterpret(try integer(UInt64.self, at: index, path: path()), as: T.self)
    case .int128:
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return reinterpret(try integer(Int128.self, at: index, path: path()), as: T.self)
      }
    case .uint128:
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return reinterpret(try integer(UInt128.self, at: index, path: path()), as: T.self)
      }
    case .date: return reinterpret(try date(at: index, path: path(), depth: 1), as: T.self)
    case .url: return reinterpret(try url(at: index, path: path()), as: T.self)
    case .data: return reinterpret(try data(at: index, path: path()), as: T.self)
    case .decimal: return reinterpret(try decimal(at: index, path: path()), as: T.self)
    case .jsonValue: return reinterpret(try jsonValue(at: index, path: path()), as: T.self)
    case .uuid:
      if let uuid = uuid(at: index) { return reinterpret(uuid, as: T.self) }
    }
    return try initialize(type, at: index)
  }

  /// ``leaf(_:_:at:path:)`` for a kind known at run time only (from a type's
  /// shape), kept out of line: code specialized for a model type, which
  /// never reads one, holds a call rather than every reader.
  @inline(never)
  private func specialLeaf<T: Decodable>(
    _ kind: LeafKind, _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    try leaf(kind, type, at: index, path: path())
  }

  /// A JSONValue built straight from the tape, with its object keys
  /// converted as decoding it through keyed containers would convert them:
  /// its numbers, strings and arrays are read alike under every strategy.
  func jsonValue(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
    let convert: ((Int, String) -> String)?
    switch options.keyDecodingStrategy {
    case .convertFromSnakeCase:
      convert = { _, key in KeyConversion.camelCased(key) }
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
    if let unknownKeys, entries[index].kind == .object { unknownKeys.readsWhole(index) }
    if let sharedValues {
      try sharedValues.checkNoSharedReference(in: index, path: path(), in: self)
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
