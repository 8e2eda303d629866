/// The benchmark corpora that JSONKit measures itself on.
public enum Corpus {}
