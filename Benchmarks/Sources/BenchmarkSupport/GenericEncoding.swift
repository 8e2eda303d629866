import Foundation
import JSONKit

// The encoding counterparts of the generic decode functions: a caller that encodes
// through `func send<T: Encodable>(_ value: T)` reaches the library with generic
// metadata, whatever the optimizer could have seen.

/// Encodes `value` with `encoder`, through a call that stays generic.
@inline(never)
@_semantics("optimize.sil.specialize.generic.never")
public func encode<T: Encodable>(_ value: T, with encoder: JKEncoder) throws -> Data {
  try encoder.encode(value)
}

/// Encodes `value` with Foundation's `encoder`, through a call that stays generic.
@inline(never)
@_semantics("optimize.sil.specialize.generic.never")
public func encode<T: Encodable>(_ value: T, with encoder: JSONEncoder) throws -> Data {
  try encoder.encode(value)
}
