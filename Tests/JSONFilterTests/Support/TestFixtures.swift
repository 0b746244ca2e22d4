// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Tests/Fixtures, which the filter suites share with the other test targets.
enum TestFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // JSONFilterTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// A file or folder in Tests/Fixtures.
    static func url(_ path: String) -> URL { directory.appendingPathComponent(path) }
}
