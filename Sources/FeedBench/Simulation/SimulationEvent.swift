/// Everything that can happen in a run, on its clock (`RunClock`).
public enum SimulationEvent: Sendable {
    /// Frame `index` of the current launch: scroll, display, prefetch.
    case frame(index: Int, launch: Int)
    /// An API call of the current launch answered.
    case apiResponse(launch: Int)
    /// A `cacheWithTimeout` launch's deadline: show the stored images if the API has not answered.
    case deadline(launch: Int)
    /// The image pipeline's own events.
    case pipeline(PipelineEvent)
}
