/// What makes the encoder's keyed containers by one key type, `Key`: kept
/// per key type in the session's ``CodingKeyTypes``.
///
/// Made for a container type (``EncoderContainerMaker``), its class holds
/// that type's metadata and its conformance to
/// `KeyedEncodingContainerProtocol`, so that a container made through it
/// costs no runtime look-up of either: `container(keyedBy:)`, generic over
/// `Key` alone, would look up `EncoderKeyedContainer<Key>` and its
/// conformance for every object it writes. It gives out again the last
/// container it made once no code holds it (see ``SpareKeyedContainer``).
/// The decoder's ``KeyedContainerMaker`` does the same for its containers.
class KeyedEncodingContainerMaker<Key: CodingKey>: TypedSpareKeyedContainer<
  KeyedEncodingContainer<Key>
>
{
  /// A container writing the object `object` of `session`.
  final func container(_ session: EncodingSession, _ object: EncodingSession.KeyedObject)
    -> KeyedEncodingContainer<Key>
  {
    self.container(
      for: object, in: &session.keyedContainerObjects, of: session,
      keeps: session.keepsSpareContainers
    ) { make(session, objectIndex: $0) }
  }

  /// A new container writing the object in `slot` of `session`'s
  /// ``EncodingSession/keyedContainerObjects``. Only
  /// ``EncoderContainerMaker`` is made, which makes it without the look-ups
  /// that this way of making it costs.
  func make(_ session: EncodingSession, objectIndex: Int) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(EncoderKeyedContainer<Key>(session: session, objectIndex: objectIndex))
  }
}

/// The maker of the encoder's containers of type `Container`.
final class EncoderContainerMaker<Container: EncoderKeyedContainerMaking>:
  KeyedEncodingContainerMaker<Container.Key>
{
  override func make(_ session: EncodingSession, objectIndex: Int)
    -> KeyedEncodingContainer<Container.Key>
  {
    KeyedEncodingContainer(Container(session: session, objectIndex: objectIndex))
  }
}

/// A keyed container made from the object it writes, so that
/// ``EncoderContainerMaker`` can make it knowing nothing but its type.
protocol EncoderKeyedContainerMaking: KeyedEncodingContainerProtocol {
  /// A container writing the object in `slot` of `session`'s
  /// ``EncodingSession/keyedContainerObjects``.
  init(session: EncodingSession, objectIndex: Int)
}
