/// What makes the encoder's keyed containers by one key type, `Key`: kept
/// per key type in the session's ``KeyTypes``.
///
/// Made for a container type (``EncoderContainerMaker``), its class holds
/// that type's metadata and its conformance to
/// `KeyedEncodingContainerProtocol`, so that a container made through it
/// costs no runtime look-up of either: `container(keyedBy:)`, generic over
/// `Key` alone, would look up `EncoderKeyedContainer<Key>` and its
/// conformance for every object it writes. The decoder's
/// ``KeyedContainerMaker`` does the same for its containers.
class KeyedEncodingContainerMaker<Key: CodingKey> {
  /// A container writing the object `container` of `session`. Only
  /// ``EncoderContainerMaker`` is made, which makes it without the look-ups
  /// that this way of making it costs.
  func container(_ session: EncodingSession, _ container: Int) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(EncoderKeyedContainer<Key>(session: session, container: container))
  }
}

/// The maker of the encoder's containers of type `Container`.
final class EncoderContainerMaker<Container: EncoderKeyedContainerMaking>:
  KeyedEncodingContainerMaker<Container.Key>
{
  override func container(_ session: EncodingSession, _ container: Int)
    -> KeyedEncodingContainer<Container.Key>
  {
    KeyedEncodingContainer(Container(session: session, container: container))
  }
}

/// A keyed container made from a session and an open object, so that
/// ``EncoderContainerMaker`` can make it knowing nothing but its type.
protocol EncoderKeyedContainerMaking: KeyedEncodingContainerProtocol {
  /// A container writing the object `container` of `session`.
  init(session: EncodingSession, container: Int)
}
