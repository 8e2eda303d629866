import JSONKitCorpus

/// The seeded generator of the corpus variants, under the name the seeded
/// tests use: the same seed gives the same cases on every run and platform.
typealias SplitMix64 = JSONKitCorpus.SplitMix64
