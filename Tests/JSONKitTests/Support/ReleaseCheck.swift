/// An object whose release a test watches.
final class ReleaseMarker: Sendable {}

/// Whether the marker that `call` is given is freed as soon as `call`
/// returns: nothing that `call` passed it to keeps it.
func isLetGo(_ call: (ReleaseMarker) throws -> Void) throws -> Bool {
  weak var weakMarker: ReleaseMarker?
  try {
    let marker = ReleaseMarker()
    weakMarker = marker
    try call(marker)
  }()
  return weakMarker == nil
}
