import Foundation

extension ByteWriter {
  /// The bytes written, as `Data` of exactly that size: short output is
  /// copied (`Data` holds a few bytes inline), longer output becomes the
  /// `Data`'s storage as it is. A large buffer goes back to the
  /// ``OutputBufferPool`` when the `Data` is released.
  consuming func finishData() -> Data {
    if count <= Self.largestCopiedData { return withBytes { Data($0) } }
    let (bytes, capacity, count) = takeAllocation()
    guard capacity >= OutputBufferPool.smallestKept else {
      return Data(bytesNoCopy: bytes, count: count, deallocator: .free)
    }
    return Data(
      bytesNoCopy: bytes, count: count,
      deallocator: .custom { bytes, _ in ByteWriter.release(bytes, capacity: capacity) })
  }

  /// The longest output ``finishData()`` copies: below this, a copy costs
  /// less than the storage object `Data` makes for memory it does not own.
  private static var largestCopiedData: Int { 256 }
}
