// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A directory removed when the value goes away. (jsonstreamTests has the
/// same class for its command lines; test targets cannot share a file.)
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("streamingjson-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: path)
        return path.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
