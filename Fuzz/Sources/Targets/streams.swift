import Dispatch
import Foundation

@testable import JSONKit

// Reading streams: JSON Lines and the elements of one top-level array.
//
// Selector bits 0–3 are the parse options; bit 4 picks the reader (JSON
// Lines, or array elements); bits 5–7 seed the random cuts. Each input is
// read whole (one chunk), in random chunks, and one byte at a time.
// Checked for every input:
//
// - every chunking gives the same records and the same error (kind,
//   message, offset, line, column; the excerpt may be shorter when the
//   bytes before an error between records were already let go);
// - an error's position lies in the input;
// - JSON Lines: the stream gives what `decodeLines` gives for the whole
//   `Data` (through Codable into `JSONValue`), and what parsing each line
//   alone gives;
// - array elements: when the stream ends without error, parsing the whole
//   input gives an array of the same elements; when parsing the whole
//   input gives an array, the stream gives its elements.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

/// What a stream delivered, and how it ended.
private struct Outcome {
  var values: [JSONValue] = []
  var error: JKParseError?
  var otherError: String?

  func matches(_ other: Outcome) -> Bool {
    guard values.count == other.values.count, otherError == other.otherError else { return false }
    for (left, right) in zip(values, other.values)
    where difference(left, right, keyOrder: true) != nil {
      return false
    }
    switch (error, other.error) {
    case (nil, nil): return true
    case (let left?, let right?):
      return left.kind == right.kind && left.message == right.message
        && left.offset == right.offset && left.line == right.line && left.column == right.column
    default: return false
    }
  }
}

/// Chunks cut where told, as an async sequence.
private struct Chunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let chunks: [[UInt8]]

  struct AsyncIterator: AsyncIteratorProtocol {
    var remaining: ArraySlice<[UInt8]>
    mutating func next() async -> [UInt8]? { remaining.popFirst() }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

/// Bytes one at a time, as an async sequence.
private struct Bytes: AsyncSequence, Sendable {
  typealias Element = UInt8
  let bytes: [UInt8]

  struct AsyncIterator: AsyncIteratorProtocol {
    var remaining: ArraySlice<UInt8>
    mutating func next() async -> UInt8? { remaining.popFirst() }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: bytes[...]) }
}

private final class Box: @unchecked Sendable {
  // Unchecked: written by the task before the semaphore is signalled,
  // read after it is waited for.
  var outcome = Outcome()
}

/// Runs `read` in a task and waits for it: the fuzzer's entry point is
/// synchronous.
private func collect(_ read: @escaping @Sendable () async -> Outcome) -> Outcome {
  let box = Box()
  let done = DispatchSemaphore(value: 0)
  Task {
    box.outcome = await read()
    done.signal()
  }
  done.wait()
  return box.outcome
}

private func drain(_ sequence: JKRecordSequence<JSONValue>) async -> Outcome {
  var outcome = Outcome()
  do {
    for try await value in sequence { outcome.values.append(value) }
  } catch let error as JKParseError {
    outcome.error = error
  } catch let error as DecodingError {
    if case .dataCorrupted(let context) = error,
      let parseError = context.underlyingError as? JKParseError
    {
      outcome.error = parseError
    } else {
      outcome.otherError = "\(error)"
    }
  } catch {
    outcome.otherError = "\(error)"
  }
  return outcome
}

