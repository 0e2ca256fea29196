import ArgumentParser
import FeedBench

struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the built-in device profiles and network presets, or print a profile or a network as JSON.",
        discussion: """
        With no argument, prints the four built-in device profiles (screen, grid, default \
        network; memory limits, cache sizes and speeds) and the network presets.

        With a profile — a built-in name or a profile JSON file — prints it as the JSON \
        `--profile FILE` reads, every field in docs/model.md's order: a built-in one is a template \
        for your own device, and a file is checked (one line naming the field, exit status 2) \
        and printed back normalised.

        With `--network` — a preset's name or a network JSON file — prints it as the JSON \
        `--network FILE` reads: downlink and uplink rate, delay and loss, the bottleneck's buffer, \
        TCP's initial window and segment size, slow-start restart after idle, TLS, the HTTP \
        version, connections per host and their idle timeout (docs/network.md).

        Examples:
          bench profiles
          bench profiles low-end > my-phone.json      # then edit name, model and the figures
          bench profiles my-phone.json
          bench profiles --network lte > my-lte.json  # then bench run --network my-lte.json

        Docs: docs/model.md, "Bring your own device and scroll trace"; docs/network.md, "Network files".
        """
    )

    @Argument(help: ArgumentHelp("A built-in profile or a profile JSON file to print as JSON.", valueName: "name|file"))
    var profile: String?

    @Option(help: ArgumentHelp("A network preset or a network JSON file to print as JSON.", valueName: "name|file"))
    var network: String?

    func validate() throws {
        if profile != nil && network != nil { throw ValidationError("give a profile or --network, not both") }
    }

    func run() throws {
        if let network {
            FileDescriptorOutput.write(NetworkFile.json(try NetworkFile.resolve(network, option: "--network")), to: 1)
        } else if let profile {
            FileDescriptorOutput.write(ProfileCatalog.json(try DeviceProfile.named(profile)), to: 1)
        } else {
            FileDescriptorOutput.write(try ProfileCatalog.tables, to: 1)
        }
    }
}
