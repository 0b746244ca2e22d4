// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StreamingJSON

// The steps of a plan of pieces, for engines that run `jsonstream` on many
// machines (`JSONPiece`): each prints pieces as JSON Lines on stdout, one
// piece per line, for the next step or for `--piece`.
//
//   jsonstream --plan-ranges 64 dump.json > ranges.jsonl        (one machine: the file's start)
//   jsonstream --scan-piece "$LINE" dump.json                   (each worker: its range)
//   jsonstream --join-pieces < scanned.jsonl > pieces.jsonl     (one machine: reads nothing)
//   jsonstream --piece "$LINE" -c FILTER dump.json              (each worker: its piece)
//
// `--plan-pieces N` does the first three on this machine's cores.

extension JSONStreamOptions {
    /// What is wrong with the options of a step or of `--piece`.
    func pieceProblems() -> [String] {
        var problems: [String] = []
        let oneFile = files.count == 1 && files[0] != "-"
        switch pieceStep {
        case .plan(let count)?, .ranges(let count)?:
            if !(1...1_000_000).contains(count) { problems.append("a plan has 1 to 1000000 pieces, not \(count)") }
            if !oneFile { problems.append("a plan is made of one input file (a regular file, not stdin)") }
        case .scan?:
            if !oneFile { problems.append("--scan-piece scans a piece of one input file (the file it was planned for)") }
        case .join?:
            if !files.isEmpty { problems.append("--join-pieces reads the scanned pieces on stdin; it takes no file") }
        case nil:
            break
        }
        for text in [piece, { if case .scan(let text)? = pieceStep { text } else { nil } }()].compactMap({ $0 }) {
            do {
                _ = try decodePiece(text)
            } catch {
                problems.append(pieceErrorText(error, file: nil))
            }
        }
        if pieceStep != nil && piece != nil { problems.append("--piece runs a filter; a step of a plan runs none") }
        guard piece != nil else { return problems }
        if !oneFile { problems.append("--piece reads a piece of one input file (the file it was planned for)") }
        if jqMode { problems.append("--piece runs FILTER on each element of the piece; it cannot be combined with --jq") }
        if slurp || nullInput || rawInput || limit != nil || split != nil {
            problems.append("--piece reads one piece: -s, -n, -R, --limit and --split-lines would see only its part")
        }
        return problems
    }
}

/// Runs one step of a plan: its pieces go to stdout as JSON Lines.
package func runPieceStep(_ step: PieceStep, options: JSONStreamOptions, streams: StandardStreams) -> ExitStatus {
    let diagnostics = Diagnostics(descriptor: streams.error)
    let decoder = StreamingJSONDecoder()
    let pieces: [JSONPiece]
    do {
        switch step {
        case .plan(let count):
            let url = URL(fileURLWithPath: options.files[0])
            pieces = try decoder.pieces(count: count, ofContentsOf: url, at: options.path, format: options.streamFormat(for: options.files[0]),
                                        followingRoots: true)
        case .ranges(let count):
            let url = URL(fileURLWithPath: options.files[0])
            pieces = try decoder.planPieces(count: count, ofContentsOf: url, at: options.path,
                                            format: options.streamFormat(for: options.files[0]), followingRoots: true)
        case .scan(let text):
            pieces = [try decodePiece(text).scanned(contentsOf: URL(fileURLWithPath: options.files[0]))]
        case .join:
            pieces = try JSONPiece.joined(readPieces(from: streams.input))
        }
    } catch {
        diagnostics.print("jsonstream: error: \(pieceErrorText(error, file: options.files.first))")
        return .usage
    }
    if let reason = pieces.first?.wholeInputReason, case .plan = step {
        diagnostics.print("jsonstream: note: the input is read as one piece (the first): \(reason)")
    }
    do {
        let output = OutputSink(descriptor: streams.output, name: "stdout", flushesEachResult: false)
        let encoder = StreamingJSONEncoder()
        for piece in pieces {
            try output.append(results: ArraySlice(try encoder.encode(piece) + [0x0A]))
        }
        try output.flush()
    } catch OutputError.closed {
        // `| head`: the rest is not wanted.
    } catch {
        diagnostics.print("jsonstream: error: Could not write the pieces: \(pieceErrorText(error, file: nil))")
        return .usage
    }
    return .success
}

/// A piece given on the command line, as JSON.
func decodePiece(_ text: String) throws -> JSONPiece {
    do {
        return try StreamingJSONDecoder().decode(JSONPiece.self, from: Data(text.utf8))
    } catch {
        throw JSONPieceError("Not a piece of a plan (one line that a plan printed): \(describe(error))")
    }
}

/// The pieces on `descriptor`, one JSON object per line.
private func readPieces(from descriptor: Int32) throws -> [JSONPiece] {
    guard let text = readText(from: descriptor) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return try text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }.map {
        try decodePiece(String($0))
    }
}

/// An error of a step, for its message.
func pieceErrorText(_ error: any Error, file: String?) -> String {
    if let piece = error as? JSONPieceError { return piece.message }
    if error is POSIXError { return reason(error) }
    if let cocoa = error as? CocoaError, let file {
        let reason = switch cocoa.code {
        case .fileReadNoSuchFile: "No such file or directory"
        case .fileReadNoPermission: "Permission denied"
        default: describe(error)
        }
        return "Could not open \(file): \(reason)"
    }
    return describe(error)
}