/// libFuzzer's entry point: reads one input as a stream, cut three ways.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreams(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  let options = input.parseOptions
  let arrays = input.selector & 0x10 != 0
  let bytes = input.bytes

  var random = UInt64(input.selector >> 5) &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(bytes.count + 1)
  var cuts: [Int] = []
  if !bytes.isEmpty {
    for _ in 0..<(bytes.count % 7 + 1) {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      cuts.append(Int((random >> 33) % UInt64(bytes.count)))
    }
  }
  var chunks: [[UInt8]] = []
  var start = 0
  for cut in cuts.sorted() where cut > start {
    chunks.append(Array(bytes[start..<cut]))
    start = cut
  }
  chunks.append(Array(bytes[start...]))

  let whole = Chunks(chunks: [bytes])
  let cutUp = Chunks(chunks: chunks)
  let single = Bytes(bytes: bytes)
  let outcomes: [Outcome]
  if arrays {
    outcomes = [
      collect { await drain(JSONValue.arrayElements(from: whole, options: options)) },
      collect { await drain(JSONValue.arrayElements(from: cutUp, options: options)) },
      collect { await drain(JSONValue.arrayElements(from: single, options: options)) },
    ]
  } else {
    outcomes = [
      collect { await drain(JSONValue.lines(from: whole, options: options)) },
      collect { await drain(JSONValue.lines(from: cutUp, options: options)) },
      collect { await drain(JSONValue.lines(from: single, options: options)) },
    ]
  }
  for outcome in outcomes.dropFirst() {
    require(
      outcome.matches(outcomes[0]), "every chunking gives the same records and error",
      "\(outcomes[0])\n\(outcome)\ncuts \(cuts.sorted())")
  }
  checkDecoder(bytes: bytes, chunks: [[bytes], chunks], arrays: arrays, options: options)
  let outcome = outcomes[0]
  require(
    outcome.otherError == nil, "a stream of bytes throws only JKParseError",
    outcome.otherError ?? "")
  if let error = outcome.error {
    require(error.offset >= 0 && error.offset <= bytes.count, "an error's offset is in the input")
    require(error.line >= 1 && error.column >= 1, "lines and columns count from 1")
  }
  if arrays {
    checkArray(outcome, bytes: bytes, options: options)
  } else {
    checkLines(outcome, bytes: bytes, options: options)
    checkBatchedLines(bytes: bytes, options: options, braceless: input.selector & 0x20 != 0)
  }
  return 0
}

/// The decoder's readers scan a batch of the records that have arrived
/// whole before decoding them: however the stream is cut, they give the
/// same records and the same error, and `decodeLines` of the whole text as
/// `Data` gives the same records or fails.
private func checkDecoder(
  bytes: [UInt8], chunks: [[[UInt8]]], arrays: Bool, options: JKParseOptions
) {
  func read(_ stream: Chunks) -> Outcome {
    collect {
      let decoder = JKDecoder()
      decoder.parseOptions = options
      return await drain(
        arrays
          ? decoder.decodeArrayElements(JSONValue.self, from: stream)
          : decoder.decodeLines(JSONValue.self, from: stream))
    }
  }
  let outcomes =
    chunks.map { read(Chunks(chunks: $0)) } + [read(Chunks(chunks: bytes.map { [$0] }))]
  for outcome in outcomes.dropFirst() {
    require(
      outcome.matches(outcomes[0]), "the decoder's readers give the same records however cut",
      "\(outcomes[0])\n\(outcome)")
  }
  guard !arrays else { return }
  let decoder = JKDecoder()
  decoder.parseOptions = options
  let whole = try? decoder.decodeLines(JSONValue.self, from: Data(bytes))
  let streamed = outcomes[0]
  if let whole {
    require(
      streamed.error == nil && streamed.otherError == nil, "decodeLines of Data reads the stream")
    require(
      whole.count == streamed.values.count
        && zip(whole, streamed.values).allSatisfy { difference($0, $1, keyOrder: true) == nil },
      "decodeLines of Data gives the stream's records")
  } else {
    require(
      streamed.error != nil || streamed.otherError != nil, "decodeLines of Data fails as the stream"
    )
  }
}

