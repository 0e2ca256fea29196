/// What `bench presets` prints: each preset's behaviours in words, the library version they
/// follow and what is not modelled, then each preset's memory-cost limit on every built-in
/// profile. Generated from the presets' own fields, so the text cannot drift from the model.
public enum PresetCatalog {
    /// Every preset as a block of `behaviour  value` lines, then the limits table.
    public static var text: String {
        var lines: [String] = []
        for preset in CachePreset.all {
            lines.append("\(preset.name) — \(preset.source)")
            lines += definitions(preset.behaviours.map { ($0.aspect, $0.value) } + preset.notModelled.map { ("not modelled", $0) })
            lines.append("")
        }
        lines.append("Parameters, after the name (--preset nuke:downsample, kingfisher:prefetch=8):")
        lines += definitions(CachePreset.parameterHelp)
        lines.append("")
        lines.append("Memory-cache cost limit per profile:")
        let profiles = DeviceProfile.builtIn
        lines += TextTable.render([["preset"] + profiles.map(\.name)] + CachePreset.all.map { preset in
            [preset.name] + profiles.map { profile in
                preset.memoryLimits(on: profile).maxBytes.map(FixedPoint.mebibytes) ?? "none"
            }
        }, leftAligned: [0])
        return lines.joined(separator: "\n") + "\n"
    }

    /// `term  text` lines indented by two, texts aligned and wrapped at `width` columns.
    static func definitions(_ items: [(String, String)], width: Int = 100) -> [String] {
        let termWidth = items.map(\.0.count).max() ?? 0
        let indent = String(repeating: " ", count: 2 + termWidth + 2)
        var lines: [String] = []
        for (term, text) in items {
            var line = "  " + term + String(repeating: " ", count: termWidth - term.count + 2)
            var lineHasWord = false
            for word in text.split(separator: " ") {
                if lineHasWord && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = indent
                    lineHasWord = false
                }
                line += (lineHasWord ? " " : "") + word
                lineHasWord = true
            }
            lines.append(line)
        }
        return lines
    }
}

extension CachePreset {
    /// The preset's behaviour, one line per row of docs/facts.md#what-each-library-does.
    public var behaviours: [(aspect: String, value: String)] {
        [
            ("memory cache", memoryCacheText),
            ("decoded size", decodesFullSize
                ? "full size: width × height × 4 bytes (\(name):downsample decodes to the cell)"
                : "the cell's pixels × 4 bytes (\(name):full-size decodes at full size)"),
            ("decoding", decodingText),
            ("memory warning", "clears the memory cache"),
            ("background", backgroundText),
            ("disk cache", diskText),
            ("downloads", "the network's connections per host"
                + (downloadRateLimit.map { "; a rate limiter lets \($0.burst) start at once, then \($0.rate) a second" } ?? "")),
            ("cell joins a prefetch", raisesPriorityOnJoin ? "the download is raised to high priority" : "the download keeps its place and priority"),
            ("task priority", taskPriorityText),
            ("cell leaves the screen", cancelsOnDisappear ? "its download is cancelled unless the prefetcher holds it"
                                                          : "its download continues into the caches"),
            ("prefetcher", prefetcherText),
        ]
    }

    var taskPriorityText: String {
        guard setsTaskPriority else {
            return "URLSession's default for every download (the library never sets one): over HTTP/2 prefetches and cells share the connection equally"
        }
        return prefetch.lowPriority
            ? "low for a prefetch's URLSessionTask, the default for a cell's: over HTTP/2 the host serves the cells' streams first"
            : "the same for prefetches and cells: over HTTP/2 their streams share the connection equally"
    }

    var decodingText: String {
        let queue = decodeConcurrency.map { "\($0) image at a time" } ?? "no shared limit: each image as soon as its data is there"
        guard decodesAtFirstDraw else { return "off the main thread, " + queue }
        return decodesFullSize
            ? "on the main thread at an image's first draw, by Core Animation (\(name):background-decode decodes off it)"
            : "off the main thread while downsampling (ImageIO's thumbnail, cached immediately), " + queue
    }

    var memoryCacheText: String {
        var text = memoryPolicy.description
        if source != "seed 001", memoryPolicy.name == .lru { text += " (NSCache's order, modelled as LRU)" }
        switch memoryCost {
        case let .bytes(bytes): text += ", \(bytes / Self.megabyte) MB"
        case let .ramShare(share, cap):
            text += ", \(FixedPoint.decimal(share * 100, decimals: 0)) % of RAM"
            if let cap { text += " up to \(FixedPoint.mebibytes(cap)) (\(cap) bytes)" }
        case .none: text += ", no cost limit"
        }
        if let memoryCount { text += ", \(memoryCount) items" }
        if let maxEntryShare { text += "; an entry costing \(FixedPoint.decimal(maxEntryShare * 100, decimals: 0)) % of the limit or more is not kept" }
        if let memorySweepSeconds { text += "; expired entries swept every \(memorySweepSeconds) s" }
        return text
    }

    var backgroundText: String {
        switch background {
        case .purge: "the memory cache is emptied"
        case let .toShareOfLimit(share): "the memory cache is trimmed to \(FixedPoint.decimal(share * 100, decimals: 0)) % of its cost limit"
        }
    }

    var diskText: String {
        var text = diskBytes.map { $0 % Self.mebibyte == 0 ? "\($0 / Self.mebibyte) MiB" : "\($0 / Self.megabyte) MB" } ?? "no size limit"
        text += ", LRU"
        if let diskMaxAge { text += ", \(diskMaxAge / 86_400) days since last access" }
        text += readsDiskOnMainThread ? "; a cell's disk hit is read on the main thread and shown at once"
                                      : "; read off the main thread" + (name == "kingfisher" ? " (\(name):sync-disk reads on it)" : "")
        return text
    }

    var prefetcherText: String {
        var text = prefetch.perBatch ? "one per batch of items entering the window, never stopped, \(prefetch.concurrency) at once each"
                                     : "one, \(prefetch.concurrency) at once, stops items that leave the window"
        text += prefetch.lowPriority ? ", low priority" : ", default priority"
        text += prefetch.destination == .memoryAndDisk ? ", into memory and disk" : ", to disk only"
        if prefetch.destination == .memoryAndDisk { text += prefetch.loadsDiskHits ? "; disk hits are loaded into memory" : "; disk hits stay on disk" }
        return text
    }
}
