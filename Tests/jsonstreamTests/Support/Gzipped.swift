// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing

/// `bytes` compressed by gzip(1), one member: compressed inputs made in a
/// test, where a fixture would not do (sizes, damage, members one by one).
func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("input")
    try Data(bytes).write(to: file)
    let process = Process(), output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    process.arguments = ["-c", "-n", file.path]
    process.standardOutput = output
    try process.run()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    return Array(compressed)
}
