/// What `jsonkit bench --chart` draws: the throughput of each coder on each
/// task of each file, with the words around it. Plain values, so that the
/// picture can be checked apart from the measuring; ``BenchChartSVG`` draws it.
struct BenchChart: Equatable {
  /// One measured figure: one coder's throughput on one task.
  struct Bar: Equatable {
    /// The coder, one of the chart's ``BenchChart/coders``.
    var coder: String
    /// Megabytes (10^6 bytes) per second.
    var megabytesPerSecond: Double
    /// How many times faster than the ``BenchChart/baseline`` coder on the
    /// same task (its time over this coder's), or `nil` when the baseline
    /// has no figure for the task.
    var speedup: Double?
  }

  /// A task measured on one file, such as `decode`, with a bar per coder.
  struct Task: Equatable {
    /// The task's name.
    var name: String
    /// The bars, in the order of the chart's ``BenchChart/coders``.
    var bars: [Bar]
  }

  /// One file's tasks under a heading, such as `twitter.json (631.5 kB)`.
  struct Group: Equatable {
    /// The heading.
    var title: String
    /// The tasks, in the order they were measured.
    var tasks: [Task]
  }

  /// The heading line.
  var title: String
  /// Smaller lines under the title: when, on what machine, with what command.
  var notes: [String]
  /// Every coder, in the order of the legend and of each task's bars.
  var coders: [String]
  /// The coder the speedups are relative to.
  var baseline: String
  /// The files, in the order they were measured.
  var groups: [Group]

  /// Every bar, group by group and task by task, as the chart draws them.
  var bars: [Bar] {
    groups.flatMap { $0.tasks.flatMap(\.bars) }
  }
}
