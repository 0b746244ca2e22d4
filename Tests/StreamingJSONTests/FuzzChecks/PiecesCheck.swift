// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import StreamingJSON

// The `stream` target's plan of pieces: the document written to a file,
// planned with ranges that end where the fuzzer's chunks end, each range
// scanned, all joined, each piece read. The pieces' events, joined, must be
// the unsplit stream's when it has no error (after damage the scans of the
// ranges that follow cannot be trusted); whatever the input, nothing may
// crash, hang or hand out more events than there are bytes.
extension StreamChunksCheck {
    static func checkPieces(_ setup: Setup, decoder: StreamingJSONDecoder, reference: [Event], limit: Int) throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamingjson-fuzz-pieces-\(UUID().uuidString).json")
        try Data(setup.document).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var ends: [Int] = []
        for chunk in setup.chunks where !chunk.isEmpty { ends.append((ends.last ?? 0) + chunk.count) }
        if ends.last != setup.document.count { ends.append(setup.document.count) }
        // At most 64 pieces (a file opened for each): every k-th end of many chunks.
        let step = (ends.count + 63) / 64
        ends = ends.enumerated().filter { ($0.offset + 1) % step == 0 || $0.offset == ends.count - 1 }.map(\.element)
        let file = try _PieceFile(url: url)
        let plan = try decoder.planPieces(ending: ends, of: file, at: setup.path, format: setup.format)
        let pieces = try JSONPiece.joined(plan.reversed().map { try $0.scanned(file) })
        var events: [Event] = []
        for piece in pieces {
            events = try Self.events(decoder.elements(of: JSONValue.self, contentsOf: url, piece: piece,
                                                      format: setup.format),
                                     in: setup.document, limit: limit + pieces.count, after: events)
        }
        let clean = !reference.contains { if case .error = $0 { return true } else { return false } }
        try require(!clean || same(events, reference),
                    "pieces ending at \(ends): \(events.prefix(8)) differ from unsplit \(reference.prefix(8))")
    }
}
