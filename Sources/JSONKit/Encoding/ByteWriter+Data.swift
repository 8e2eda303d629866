import Foundation

extension ByteWriter {
  /// The bytes written, as `Data` of exactly that size.
  consuming func finishData() -> Data {
    withBytes { Data($0) }
  }
}
