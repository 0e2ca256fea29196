import ArgumentParser
import FeedBench

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shards of a sweep into the file one machine would have written.",
        discussion: """
        Every file must be one shard of the same `bench sweep --shard K/N` split (or the whole \
        sweep) of the same grid — the sweep_grid column says which, and bench's version is part \
        of it — and every shard must be there once. The output is byte for byte what \
        `bench sweep` writes without --shard, seed aggregates included. The files are read a row \
        at a time, side by side: a thousand shards of a million runs merge in a few megabytes. \
        Refused, naming the file (exit status 2, nothing written): files of different grids or \
        splits, the same shard twice, a missing shard, a shard that stops early (an interrupted \
        sweep: --resume finishes it) and a file cut off mid-row.

        Example:
          bench merge shard-1.csv shard-2.csv shard-3.csv shard-4.csv --out sweep.csv

        Docs: docs/sweeps.md.
        """
    )

    @Argument(help: ArgumentHelp("The shard files.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Where to write the merged results CSV.", valueName: "file"))
    var out: String

    func run() throws {
        guard !files.isEmpty else { throw InputError(source: "merge", "expected the sweep files to merge") }
        try OutputPath.check([.file(out, option: "--out")])
        let runs = try SweepMerge.merge(paths: files, into: out)
        FileDescriptorOutput.write("wrote \(out): \(runs) runs from \(files.count) files\n", to: 2)
    }
}
