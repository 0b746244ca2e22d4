// SPDX-License-Identifier: Apache-2.0
import Foundation

// An event of citm_catalog.json's `events` object (ids -> events), as
// `scripts/generate-shapes.py --shape citm` repeats them; the model of
// CitmCatalog.Event in the Benchmarks package's NativeJSONModels.swift,
// written on its own as a user streaming the object's values would. The
// Benchmarks package compiles this file too (a symbolic link there).

struct CitmEvent: Codable, Sendable {
    var description: String?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int]
}

/// The whole citm shape, `{"events": {...}}`, as Foundation decodes it.
struct CitmEvents: Codable, Sendable {
    var events: [String: CitmEvent]
}
