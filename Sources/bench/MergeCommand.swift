import ArgumentParser
import FeedBench

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shards of a sweep into the file one machine would have written.",
        discussion: """
        Every file must come from `bench sweep --shard K/N` (or be a whole sweep) of the same \
        grid — the sweep_grid column says which — and together they must hold every run of it \
        exactly once. The output is byte for byte what `bench sweep` writes without --shard, \
        seed aggregates included. Files of different grids, a run in two files or a missing \
        run are refused (exit status 2) and nothing is written.

        Example:
          bench merge shard-1.csv shard-2.csv shard-3.csv shard-4.csv --out sweep.csv
        """
    )

    @Argument(help: ArgumentHelp("The shard files.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Where to write the merged results CSV.", valueName: "file"))
    var out: String

    func run() throws {
        guard !files.isEmpty else { throw InputError(source: "merge", "expected the sweep files to merge") }
        try OutputPath.check([.file(out, option: "--out")])
        let runs = try SweepMerge.merge(files.map { try ResultsFile.read(path: $0) }, into: out)
        FileDescriptorOutput.write("wrote \(out): \(runs) runs from \(files.count) files\n", to: 2)
    }
}
