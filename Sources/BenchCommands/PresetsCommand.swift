import ArgumentParser
import FeedBench

struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the cache presets: what each does, the library version it follows, and what is not modelled.",
        discussion: """
        Prints every preset `--preset` takes — seed 001's default, aggressive and conservative, \
        and the defaults of Nuke 13.2, Kingfisher 8.11 and SDWebImage 5.21 as their sources \
        set them — one line per behaviour (memory cache, decoded size, decoding, memory \
        warning, background, disk cache, downloads, priority, cancellation, prefetcher), then \
        the parameters a preset takes and each preset's memory-cost limit on every built-in \
        profile.

        Examples:
          bench presets
          bench run --profile low-end --preset nuke,nuke:downsample,kingfisher,sdwebimage

        Docs: docs/model.md, "Launches, strategies, presets, windows"; docs/scroll-smoothness.md.
        """
    )

    func run() throws {
        FileDescriptorOutput.write(PresetCatalog.text, to: 1)
    }
}
