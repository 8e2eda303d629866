import Foundation

/// Foundation's types that JSONDecoder reads specially: `Date`, `Data` and
/// `URL`, each by its strategy; and `UUID`, which it reads through its
/// `init(from:)`.
///
/// JSONKit reads their text from the tape's bytes with its own code
/// (``ISO8601DateText``, ``Base64Text``, ``UUIDText``), which accepts
/// exactly what Foundation accepts. Only a value it accepts is returned
/// from there: anything else is handed to Foundation's own parser or
/// initializer, so that an error is Foundation's error, word for word.
extension DecodingSession {
  func date(at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int) throws
    -> Date
  {
    // As Foundation: null is missing whatever the strategy (a custom one is not asked).
    let entry = entries[index]
    if entry.kind == .null { throw DecodingErrors.valueNotFound(Date.self, path: path()) }
    if options.binaryTape { return try binaryDate(at: index, path: path()) }
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: TapeDecoder(session: self, index: index))
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try double(at: index, path: path()) / 1000)
    case .iso8601:
      if entry.kind == .string, let date = ISO8601DateText.date(from: tape.stringBytes(entry)) {
        return date
      }
      return try foundationISO8601Date(at: index, path: path(), depth: depth)
    #if canImport(Darwin)
      // Elsewhere Foundation spells `.formatted` as a `.custom` closure.
      case .formatted(let formatter):
        let text = try string(at: index, path: path())
        guard let date = formatter.date(from: text) else {
          throw DecodingErrors.corrupted(
            "Date string does not match format expected by formatter.", path: path())
        }
        return date
    #endif
    case .custom(let closure):
      return try closure(TapeDecoder(session: self, index: index))
    @unknown default:
      return try Date(from: TapeDecoder(session: self, index: index))
    }
  }

  /// An ISO 8601 date read by Foundation's parser, as JSONDecoder reads it:
  /// for the strings JSONKit's own reader does not accept, whose error (or,
  /// should the two readers ever disagree, whose date) is Foundation's.
  @inline(never)
  private func foundationISO8601Date(
    at index: Int, path: @autoclosure () -> [any CodingKey], depth: Int
  ) throws -> Date {
    let text = try string(at: index, path: path())
    guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
      // At the asking decoder's path, as Foundation reports it.
      throw DecodingErrors.corrupted(
        "Expected date string to be ISO8601-formatted.", path: path().dropLast(depth),
        valueAt: index)
    }
    return date
  }

  /// A date of a binary tape: seconds since 1970 (CBOR's tag 1), or RFC
  /// 3339 text (tag 0), with or without a fraction of a second.
  @inline(never)
  private func binaryDate(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Date {
    let entry = entries[index]
    switch entry.kind {
    case .int, .uint, .double:
      let seconds = try double(at: index, path: path())
      guard seconds.isFinite else {
        throw DecodingErrors.corrupted(
          "Expected seconds since 1970 to be finite, not \(seconds).", path: path())
      }
      return Date(timeIntervalSince1970: seconds)
    case .string:
      if let date = ISO8601DateText.date(from: tape.stringBytes(entry)) { return date }
      throw DecodingErrors.corrupted(
        "Expected date string to be RFC 3339-formatted.", path: path(), valueAt: index)
    case let kind:
      throw DecodingErrors.typeMismatch(Date.self, found: found(kind), path: path())
    }
  }

  /// `base64` is passed by a caller that reads many values, which fetches it
  /// once.
  func data(
    at index: Int, path: @autoclosure () -> [any CodingKey],
    base64: Base64Text.DecodeTable = Base64Text.decodeTable
  ) throws -> Data {
    let entry = entries[index]
    if entry.kind == .null { throw DecodingErrors.valueNotFound(Data.self, path: path()) }
    if entry.kind == .bytes, entry.flags & ~TapeEntry.inArena == 0 {
      return Data(tape.stringBytes(entry))
    }
    if options.binaryTape {
      // A binary format has byte strings; text is not read as base64.
      throw DecodingErrors.typeMismatch(Data.self, found: found(entry.kind), path: path())
    }
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: TapeDecoder(session: self, index: index))
    case .base64:
      if entry.kind == .string, let data = Base64Text.decode(tape.stringBytes(entry), table: base64)
      {
        return data
      }
      return try foundationBase64Data(at: index, path: path())
    case .custom(let closure):
      return try closure(TapeDecoder(session: self, index: index))
    @unknown default:
      return try Data(from: TapeDecoder(session: self, index: index))
    }
  }

  /// Base64 read by Foundation, as JSONDecoder reads it: for the strings
  /// JSONKit's own reader does not accept.
  @inline(never)
  private func foundationBase64Data(at index: Int, path: @autoclosure () -> [any CodingKey])
    throws -> Data
  {
    let text = try string(at: index, path: path())
    guard let data = Data(base64Encoded: text) else {
      throw DecodingErrors.corrupted("Encountered Data is not valid Base64.", path: path())
    }
    return data
  }

  /// The array at `index` as `[Element]` when `Element` is one of the
  /// types Foundation's JSONDecoder reads specially, of `kind`, each element
  /// read as `unwrap` reads it; nil for other kinds. Arrays of ids, dates
  /// and links are common in models, and code written for the element type
  /// fills the array in place, where code generic over it copies each
  /// element in and destroys the original, through the type's witnesses.
  @inline(never)
  func specialLeafArray<Element: Decodable>(
    _ kind: LeafKind, of type: Element.Type, at index: Int
  ) throws -> [Element]? {
    switch kind {
    case .date:
      return try elements(at: index, as: Element.self) { try date(at: $0, path: $1(), depth: 1) }
    case .uuid:
      return try elements(at: index, as: Element.self) { position, _ in
        try uuid(at: position) ?? initialize(UUID.self, at: position)
      }
    case .data:
      let base64 = Base64Text.decodeTable
      guard !options.binaryTape, case .base64 = options.dataDecodingStrategy else {
        return try elements(at: index, as: Element.self) {
          try data(at: $0, path: $1(), base64: base64)
        }
      }
      // Foundation's default, tested once for the array: each string that
      // JSONKit's reader takes is read straight, anything else as one value.
      return try elements(at: index, as: Element.self) { position, path in
        let entry = entries[position]
        if entry.kind == .string,
          let data = Base64Text.decode(tape.stringBytes(entry), table: base64)
        {
          return data
        }
        return try data(at: position, path: path(), base64: base64)
      }
    case .url: return try elements(at: index, as: Element.self) { try url(at: $0, path: $1()) }
    case .decimal:
      return try elements(at: index, as: Element.self) { try decimal(at: $0, path: $1()) }
    default:
      return nil
    }
  }

  func url(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> URL {
    if entries[index].kind == .null { throw DecodingErrors.valueNotFound(URL.self, path: path()) }
    let text = try string(at: index, path: path())
    guard let url = URL(string: text) else {
      throw DecodingErrors.corrupted("Invalid URL string.", path: path())
    }
    return url
  }

  /// The UUID a string value spells, read as `UUID(uuidString:)` reads it;
  /// nil for anything else, which `UUID.init(from:)` then reports as it
  /// does under Foundation's decoder.
  @inline(__always)
  func uuid(at index: Int) -> UUID? {
    let entry = entries[index]
    if entry.kind == .bytes, entry.flags & TapeEntry.uuidBytes != 0 {
      let bytes = tape.stringBytes(entry)
      return UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
          bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
    guard entry.kind == .string else { return nil }
    return UUIDText.uuid(from: tape.stringBytes(entry))
  }
}