/// The records of a batch read as each line does alone: `decodeLines` of
/// the whole text against `decodeLines` of one line at a time, with the
/// decoder's options (a top level without braces among them), which a
/// scanner reading a batch's records in turn must not carry from one to
/// the next.
private func checkBatchedLines(bytes: [UInt8], options: JKParseOptions, braceless: Bool) {
  let decoder = JKDecoder()
  decoder.parseOptions = options
  decoder.assumesTopLevelDictionary = braceless
  var expected: [JSONValue] = []
  var failed = false
  var lineStart = 0
  while lineStart < bytes.count {
    let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
    let line = Array(bytes[lineStart..<lineEnd])
    // A byte order mark is skipped at the stream's start only.
    if lineStart > 0, line.starts(with: [0xEF, 0xBB, 0xBF]) { return }
    do {
      expected += try decoder.decodeLines(JSONValue.self, from: Data(line + [0x0A]))
    } catch {
      failed = true
      break
    }
    lineStart = lineEnd + 1
  }
  let whole = try? decoder.decodeLines(JSONValue.self, from: Data(bytes))
  guard let whole else {
    require(failed, "a batch fails only where a line alone fails")
    return
  }
  require(!failed, "a batch fails where a line alone fails")
  require(
    whole.count == expected.count
      && zip(whole, expected).allSatisfy { difference($0, $1, keyOrder: true) == nil },
    "a batch's records are its lines' values", "\(whole)\n\(expected)")
}

private func checkLines(_ outcome: Outcome, bytes: [UInt8], options: JKParseOptions) {
  // Each line parsed alone, up to the first that fails.
  var expected = Outcome()
  var lineStart = 0
  var line = 1
  lines: while lineStart < bytes.count {
    let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
    let text = Array(bytes[lineStart..<lineEnd])
    // A record is UTF-8 text, never gzip or UTF-16, so each line is
    // parsed as the readers parse it.
    let parsed = text.withUnsafeBytes { bytes in
      Result { () throws(JKParseError) in
        try JSONValue(parsingUTF8: bytes, options: options, maxDepth: 512)
      }
    }
    switch parsed {
    case .success(let value):
      expected.values.append(value)
    case .failure(let error):
      if error.kind != .emptyInput {
        expected.error = error
        break lines
      }
    }
    lineStart = lineEnd + 1
    line += 1
  }
  require(outcome.values.count == expected.values.count, "JSON Lines give each line's value")
  for (left, right) in zip(outcome.values, expected.values) {
    require(difference(left, right, keyOrder: true) == nil, "JSON Lines give each line's value")
  }
  require((outcome.error == nil) == (expected.error == nil), "a bad line is an error")
  if let error = outcome.error, let lineError = expected.error {
    require(
      error.kind == lineError.kind && error.message == lineError.message,
      "a line's error is the line's")
    require(error.line >= line, "the error is on the bad line or below it")
  }

  let decoder = JKDecoder()
  decoder.parseOptions = options
  do {
    let decoded = try decoder.decodeLines(JSONValue.self, from: Data(bytes))
    require(outcome.error == nil, "decodeLines of the whole Data accepts what the stream accepts")
    require(decoded.count == outcome.values.count, "decodeLines gives the stream's records")
  } catch {
    require(outcome.error != nil, "decodeLines of the whole Data rejects what the stream rejects")
  }
}

private func checkArray(_ outcome: Outcome, bytes: [UInt8], options: JKParseOptions) {
  // An array stream is UTF-8 text, never gzip or UTF-16, as a record is:
  // the whole is parsed as UTF-8 too.
  let whole = bytes.withUnsafeBytes { bytes in
    Result { () throws(JKParseError) in
      try JSONValue(parsingUTF8: bytes, options: options, maxDepth: 512)
    }
  }
  if outcome.error == nil {
    guard case .success(let value) = whole, let elements = value.arrayValue else {
      violated("a stream of array elements is a whole array")
    }
    require(elements.count == outcome.values.count, "the stream gives the array's elements")
    for (left, right) in zip(elements, outcome.values) {
      require(
        difference(left, right, keyOrder: true) == nil, "the stream gives the array's elements")
    }
  } else if case .success(let value) = whole, value.arrayValue != nil {
    violated("a whole array is a stream of its elements", "\(outcome.error!)")
  }
}
