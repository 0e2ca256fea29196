import ArgumentParser
import FeedBench

extension ArgumentHelp {
    /// `--network`'s help, the same for `bench run` (and the main job) and `bench serve`: a
    /// preset's name or a network JSON file, resolved by `NetworkFile.resolve`.
    static let network = ArgumentHelp(
        "A network preset (Network Link Conditioner's wifi, dsl, lte, 3g, edge, very-bad; recorded cellular links verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving) or a network JSON file (bench profiles --network NAME prints a preset as one to edit); default: the profile's.",
        valueName: "name|file")

    /// `--image-width`'s help, the same for `bench run`, `sweep` and `tune`.
    static let imageWidth = ArgumentHelp(
        "Comma-separated widths to ask the image server for: full (the original), cell (the cell's pixels on the profile's screen, e.g. 750 on the low-end phone) or pixels (500); the server keeps the aspect ratio and never enlarges. A width below the cell's pixels is shown but never recommended (blurry). Default for bench run: cell,full (full for one run's --live, --requests or --displays, and with --workload); for sweep and tune: full.",
        valueName: "list")

    static let networks = ArgumentHelp(
        "A population of networks to answer for: phones or tablets (Wi-Fi and the recorded cellular links, with measured shares), or a population JSON file ({\"name\": …, \"networks\": [{\"network\": NAME|FILE, \"weight\": W, \"path\": wifi|cellular|constrained}]}); default for a built-in profile: its own (bench profiles lists them), unless --network names one network.",
        valueName: "name|file")
}

/// `--networks VALUE` of `bench run` and `bench tune`: the population it names, refused beside
/// `--network` (one network or a population) and beside what brings a network of its own:
/// `live`, the reason a live run is given, or a `--workload`.
func population(_ networks: String, network: String?, live: Bool = false, workload: Bool) throws -> NetworkPopulation {
    if network != nil {
        throw InputError(source: "--networks", "expected --network or --networks, not both: one network or a population")
    }
    if live || workload {
        throw InputError(source: "--networks", "expected no population with \(live ? "--live (a live run measures one network)" : "--workload (the workload brings its own network)")")
    }
    return try PopulationFile.resolve(networks, option: "--networks")
}
