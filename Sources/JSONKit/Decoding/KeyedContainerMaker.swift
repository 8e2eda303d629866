/// What makes the keyed containers by one key type, `Key`: kept per key
/// type in ``CodingKeyTypes``.
///
/// Made for a container type (``ContainerMaker``), its class holds that
/// type's metadata and its conformance to `KeyedDecodingContainerProtocol`,
/// so that a container made through it costs no runtime look-up of either:
/// code generic over `Key` alone would look up `TapeKeyedContainer<Key>`
/// and its conformance for every container. It gives out again the last
/// container it made once no code holds it (see ``SpareKeyedContainer``).
class KeyedContainerMaker<Key: CodingKey>: TypedSpareKeyedContainer<KeyedDecodingContainer<Key>> {
  /// A container over the object of `decoder`, by keys of the key type at
  /// `keyType` in ``CodingKeyTypes``.
  final func container(_ decoder: TapeDecoder, keyType: Int) -> KeyedDecodingContainer<Key> {
    let session = decoder.session
    let state = KeyedObjectState(decoder, keyType: keyType)
    return container(
      for: state, in: &session.keyedObjects, of: session, keeps: session.keepsSpareContainers
    ) { make(session, stateIndex: $0) }
  }

  /// A new container over the object whose state is at `stateIndex` in `session`'s
  /// ``DecodingSession/keyedObjects``. Only ``ContainerMaker`` is made,
  /// which makes it without the look-ups that this way of making it costs.
  func make(_ session: DecodingSession, stateIndex: Int) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(TapeKeyedContainer<Key>(session: session, stateIndex: stateIndex))
  }
}

/// The maker of containers of type `Container`.
final class ContainerMaker<Container: TapeKeyedContainerMaking>: KeyedContainerMaker<
  Container.Key
>
{
  override func make(_ session: DecodingSession, stateIndex: Int) -> KeyedDecodingContainer<
    Container.Key
  > {
    KeyedDecodingContainer(Container(session: session, stateIndex: stateIndex))
  }
}

/// A keyed container made from a session and the index of its state there, so that
/// ``ContainerMaker`` can make it knowing nothing but its type.
protocol TapeKeyedContainerMaking: KeyedDecodingContainerProtocol {
  /// A container over the object whose state is at `stateIndex` in `session`'s
  /// ``DecodingSession/keyedObjects``.
  init(session: DecodingSession, stateIndex: Int)
}
