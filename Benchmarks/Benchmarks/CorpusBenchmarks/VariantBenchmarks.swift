import BenchmarkSupport
import JSONKitCorpus

/// Decoding every corpus variant (`CorpusVariant.all`: each typed corpus with its keys
/// in declaration, sorted and shuffled order, and the app-style Twitter model), by both
/// libraries, two ways:
///
/// - `Decode/<variant>/<API>-fresh`: a decoder made in every iteration, called through
///   the generic `decode(_:_:with:)`, as a network layer calls it;
/// - `Decode/<variant>/<API>`: one decoder made in setup, through the same generic
///   function. The declaration-order variants already have this benchmark under the
///   corpus's name (`Decode/twitter/JKDecoder`, in `JSONKitBenchmarks.swift`);
/// - `Decode/<variant>/JKDecoder-reject-fresh`: a decoder made in every iteration with
///   `unknownKeyStrategy = .reject`, for the models that read every key of their corpus.
func variantBenchmarks() {
  for variant in CorpusVariant.all {
    let calls = DecodeCalls(variant)
    readBenchmark("Decode", variant, "JSONDecoder-fresh", read: calls.foundationFresh)
    readBenchmark("Decode", variant, "JKDecoder-fresh", read: calls.jsonKitFresh)
    if !variant.appStyle {
      readBenchmark("Decode", variant, "JKDecoder-reject-fresh", read: calls.jsonKitRejecting)
    }
    if variant.keyOrder != .declaration || variant.appStyle {
      readBenchmark("Decode", variant, "JSONDecoder", read: calls.foundationReused)
      readBenchmark("Decode", variant, "JKDecoder", read: calls.jsonKitReused)
    }
  }
}
