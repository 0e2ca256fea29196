/// The package itself.
public enum FeedBench {
    /// FeedBench's version, which `bench --version` prints.
    public static let version = "0.1.0"
}
