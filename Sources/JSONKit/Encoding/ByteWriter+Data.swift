import Foundation

extension ByteWriter {
  /// The bytes written, as `Data` of exactly that size: short output is
  /// copied (`Data` holds a few bytes inline), longer output becomes the
  /// `Data`'s storage as it is.
  consuming func finishData() -> Data {
    if count <= Self.largestCopiedData { return withBytes { Data($0) } }
    let (bytes, count) = takeAllocation()
    return Data(bytesNoCopy: bytes, count: count, deallocator: .free)
  }

  /// The longest output ``finishData()`` copies: below this, a copy costs
  /// less than the storage object `Data` makes for memory it does not own.
  private static var largestCopiedData: Int { 256 }
}
