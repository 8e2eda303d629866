/// What makes the keyed containers by one key type, `Key`: kept per key
/// type in ``KeyTypes``.
///
/// Made for a container type (``ContainerMaker``), its class holds that
/// type's metadata and its conformance to `KeyedDecodingContainerProtocol`,
/// so that a container made through it costs no runtime look-up of either:
/// code generic over `Key` alone would look up `TapeKeyedContainer<Key>`
/// and its conformance for every container.
class KeyedContainerMaker<Key: CodingKey> {
  /// A container over the object of `decoder`, by keys of the key type at
  /// `keyType` in ``KeyTypes``. Only ``ContainerMaker`` is made, which makes
  /// it without the look-ups that this way of making it costs.
  func container(_ decoder: TapeDecoder, keyType: Int) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: decoder, keyType: keyType))
  }
}

/// The maker of containers of type `Container`.
final class ContainerMaker<Container: TapeKeyedContainerMaking>: KeyedContainerMaker<
  Container.Key
>
{
  override func container(_ decoder: TapeDecoder, keyType: Int) -> KeyedDecodingContainer<
    Container.Key
  > {
    KeyedDecodingContainer(Container(decoder: decoder, keyType: keyType))
  }
}

/// A keyed container made from a decoder, so that ``ContainerMaker`` can
/// make it knowing nothing but its type.
protocol TapeKeyedContainerMaking: KeyedDecodingContainerProtocol {
  /// A container over the object of `decoder`, by keys of the key type at
  /// `keyType` in ``KeyTypes``.
  init(decoder: TapeDecoder, keyType: Int)
}
