import Foundation
import JSONKit
import Testing

private struct Failure: Error {}

private struct Key: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Writes through a container of one kind, then throws.
private struct FailsPartway: Encodable {
  enum Kind: CaseIterable { case keyed, unkeyed, singleValue, nested }
  let kind: Kind

  func encode(to encoder: any Encoder) throws {
    switch kind {
    case .keyed:
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: Key("leaked"))
    case .unkeyed:
      var container = encoder.unkeyedContainer()
      try container.encode(1)
      var nested = container.nestedContainer(keyedBy: Key.self)
      try nested.encode("x", forKey: Key("leaked"))
    case .singleValue:
      var container = encoder.singleValueContainer()
      try container.encode(["leaked": 1])
    case .nested:
      // Fails inside a value it encodes, through a single-value container.
      var container = encoder.singleValueContainer()
      try container.encode(FailsPartway(kind: .keyed))
    }
    throw Failure()
  }
}

/// Holds the encoder a failed value kept.
private final class KeptEncoder: @unchecked Sendable {
  var encoder: (any Encoder)?

  func write(_ value: Int) throws {
    guard let encoder else { return }
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

/// Keeps its encoder, then throws without writing.
private struct KeepsItsEncoderAndFails: Encodable {
  let kept: KeptEncoder
  func encode(to encoder: any Encoder) throws {
    kept.encoder = encoder
    throw Failure()
  }
}

/// A value whose `encode(to:)` is a closure told whether to make the
/// failing call: without it, the output is what the failed value must
/// leave, nothing.
private struct Scenario: Encodable {
  let body: @Sendable (any Encoder, _ fails: Bool) throws -> Void
  var fails = true
  /// Whether the scenario is encoded in tree form: under a container used
  /// after a later sibling.
  var inTreeForm = false

  func encode(to encoder: any Encoder) throws {
    guard inTreeForm else { return try body(encoder, fails) }
    var container = encoder.container(keyedBy: Key.self)
    var late = container.nestedUnkeyedContainer(forKey: Key("late"))
    try container.encode(0, forKey: Key("early"))
    try late.encode(1)
    try container.encode(Inner(scenario: self), forKey: Key("v"))
  }

  private struct Inner: Encodable {
    let scenario: Scenario
    func encode(to encoder: any Encoder) throws {
      try scenario.body(encoder, scenario.fails)
    }
  }

  var withoutFailure: Scenario {
    var copy = self
    copy.fails = false
    return copy
  }
}

/// A value that encodes through its single-value container with `body`.
private struct SingleValue: Encodable {
  let body: @Sendable (inout any SingleValueEncodingContainer) throws -> Void
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try body(&container)
  }
}

private func output<T: Encodable>(_ encode: (T) throws -> Data, _ value: T) -> String {
  do {
    return String(decoding: try encode(value), as: UTF8.self)
  } catch {
    return "error: \(error)"
  }
}

/// A value that fails part-way, its error caught inside `encode(to:)`,
/// leaves nothing behind: the output is the same as without it, through
/// every kind of container, streaming or in tree form. Foundation's
/// `JSONEncoder` is the oracle: where it leaves nothing behind, so does
/// `JKEncoder`, byte for byte; where it keeps what the value wrote (through
/// a single-value container, and then ignores or traps on the next value
/// there), `JKEncoder` gives what Foundation gives without the failed value.
/// A value encoded by calling its `encode(to:)` with a super encoder makes
/// no call that JSONKit sees fail, and keeps what it wrote, as in
/// Foundation.
@Suite("A value that fails part-way leaves nothing behind")
struct FailedValueTests {
  private static let formattings: [JKOutputFormatting] = [
    [.sortedKeys], [.sortedKeys, .prettyPrinted],
  ]

  /// The outputs of JKEncoder and JSONEncoder, with and without the
  /// failing call, for each formatting and form; Foundation's with it only
  /// when `foundationFailing` says (it may trap).
  private func outputs(_ scenario: Scenario, foundationFailing: Bool) -> [(
    jsonKit: String, jsonKitWithout: String, foundation: String, foundationWithout: String
  )] {
    var results:
      [(jsonKit: String, jsonKitWithout: String, foundation: String, foundationWithout: String)] =
        []
    for formatting in Self.formattings {
      for inTreeForm in [false, true] {
        var scenario = scenario
        scenario.inTreeForm = inTreeForm
        let jsonKit = JKEncoder()
        jsonKit.outputFormatting = formatting
        let foundation = JSONEncoder()
        foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
        results.append(
          (
            output(jsonKit.encode, scenario), output(jsonKit.encode, scenario.withoutFailure),
            foundationFailing ? output(foundation.encode, scenario) : "",
            output(foundation.encode, scenario.withoutFailure)
          ))
      }
    }
    return results
  }

