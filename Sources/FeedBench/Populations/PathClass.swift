/// The class of network path an app can tell apart at run time, as Network's `NWPathMonitor`
/// reports it: Wi-Fi (`usesInterfaceType(.wifi)`), cellular (`isExpensive`), or a path the user
/// asked to spare (Low Data Mode: `isConstrained`, on either interface). A population's settings
/// per class are what an app can switch between when the path changes.
public enum PathClass: String, Sendable, Hashable, CaseIterable {
    case wifi
    case cellular
    case constrained

    /// A preset's class: NLC's Wi-Fi and DSL presets are reached over Wi-Fi (DSL is a home line
    /// behind it), every other preset is a cellular link.
    public static func of(preset name: String) -> PathClass? {
        guard NetworkProfile.presetNames.contains(name) else { return nil }
        return ["wifi", "dsl"].contains(name) ? .wifi : .cellular
    }
}
