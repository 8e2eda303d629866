import Foundation

/// Where a decoding error is: the value its coding path names, found on the
/// tape when the error leaves `decode`, so that nothing is spent on it while
/// decoding succeeds (or while a model's `try?` swallows errors).
extension DecodingSession {
  /// `error` with the place of the value it is about: the location as its
  /// underlying error and at the end of its description, in the words
  /// syntax errors use (an error with an underlying error of its own is
  /// returned unchanged). `keyNotFound` points at the object and names a
  /// member that differs from the key only by spelling convention or case. Errors that already say where, or whose path names
  /// nothing in this document, are returned as they are.
  func locating(_ error: DecodingError, in text: InputText) -> DecodingError {
    locating(error) {
      text.relocated(JKInputLocation(offset: $0 - documentStart, in: text.utf8))
    }
  }

  /// `error` with the place of its value in binary `input`, as
  /// ``locating(_:in:)`` gives it for text: a byte offset and the bytes
  /// there.
  func locating(_ error: DecodingError, inBinary input: UnsafeRawBufferPointer) -> DecodingError {
    locating(error) { JKInputLocation(binaryOffset: $0, in: input) }
  }

  /// `error` with the place that `place` gives for the offset of its value.
  private func locating(
    _ error: DecodingError, place: (Int) -> JKInputLocation
  ) -> DecodingError {
    guard let context = error.errorContext else { return error }
    let index: Int
    switch context.underlyingError {
    case nil: index = valueIndex(atPath: context.codingPath)
    case let known as DecodingErrors.ValueIndex:
      index = known.index < absentIndex ? known.index : valueIndex(atPath: context.codingPath)
    default: return error
    }
    let location = place(entries[index].offset)
    var place =
      entries[index].kind == .key
      ? " The key is around \(location)" : " The value is around \(location)"
    if case .keyNotFound(let key, _) = error {
      place = " The object is around \(location)"
      if entries[index].kind == .object,
        let hint = spellingHint(for: key.stringValue, inObject: index, path: context.codingPath)
      {
        place = " \(hint)" + place
      }
    }
    return error.withContext { context in
      DecodingError.Context(
        codingPath: context.codingPath,
        debugDescription: Self.sentence(context.debugDescription) + place,
        underlyingError: location)
    }
  }

  /// `text` ending with a full stop, unless it ends a sentence already.
  private static func sentence(_ text: String) -> String {
    guard let last = text.last else { return "" }
    return ".!?".contains(last) ? text : text + "."
  }

  /// The tape index of the value at `path` from the root: as far as the
  /// path leads, so that a path past the end of an array, or to a key an
  /// object lacks, names the container.
  ///
  /// Members are matched as the decoder matched them: by the name the key
  /// strategy gives (the last of equal names), or as written for the
  /// dictionaries whose paths name keys so.
  func valueIndex(atPath path: [any CodingKey]) -> Int {
    var current = documentRoot
    for (level, key) in path.enumerated() {
      let entry = entries[current]
      switch entry.kind {
      case .array:
        guard let position = key.intValue, position >= 0, position < entry.childCount else {
          return current
        }
        current = elementIndex(position, inArray: current)
      case .object:
        guard let value = member(named: key.stringValue, inObject: current, path: path[..<level])
        else { return current }
        current = value
      default:
        return current
      }
    }
    return current
  }

  /// The value of the last member of the object at `object` whose key, as
  /// the key strategy names it or else as written, is `name`.
  private func member(
    named name: String, inObject object: Int, path: ArraySlice<any CodingKey>
  ) -> Int? {
    let named = keyedLookup.memberNames(ofObject: object, path: Array(path))
    var found: Int?
    for (member, memberName) in zip(keyedLookup.members(ofObject: object), named)
    where memberName == name {
      found = member.value
    }
    return found ?? lastMember(writtenAs: name, inObject: object)
  }

  /// The value of the last member of the object at `object` whose key is
  /// `name` as written in the JSON: the same Unicode scalars, compared
  /// without normalization, as RFC 6901 compares a JSON Pointer's tokens
  /// (`String`'s `==` would find a canonically equivalent spelling).
  func lastMember(writtenAs name: String, inObject object: Int) -> Int? {
    var found: Int?
    for member in keyedLookup.members(ofObject: object)
    where rawKey(entries[member.key]).utf8.elementsEqual(name.utf8) {
      found = member.value
    }
    return found
  }

  /// The Unicode scalars of `text` as code points: `U+0065 U+0301`.
  private static func scalars(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }.joined(separator: " ")
  }

  /// For a key an object lacks, the member that the model most likely
  /// meant, as a sentence: one that `.convertFromSnakeCase` would read as
  /// the key, one that the strategy in force converted away from it, or one
  /// whose name differs from it only by case.
  private func spellingHint(for name: String, inObject object: Int, path: [any CodingKey])
    -> String?
  {
    let isSnakeCase =
      if case .convertFromSnakeCase = options.keyDecodingStrategy { true } else { false }
    let named = keyedLookup.memberNames(ofObject: object, path: path)
    let lowered = name.lowercased()
    var caseHint: String?
    for (member, memberName) in zip(keyedLookup.members(ofObject: object), named) {
      let written = rawKey(entries[member.key])
      if written == name, !written.unicodeScalars.elementsEqual(name.unicodeScalars) {
        // Only a JSON Pointer's token misses a key so: a model's lookups
        // take canonically equivalent keys for the same key.
        return
          "The object has \"\(written)\" (\(Self.scalars(written))), canonically equivalent to \"\(name)\" (\(Self.scalars(name))); a JSON Pointer compares keys scalar by scalar."
      }
      if isSnakeCase, written == name {
        return
          "The object has \"\(written)\", which keyDecodingStrategy .convertFromSnakeCase reads as \"\(memberName)\"."
      }
      if !isSnakeCase, written.contains("_"), KeyConversion.camelCased(written) == name {
        return
          "The object has \"\(written)\", which keyDecodingStrategy .convertFromSnakeCase would read as \"\(name)\"."
      }
      if caseHint == nil, memberName.lowercased() == lowered {
        caseHint = "The object has \"\(written)\", which differs from \"\(name)\" only by case."
      }
    }
    return caseHint
  }
}
