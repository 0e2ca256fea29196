/// How `bench serve` writes its answers (`--pace`): as the simulation's network model delivers
/// them, or as fast as TCP takes them, for a server whose client is on the other side of a real
/// link (an emulated one, Validation/emulation, or a real network) that does what the model
/// would.
public enum ServePace: String, Sendable, CaseIterable {
    /// Every answer crosses the simulation's network model: its bytes are written as the model
    /// delivers them, at most the network's requests per host at once for each client.
    case model
    /// Only the API's own latency (and its faults) are the server's: each answer is written at
    /// once, as fast as TCP takes it, and any number at a time.
    case none
}
