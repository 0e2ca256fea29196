import ArgumentParser
import FeedBench

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Write one Swift file that applies a library's recommended settings, picked at launch by the device's memory.",
        discussion: """
        Reads the results of bench run --library for several profiles, takes each profile's \
        recommendation as bench run --library ranks it (within 5 ms/s of hitches unless \
        --max-hitch-ratio says otherwise), and writes a Swift file ready to add to an app: \
        a FeedBenchImageSettings value per profile (the memory cache's cost limit, the prefetch \
        window, downsampling, and Kingfisher's background decoding), and \
        FeedBenchImageSettings.forDevice(isPad:), which picks one by the device's physical \
        memory in bands whose edges lie halfway between the profiles' RAM (iPads apart when \
        iPad and iPhone profiles are both given; the tablet is the one built-in iPad, so every \
        iPad gets its settings), with apply() and decoding(cellSize:screenScale:) in the \
        library's own API, and FeedBenchPrefetchWindow, which drives the library's prefetcher as \
        the run simulated it (what enters the window as one batch, what leaves it stopped).

        Refused in one line naming the file (exit status 2, no file written): a run of another \
        library or of --policy/--preset, a profile that is not built in, two profiles of one \
        kind with the same RAM, a profile with nothing within its memory limit and the hitch \
        ratio allowed.

        Example:
          for p in low-end mid high-end tablet; do bench run --profile $p --library nuke; done
          bench apply --library nuke results/low-end+library-nuke.csv results/mid+library-nuke.csv \\
            results/high-end+library-nuke.csv results/tablet+library-nuke.csv --out ImageSettings.swift

        Docs: docs/libraries.md.
        """
    )

    @Argument(help: ArgumentHelp("Results files of bench run --library, one or more profiles each.", valueName: "file"))
    var results: [String] = []

    @Option(help: ArgumentHelp("The library the results are of: nuke, kingfisher or sdwebimage.", valueName: "name"))
    var library: String

    @OptionGroup var hitches: HitchRatioOption

    @Option(help: ArgumentHelp("Where to write the Swift file.", valueName: "file"))
    var out: String = "FeedBenchImageSettings.swift"

    func run() throws {
        let library = try ImageLibrary.named(self.library, source: "--library")
        guard !results.isEmpty else { throw InputError(source: "apply", "expected one or more results files of bench run --library \(library.rawValue)") }
        try OutputPath.check([.file(out, option: "--out")])
        let file = try LibrarySwiftFile(library: library, results: results.map(ResultsFile.read(path:)),
                                        maxHitchRatio: try hitches.bound() ?? ImageLibrary.maxHitchRatio)
        CommandOutput.createFolder(of: out)
        try AtomicFile.write(file.text, to: out)
        let picks = file.settings.map { "\($0.profile.name): \($0.preset.label), \($0.memoryCostLimit.map(FixedPoint.mebibytes) ?? "no cost limit"), window \($0.prefetchWindow)" }
        FileDescriptorOutput.write("wrote \(out): \(picks.joined(separator: "; "))\n", to: 2)
    }
}
