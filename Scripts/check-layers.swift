// Checks that the folders of Sources/JSONKit depend on each other in one
// direction only: a file may name the types of its own folder and of the
// folders below it in `layers`, never of a folder above, nor of a folder
// kept `apart` from its own.
//
//   swift Scripts/check-layers.swift     silent and status 0 when the layers hold;
//                                        otherwise each offending use, and status 1
//
// A type belongs to the folder whose file declares it at the top level
// (struct, class, enum, protocol, typealias or actor). Uses are capitalised
// words in code, outside comments and string literals; extensions of a type
// declared above are uses of it.
//
// A method or property that a folder adds to a type of a folder below it,
// in an extension, belongs to the folder of the extension: a folder below
// it may not call it. A call is the member's name after a dot or before a
// parenthesis; names that the folder, or one below it, declares as a
// member too are not checked, since the call may be to that one, nor are
// private members, which only their own file can call.
import Foundation

/// The folders from the bottom up: each may use the ones before it.
let layers = [
  "Text",  // UTF-8 rules shared by every reader and writer
  "Numbers",  // number text, both ways
  "Errors",  // JKParseError, JKInputLocation, source positions
  "Input",  // gzip, Unicode encodings: bytes to UTF-8 text
  "Scanning",  // text to tape, parse options, key cache
  "Coding",  // what every Codable format shares: key types, coding keys, value texts
  "Writing",  // ByteWriter, number, string and coding-key output, gzip output
  "Value",  // JSONValue, JSONObject, JSONPointer, JKSerialization
  "Decoding",  // JKDecoder over the tape
  "Encoding",  // JKEncoder
  "Streaming",  // JSON Lines and array streams, both ways
  "CBOR",  // the CBOR reader, writer, value and codec
]

/// Pairs of folders that may not use each other in either direction, though
/// one is above the other: JSON's decoder and encoder are apart, and CBOR's
/// coders share with JSON's only what Coding, Writing and the tape decoder
/// hold.
let apart: Set<[String]> = [
  ["Decoding", "Encoding"],
  ["CBOR", "Encoding"],
]

/// Whether files of `user` may use what `used` declares.
func mayUse(_ user: String, _ used: String) -> Bool {
  layers.firstIndex(of: used)! <= layers.firstIndex(of: user)!
    && !apart.contains([user, used]) && !apart.contains([used, user])
}

let root = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
  .appendingPathComponent("Sources/JSONKit")
let fileManager = FileManager.default
let folders = try fileManager.contentsOfDirectory(atPath: root.path)
  .filter { !$0.hasSuffix(".docc") && !$0.hasPrefix(".") }
  .filter {
    var isDirectory: ObjCBool = false
    return fileManager.fileExists(
      atPath: root.appendingPathComponent($0).path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }
  .sorted()

var failures: [String] = []
for folder in folders where !layers.contains(folder) {
  failures.append("Sources/JSONKit/\(folder): a folder that is in no layer; add it to \(#file)")
}

/// The text of a Swift file with comments and string literals blanked out.
func code(of text: String) -> String {
  var result = ""
  var inBlockComment = 0
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    var kept = ""
    var index = line.startIndex
    var inString = false
    while index < line.endIndex {
      let rest = line[index...]
      if inBlockComment > 0 {
        if rest.hasPrefix("*/") {
          inBlockComment -= 1
          index = line.index(index, offsetBy: 2)
        } else {
          index = line.index(after: index)
        }
        continue
      }
      if inString {
        if rest.hasPrefix("\\") {
          index = line.index(index, offsetBy: min(2, line.distance(from: index, to: line.endIndex)))
          continue
        }
        if rest.hasPrefix("\"") { inString = false }
        index = line.index(after: index)
        continue
      }
      if rest.hasPrefix("//") { break }
      if rest.hasPrefix("/*") {
        inBlockComment += 1
        index = line.index(index, offsetBy: 2)
        continue
      }
      if rest.hasPrefix("\"") {
        inString = true
        kept += " "
        index = line.index(after: index)
        continue
      }
      kept.append(line[index])
      index = line.index(after: index)
    }
    result += kept + "\n"
  }
  return result
}