  /// Expects JKEncoder's output with the failed value to equal
  /// Foundation's without it, and, when `asInFoundation`, Foundation's
  /// with it too.
  private func expectNothingLeft(
    _ scenario: Scenario, asInFoundation: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for result in outputs(scenario, foundationFailing: asInFoundation) {
      #expect(
        !result.jsonKit.hasPrefix("error"), "\(result.jsonKit)", sourceLocation: sourceLocation)
      #expect(result.jsonKit == result.foundationWithout, sourceLocation: sourceLocation)
      #expect(result.jsonKitWithout == result.foundationWithout, sourceLocation: sourceLocation)
      if asInFoundation {
        #expect(result.jsonKit == result.foundation, sourceLocation: sourceLocation)
      }
    }
  }

  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func throughAKeyedContainer(_ kind: FailsPartway.Kind) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        if fails { try? container.encode(FailsPartway(kind: kind), forKey: Key("b")) }
        try container.encode(2, forKey: Key("c"))
      }, asInFoundation: true)
  }

  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func throughAnUnkeyedContainer(_ kind: FailsPartway.Kind) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        if fails { try? container.encode(FailsPartway(kind: kind)) }
        try container.encode(container.count)
      }, asInFoundation: true)
  }

  /// A failed value that kept its encoder, which is written through after
  /// the error is caught, before or after the next member: the write goes
  /// nowhere, as in Foundation, and never into the next member's place.
  /// The failed member's key, begun again, is a new member.
  @Test(arguments: [false, true])
  func anEncoderKeptByAFailedValueWritesNowhere(afterTheNextMember: Bool) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        let kept = KeptEncoder()
        if fails { try? container.encode(KeepsItsEncoderAndFails(kept: kept)) }
        if !afterTheNextMember { try kept.write(5) }
        try container.encode(2)
        if afterTheNextMember { try kept.write(5) }
        try container.encode(3)
      }, asInFoundation: true)
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        let kept = KeptEncoder()
        if fails { try? container.encode(KeepsItsEncoderAndFails(kept: kept), forKey: Key("b")) }
        if !afterTheNextMember { try kept.write(5) }
        try container.encode(2, forKey: Key("c"))
        if afterTheNextMember { try kept.write(5) }
        try container.encode(3, forKey: Key("d"))
        // The failed member's key, begun again, is a new member.
        try container.encode(4, forKey: Key("b"))
      }, asInFoundation: true)
  }

  /// A failed value under a key that an earlier member already has: the
  /// earlier value stays, and a write through the failed value's kept
  /// encoder goes nowhere, also where the earlier value wrote nothing (so
  /// awaits a value) and under key strategies that keep the output in tree
  /// form.
  @Test(arguments: [false, true])
  func aFailedValueUnderAnEarlierKeyLeavesTheEarlierValue(earlierWroteNothing: Bool) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        if earlierWroteNothing {
          try container.encode(NothingWritten(), forKey: Key("a"))
        } else {
          try container.encode(1, forKey: Key("a"))
        }
        try container.encode(2, forKey: Key("b"))
        let kept = KeptEncoder()
        if fails { try? container.encode(KeepsItsEncoderAndFails(kept: kept), forKey: Key("x")) }
        try container.encode(3, forKey: Key("c"))
        let keptAgain = KeptEncoder()
        if fails {
          try? container.encode(KeepsItsEncoderAndFails(kept: keptAgain), forKey: Key("a"))
        }
        try keptAgain.write(5)
        try kept.write(6)
      }, asInFoundation: true)
  }

  /// The encoder a failed value kept still names the failed member, in
  /// streaming and in tree form, as Foundation's does.
  @Test func anEncoderKeptByAFailedValueKeepsItsPath() throws {
    func paths(_ encode: (Scenario) throws -> Data, inTreeForm: Bool) throws -> [String] {
      let keyed = KeptEncoder()
      let unkeyed = KeptEncoder()
      var scenario = Scenario { encoder, _ in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        try? container.encode(KeepsItsEncoderAndFails(kept: keyed), forKey: Key("b"))
        var list = container.nestedUnkeyedContainer(forKey: Key("l"))
        try list.encode(1)
        try? list.encode(KeepsItsEncoderAndFails(kept: unkeyed))
        try list.encode(2)
      }
      scenario.inTreeForm = inTreeForm
      _ = try encode(scenario)
      func text(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
      }
      // A container asked for through a kept encoder after the value failed
      // writes nowhere, and has the path it would have had.
      let late = keyed.encoder?.container(keyedBy: Key.self).codingPath ?? []
      let lateList = unkeyed.encoder?.unkeyedContainer().codingPath ?? []
      return [keyed, unkeyed].map { text($0.encoder?.codingPath ?? []) } + [
        text(late), text(lateList),
      ]
    }
    for inTreeForm in [false, true] {
      let ours = try paths(JKEncoder().encode, inTreeForm: inTreeForm)
      #expect(ours == (try paths(JSONEncoder().encode, inTreeForm: inTreeForm)))
      #expect(ours[0].hasSuffix("b"), "\(ours)")
      #expect(ours[1].hasSuffix("1"), "\(ours)")
      #expect(ours[2] == ours[0] && ours[3] == ours[1], "\(ours)")
    }
  }

  /// The next value goes into the single-value container; Foundation keeps
  /// the failed value's writes and drops the next value, or traps.
  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func throughASingleValueContainer(_ kind: FailsPartway.Kind) {
    let single = SingleValue { container in
      try? container.encode(FailsPartway(kind: kind))
      try container.encode(42)
    }
    let encoder = JKEncoder()
    #expect(output(encoder.encode, single) == "42")
    #expect(output(encoder.encode, [single]) == "[42]")
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(
          SingleValue { single in
            if fails { try? single.encode(FailsPartway(kind: kind)) }
            try single.encode(42)
          }, forKey: Key("w"))
        try container.encode(2, forKey: Key("z"))
      }, asInFoundation: false)
  }

  /// Nothing comes after the failed value: its encoder wrote nothing,
  /// which Foundation writes as `{}`.
  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func throughASingleValueContainerLeftEmpty(_ kind: FailsPartway.Kind) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(
          SingleValue { single in
            if fails { try? single.encode(FailsPartway(kind: kind)) }
          }, forKey: Key("w"))
        try container.encode(2, forKey: Key("z"))
        var list = container.nestedUnkeyedContainer(forKey: Key("l"))
        try list.encode(
          SingleValue { single in
            if fails { try? single.encode(FailsPartway(kind: kind)) }
          })
      }, asInFoundation: false)
  }

  /// A string JSONKit's reader would reject is refused after it is
  /// written: it is taken out again (Foundation writes it, so is no oracle).
  @Test func aRefusedStringThroughASingleValueContainer() {
    let encoder = JKEncoder()
    for formatting in Self.formattings {
      encoder.outputFormatting = formatting
      let single = SingleValue { container in
        try? container.encode("nul \u{0}")
        try? container.encode(Float.nan)
        try container.encode("ok")
      }
      #expect(output(encoder.encode, single) == #""ok""#)
      let expected = formatting.contains(.prettyPrinted) ? "{\n  \"s\" : \"ok\"\n}" : #"{"s":"ok"}"#
      #expect(output(encoder.encode, ["s": single]) == expected)
    }
  }

  /// A super encoder's single-value container is a single-value container
  /// like any other.
  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func throughASuperEncodersSingleValueContainer(_ kind: FailsPartway.Kind) {
    expectNothingLeft(
      Scenario { encoder, fails in
        var container = encoder.container(keyedBy: Key.self)
        var single = container.superEncoder(forKey: Key("s")).singleValueContainer()
        if fails { try? single.encode(FailsPartway(kind: kind)) }
        try single.encode(42)
        try container.encode(2, forKey: Key("z"))
      }, asInFoundation: false)
  }

  /// A value encoded by calling its `encode(to:)` with a super encoder
  /// fails where JSONKit cannot see it: what it wrote stays, as in
  /// Foundation. (What a value it encodes through a single-value container
  /// wrote does not: `.nested` leaves the super encoder as empty as a value
  /// that writes nothing, which Foundation writes as `{}`.)
  @Test(arguments: FailsPartway.Kind.allCases)
  fileprivate func byItsOwnEncodeWithASuperEncoder(_ kind: FailsPartway.Kind) {
    let failing = FailsPartway(kind: kind)
    let oracleValue: any Encodable & Sendable = kind == .nested ? NothingWritten() : failing
    let scenarios: [@Sendable (any Encodable & Sendable) -> Scenario] = [
      { value in
        Scenario { encoder, fails in
          var container = encoder.container(keyedBy: Key.self)
          if fails { try? value.encode(to: container.superEncoder()) }
          try container.encode(2, forKey: Key("z"))
        }
      },
      { value in
        Scenario { encoder, fails in
          var container = encoder.container(keyedBy: Key.self)
          if fails { try? value.encode(to: container.superEncoder(forKey: Key("s"))) }
          try container.encode(2, forKey: Key("z"))
        }
      },
      { value in
        Scenario { encoder, fails in
          var container = encoder.unkeyedContainer()
          if fails { try? value.encode(to: container.superEncoder()) }
          try container.encode(2)
        }
      },
    ]
    for scenario in scenarios {
      let results = outputs(scenario(failing), foundationFailing: false)
      let oracles = outputs(scenario(oracleValue), foundationFailing: true)
      for (result, oracle) in zip(results, oracles) {
        #expect(result.jsonKit == oracle.foundation)
        #expect(result.jsonKitWithout == result.foundationWithout)
      }
    }
  }
}

/// A value that writes nothing.
private struct NothingWritten: Encodable {
  func encode(to encoder: any Encoder) throws {}
}
