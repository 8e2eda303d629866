import Foundation
import JSONKitCorpus

/// Where the corpora are, for the executables of the Benchmarks package.
public enum BenchmarkData {
  /// `Benchmarks/Data`, found by walking up from the working directory (`swift run` and
  /// `swift package benchmark` run in the package's directory), else from this source
  /// file's location, for an executable started from elsewhere.
  public static let directory: URL = {
    guard
      let directory = Corpus.dataDirectory() ?? Corpus.dataDirectory(nearSourceFile: #filePath)
    else {
      fatalError("Benchmarks/Data not found from \(FileManager.default.currentDirectoryPath)")
    }
    return directory
  }()
}
