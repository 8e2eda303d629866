import Foundation
import JSONKit

// A network layer decodes through `func load<T: Decodable>(_: T.Type, from: Data)`, in
// code the optimizer has not specialized for `T`: the library is then called with
// generic metadata, not with a concrete type it may have been inlined for. These
// functions make that the case in the benchmarks whatever the optimizer could see:
// `@inline(never)` keeps the call, and the `specialize.generic.never` semantics keep
// the body generic.

/// Decodes `type` from `data` with `decoder`, through a call that stays generic.
@inline(never)
@_semantics("optimize.sil.specialize.generic.never")
public func decode<T: Decodable>(_ type: T.Type, _ data: Data, with decoder: JKDecoder) throws
  -> T
{
  try decoder.decode(type, from: data)
}

/// Decodes `type` from `data` with Foundation's `decoder`, through a call that stays
/// generic.
@inline(never)
@_semantics("optimize.sil.specialize.generic.never")
public func decode<T: Decodable>(_ type: T.Type, _ data: Data, with decoder: JSONDecoder) throws
  -> T
{
  try decoder.decode(type, from: data)
}

/// Keeps `value` from being optimized away, at the cost of one call.
@inline(never)
public func consume<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
