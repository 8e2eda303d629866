import Foundation

/// The coding paths of the values on the tape, rebuilt on demand: decoding
/// does not track the path as it descends; when an error (or a caller) asks
/// for it, it is rebuilt by walking from the root to the value, which costs
/// nothing on the success path.
///
/// An object's member is named by the key the caller gave for it (as
/// Foundation's paths do), else as the key strategy names it, else, in the
/// objects being decoded as `[String: V]`, as written.
///
/// Its session keeps it in place, and every method that decoding calls on
/// the success path is `mutating`, so that it runs on the paths where they
/// are, without copying them: pushing a key costs a few stores, with no
/// exclusivity check and no reference counting.
struct CodingPaths {
  private var entries: UnsafePointer<TapeEntry>
  /// The index of the entry past the document.
  private var end: Int
  /// The document, whose key cache has each key as written.
  private var tape: Tape
  /// The names of keys under every key strategy but `.custom`.
  private let keyedLookup: KeyedLookup
  /// The `.custom` key strategy's closure, under that strategy.
  private let transform: (([any CodingKey]) -> any CodingKey)?

  /// Objects being decoded as `[String: V]` under a key strategy: Foundation
  /// reads their keys as written, so coding paths through them name them so
  /// too while they decode.
  var rawKeyObjects: Set<Int> = []
  /// The keys that led, through a keyed container, into the values whose
  /// `init(from:)` (or array, dictionary or strategy) is running now: coding
  /// paths through them hold the caller's key, as Foundation's do. Behind a
  /// pointer, so that pushing needs no mutable access.
  private let descentKeys: UnsafeMutablePointer<PathKeyStack>
  /// The keys that nested containers and super decoders were asked for by.
  private var containerKeys = NestedContainerKeys()
  /// Per level of the coding paths rebuilt so far: the container walked at
  /// that level and the child (with its ordinal) where the walk stopped.
  /// Decoding visits values in order, so the next path asked for (say, by a
  /// `try?` that fails on every element of an array) usually resumes there:
  /// without this, each path would walk every earlier sibling again, and
  /// failing on all of a large array's elements would take quadratic time.
  private var pathHints: [(container: Int, child: Int, ordinal: Int)] = []
  /// The roots of the records of a batch on one tape, in order; empty for
  /// one document, whose root is entry 0.
  private var recordRoots: [Int] = []

  /// The paths in the document on `tape` (whose key cache has the keys as
  /// written), named by `keyedLookup` or by the closure of `strategy` when
  /// it is `.custom`. Call ``deallocate()`` when done.
  init(tape: Tape, keyedLookup: KeyedLookup, strategy: JSONDecoder.KeyDecodingStrategy) {
    entries = tape.entries
    end = tape.count
    self.tape = tape
    self.keyedLookup = keyedLookup
    if case .custom(let transform) = strategy {
      self.transform = transform
    } else {
      transform = nil
    }
    descentKeys = .allocate(capacity: 1)
    descentKeys.initialize(to: PathKeyStack())
  }

  /// Readies the paths of the next document scanned into the scan context
  /// (a stream's next batch of records, whose roots are `recordRoots`), on
  /// `tape`: nothing remembered of the document before is kept.
  mutating func beginDocument(tape: Tape, recordRoots: [Int] = []) {
    entries = tape.entries
    end = tape.count
    self.tape = tape
    self.recordRoots = recordRoots
    if !rawKeyObjects.isEmpty { rawKeyObjects.removeAll() }
    descentKeys.pointee.removeAll()
    if !containerKeys.isEmpty { containerKeys = NestedContainerKeys() }
    if !pathHints.isEmpty { pathHints.removeAll(keepingCapacity: true) }
  }

  /// Frees the stack of descent keys.
  mutating func deallocate() {
    descentKeys.pointee.deallocate()
    descentKeys.deallocate()
  }

  /// Pushes `key`, found at `pointer` until it is popped, as the key that
  /// led to the member value at `value` (see ``PathKeyStack``).
  @inline(__always)
  mutating func push<K: CodingKey>(_ pointer: UnsafePointer<K>, forValue value: Int) {
    descentKeys.pointee.push(pointer, forValue: value)
  }

  /// Pops the key pushed last.
  @inline(__always)
  mutating func pop() {
    descentKeys.pointee.pop()
  }

  /// Remembers that a nested container or super decoder was asked for by
  /// `key` for the value at `value`.
  mutating func remember(_ key: any CodingKey, forValue value: Int) {
    containerKeys.remember(key, forValue: value)
  }

  /// The key the caller gave for the member value at `value`, if a keyed
  /// container was asked for it by a key.
  private func givenKey(forValue value: Int) -> (any CodingKey)? {
    if let key = descentKeys.pointee.key(forValue: value) { return key }
    return containerKeys.isEmpty ? nil : containerKeys.key(forValue: value)
  }

  /// The tape index after the value at `index`.
  private func indexAfter(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.isContainer ? entry.containerEnd : index + 1
  }

  /// The root of the document that holds the entry at `index`: of the
  /// record it is in, when the tape holds a batch of them.
  private func root(of index: Int) -> Int {
    guard !recordRoots.isEmpty else { return 0 }
    var low = 0
    var high = recordRoots.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if recordRoots[middle] <= index { low = middle } else { high = middle }
    }
    return recordRoots[low]
  }

  /// The coding path of the value at `index`, rebuilt by descending from the
  /// root.
  mutating func path(to index: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var current = root(of: index)
    var level = 0
    while current != index, current < end {
      let entry = entries[current]
      guard entry.isContainer, index < entry.containerEnd else { break }
      var child = current + 1
      var ordinal = 0
      // Resume where the last walk through this container stopped, if that
      // is not past the value sought.
      if level < pathHints.count, pathHints[level].container == current,
        pathHints[level].child <= index
      {
        child = pathHints[level].child
        ordinal = pathHints[level].ordinal
      }
      if entry.kind == .array {
        while indexAfter(child) <= index {
          child = indexAfter(child)
          ordinal += 1
        }
      } else {
        var members = ObjectMembers(of: current, in: entries, from: child)
        while let member = members.next(), member.next <= index {
          child = member.next
          ordinal += 1
        }
      }
      let hint = (container: current, child: child, ordinal: ordinal)
      if level < pathHints.count {
        pathHints[level] = hint
      } else {
        pathHints.append(hint)
      }
      level += 1
      if entry.kind == .array {
        path.append(AnyCodingKey(intValue: ordinal))
        current = child
      } else {
        if let key = givenKey(forValue: child + 1) {
          path.append(key)
        } else {
          path.append(AnyCodingKey(stringValue: keyName(child, object: current, path: path)))
        }
        current = child + 1
      }
    }
    return path
  }

  /// The name of the key entry at `key`, of the object at `object` at
  /// `path`, in a coding path.
  private func keyName(_ key: Int, object: Int, path: [any CodingKey]) -> String {
    let written = tape.key(entries[key])
    if !rawKeyObjects.isEmpty, rawKeyObjects.contains(object) {
      return written
    }
    if let transform {
      return transform(path + [AnyCodingKey(stringValue: written)]).stringValue
    }
    return keyedLookup.keyName(key)
  }
}
