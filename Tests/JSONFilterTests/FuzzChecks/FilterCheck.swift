// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import JSONFilter
@testable import StreamingJSON

/// Fuzz target `filter`: a jq program compiled by `JSONFilter` and run on
/// one element of a fixed document, as `jsonstream` runs it.
///
/// Input: one byte choosing the element, then the program's text.
///   byte bit  0     the document: Tests/Fixtures/jq/inputs/mixed.json or beers.json
///        bits 1-7   the element's index (modulo the element count)
///
/// - Compiling throws only compile errors (`JSONFilterError` with a column
///   inside the text); running throws only runtime errors.
/// - Every output written as jq writes it (`description`) is JSON that
///   reads back and is written the same way again.
/// - The element read with the members the program can observe
///   (`observedMembers`, as `jsonstream` reads it) gives the same outputs and
///   the same error as the whole element.
///
/// Programs that may run without end (`range`, `repeat`, `while`, `until`,
/// `recurse` with an argument) are skipped, and a run stops after
/// `maxOutputs` outputs: the check looks for crashes and wrong answers, not
/// for programs that legitimately never finish. Others still do (a product
/// of generators filtered by `select`, doubling arrays): scripts/fuzz runs
/// this target under -fork=1, which sets timeouts and out-of-memory inputs aside.
///
/// This folder is compiled twice: into the fuzz target (Fuzz/Sources/FilterFuzzChecks
/// is a link to it) and into JSONFilterTests, where JSONFilterFuzzRegressionTests
/// runs every input the fuzzer stopped on through this check.
public enum FilterCheck {
    /// Compiles a program once before the first input, so that the
    /// library's lazily built tables (the built-ins by name, the regex
    /// cache) are not counted by libFuzzer's per-input leak check against
    /// whichever input came first.
    public static func prepare() {
        _ = try? JSONFilter("paths | test(\"a\")")
    }

    public enum Outcome: CustomStringConvertible {
        case compileError(JSONFilterError)
        case ran(outputs: [JSONValue], error: JSONFilterError?)
        case skipped

        public var description: String {
            switch self {
            case .compileError(let error): return "compile error: \(error)"
            case .ran(let outputs, let error): return "\(outputs)" + (error.map { " then \($0)" } ?? "")
            case .skipped: return "skipped"
            }
        }
    }

    static let maxOutputs = 1_000
    static let unbounded = ["range", "repeat", "while", "until", "recurse("]

    struct TooManyOutputs: Error {}

    /// A property this check found broken. (The other checks, compiled with
    /// StreamingJSON's tests, have their own `FuzzViolation` and helpers; this
    /// one stands alone so that it compiles in JSONFilterTests too.)
    public struct Violation: Error, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Violation(message()) }
    }

    public static func run(_ input: [UInt8]) throws -> Outcome {
        let choice = Int(input.first ?? 0)
        let source = String(decoding: input.dropFirst(), as: UTF8.self)
        if unbounded.contains(where: source.contains) { return .skipped }
        let (document, elements) = documents[choice & 1]
        let index = (choice >> 1) % elements.count

        let filter: JSONFilter
        do {
            filter = try JSONFilter(source)
        } catch let error as JSONFilterError {
            try require(error.isCompileError, "compiling threw an error that is not a compile error: \(error)")
            // Only a program with no query at all has no place to name.
            guard let column = error.column else {
                try require(error.message.hasPrefix("Top-level program not given"), "a compile error without a column: \(error)")
                return .compileError(error)
            }
            try require(column >= 1 && column <= source.utf8.count + 1,
                        "compile error column \(column) outside the \(source.utf8.count)-byte program: \(error)")
            return .compileError(error)
        } catch {
            throw Violation("compiling threw a non-JSONFilterError: \(error)")
        }

        let (outputs, error) = try apply(filter, to: elements[index])
        for output in outputs {
            let text = output.description
            guard let reread = try? StreamingJSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw Violation("an output is written as invalid JSON: \(text)")
            }
            try require(reread.description == text, "\(text) reads back as \(reread)")
        }

        if let members = filter.observedMembers {
            let projected = try element(index, of: document, projection: _Projection(members))
            let (projectedOutputs, projectedError) = try apply(filter, to: projected)
            // Compared as written: a NaN output is not equal to itself.
            try require(projectedOutputs.map(\.description) == outputs.map(\.description)
                            && projectedError?.description == error?.description,
                        "on the members \(members.sorted()) the program gives \(projectedOutputs.prefix(8))"
                            + " \(projectedError.map { "\($0)" } ?? ""), on the whole element \(outputs.prefix(8))"
                            + " \(error.map { "\($0)" } ?? "")")
        }
        return .ran(outputs: outputs, error: error)
    }

    /// The outputs of `filter` on `value` (at most `maxOutputs`) and the runtime error that ended them.
    private static func apply(_ filter: JSONFilter, to value: JSONValue) throws -> ([JSONValue], JSONFilterError?) {
        var outputs: [JSONValue] = []
        do {
            try filter.apply(to: value) { output in
                outputs.append(output)
                if outputs.count >= maxOutputs { throw TooManyOutputs() }
            }
        } catch is TooManyOutputs {
            return (outputs, nil)
        } catch is JSONFilterHalt {
            // `halt` and `halt_error` end the program (and, in jq, the process).
            return (outputs, nil)
        } catch let error as JSONFilterError {
            try require(!error.isCompileError, "a runtime error with a column: \(error)")
            return (outputs, error)
        } catch {
            throw Violation("running threw a non-JSONFilterError: \(error)")
        }
        return (outputs, nil)
    }

    /// The fixed documents: their files and their elements, read whole.
    static let documents: [(url: URL, elements: [JSONValue])] = ["mixed.json", "beers.json"].map { name in
        let url = fixtures.appendingPathComponent("jq/inputs/\(name)")
        guard let data = try? Data(contentsOf: url),
              let elements = try? StreamingJSONDecoder().decode([JSONValue].self, from: data), !elements.isEmpty
        else { fatalError("cannot read \(url.path)") }
        return (url, elements)
    }

    /// Tests/Fixtures, found above this source file (it is compiled from Fuzz/Sources/FilterFuzzChecks too).
    static let fixtures: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Tests/Fixtures")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("jq/inputs").path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        fatalError("Tests/Fixtures not found above \(#filePath)")
    }()

    /// Element `index` of the document as `jsonstream` reads it with a projection.
    private static func element(_ index: Int, of url: URL, projection: _Projection) throws -> JSONValue {
        let reader = try _ValueReader(contentsOfFile: url.path, format: .array, path: [], projection: projection)
        while true {
            switch reader.next() {
            case .value(let value):
                if reader.index == index { return value }
            case .end:
                throw Violation("element \(index) missing when read with a projection")
            case .elementError(let error, _), .syntaxError(let error):
                throw Violation("reading with a projection failed: \(error)")
            case .readError(let error):
                throw Violation("reading with a projection failed: \(error)")
            case .mark, .member, .key:
                throw Violation("a reader that does not follow roots gave a mark or member")
            }
        }
    }
}
