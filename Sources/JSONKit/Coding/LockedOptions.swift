import Foundation

/// A coder whose settings are one value behind a lock, read whole at the
/// start of each call: `JKDecoder`, `JKEncoder`, `JKCBORDecoder` and
/// `JKCBOREncoder` share the code that guards, reads and copies them.
///
/// The lock is held only while the value is read or changed, so one coder
/// may be configured and used from many threads at once, and a call in
/// progress keeps the settings it started with.
protocol LockedOptions: AnyObject {
  /// Everything that configures one call.
  associatedtype Settings
  /// The lock that guards ``storedOptions``.
  var optionsLock: NSLock { get }
  /// The settings; read and changed only through ``withOptions(_:)``, whose
  /// lock keeps every access exclusive (the coders mark the property
  /// `@exclusivity(unchecked)`, so the runtime does not check it again).
  var storedOptions: Settings { get set }
  /// A coder with the default settings.
  init()
}

extension LockedOptions {
  /// The result of `body` on the settings, which it may change, under the
  /// lock.
  func withOptions<R>(_ body: (inout Settings) -> R) -> R {
    optionsLock.lock()
    defer { optionsLock.unlock() }
    return body(&storedOptions)
  }

  /// A new coder with a copy of these settings.
  func copyWithSettings() -> Self {
    let copy = Self()
    copy.storedOptions = withOptions { $0 }
    return copy
  }
}