let declaration =
  #/
  ^ (?:@\w+(?:\([^)]*\))?\s+)*
  (?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*
  (?:struct|class|enum|protocol|typealias|actor)\s+(\w+)
  /#
let word = #/\b[A-Z]\w*\b/#.wordBoundaryKind(.simple)

var owner: [String: String] = [:]
var sources: [(folder: String, file: String, code: String)] = []
for folder in folders where layers.contains(folder) {
  let directory = root.appendingPathComponent(folder)
  for file in try fileManager.contentsOfDirectory(atPath: directory.path).sorted()
  where file.hasSuffix(".swift") {
    let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    let stripped = code(of: text)
    sources.append((folder, file, stripped))
    var depth = 0
    for line in stripped.split(separator: "\n", omittingEmptySubsequences: false) {
      if depth == 0, let match = line.firstMatch(of: declaration), owner[String(match.1)] == nil {
        owner[String(match.1)] = folder
      }
      depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
    }
  }
}

for source in sources {
  var seen = Set<String>()
  for match in source.code.matches(of: word) {
    let name = String(match.0)
    guard seen.insert(name).inserted, let folder = owner[name],
      !mayUse(source.folder, folder)
    else { continue }
    failures.append(
      "Sources/JSONKit/\(source.folder)/\(source.file): uses \(name), declared in \(folder), "
        + "a layer above \(source.folder) or apart from it")
  }
}

let extensionStart =
  #/
  ^ (?:@\w+(?:\([^)]*\))?\s+)*
  (?:(?:public|package|internal|fileprivate|private)\s+)*
  extension\s+(\w+)
  /#
let memberDeclaration =
  #/
  ^ \s* (?:@\w+(?:\([^)]*\))?\s+)*
  (?:(?:public|package|internal|fileprivate|private|static|class|final|mutating|nonmutating
    |override|nonisolated|consuming|borrowing)(?:\([^)]*\))?\s+)*
  (?:func|var|let|case)\s+(\w+)
  /#

/// For each folder, the names of the members its files declare, at any
/// depth (a member of a type, or of an extension).
var declaredIn: [String: Set<String>] = [:]
/// The members added in extensions to types of a lower folder: name, the
/// folder that adds it, the type and the file.
var addedAbove: [(name: String, folder: String, type: String, file: String)] = []
for source in sources {
  var depth = 0
  var extended: String?
  for line in source.code.split(separator: "\n", omittingEmptySubsequences: false) {
    if depth == 0 { extended = line.firstMatch(of: extensionStart).map { String($0.1) } }
    // Members of types and extensions, not the locals of their functions.
    if depth <= 1, let match = line.firstMatch(of: memberDeclaration) {
      let name = String(match.1)
      declaredIn[source.folder, default: []].insert(name)
      // A private member of an extension is its file's own.
      let isPrivate = line.contains("private ") && !line.contains("private(set)")
      if depth == 1, let extended, let folder = owner[extended], !isPrivate,
        layers.firstIndex(of: folder)! < layers.firstIndex(of: source.folder)!, name != "init"
      {
        addedAbove.append((name, source.folder, extended, source.file))
      }
    }
    depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
  }
}
for added in addedAbove {
  let call = try Regex("(\\.\\b\(added.name)\\b|\\b\(added.name)\\s*\\()")
    .wordBoundaryKind(.simple)
  for source in sources {
    guard source.folder != added.folder, !mayUse(source.folder, added.folder),
      !layers.contains(where: {
        mayUse(source.folder, $0) && declaredIn[$0]?.contains(added.name) ?? false
      }),
      source.code.contains(call)
    else { continue }
    failures.append(
      "Sources/JSONKit/\(source.folder)/\(source.file): calls \(added.type).\(added.name), "
        + "which \(added.folder)/\(added.file) adds, a layer above \(source.folder) or apart "
        + "from it")
  }
}

if failures.isEmpty { exit(0) }
for failure in failures { print(failure) }
exit(1)
