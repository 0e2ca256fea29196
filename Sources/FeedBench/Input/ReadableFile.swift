import Foundation

/// A file an option names by path, where the option also takes names (a preset, a built-in
/// population): its bytes, or `nil` when the path is empty, missing, a folder or unreadable, so
/// that the caller refuses it in its own words.
enum ReadableFile {
    /// The contents of the regular file at `path`, if there is one to read. O(file size).
    static func contents(at path: String) -> Data? {
        var isFolder: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return FileManager.default.contents(atPath: path)
    }
}
