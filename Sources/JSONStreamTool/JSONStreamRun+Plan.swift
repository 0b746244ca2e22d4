// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONFilter
import StreamingJSON

/// `--jq`'s plan: how each top-level value is read, decided before any
/// input is (`JSONFilterPlan`), and what `--explain` says of it.

/// The plan for a `--jq` run, or nil when the input is not top-level JSON
/// values that the filter reads one at a time (`-n`, `-s`, `-R`, `--stream`),
/// or when every file's first value is small and another follows it.
///
/// `stdin`: standard input, when it is the only input and may be looked at
/// (not for `--explain`). A pipe's first read is taken to see its first
/// value, and left in `stdin.peeked` for the reader to read first.
func jqPlan(for filter: JSONFilter, _ options: JSONStreamOptions, stdin: StdinPeek? = nil) -> JSONFilterPlan? {
    guard !options.nullInput, !options.slurp, !options.rawInput, !options.streamEvents else { return nil }
    let plan = filter.plan
    guard plan.strategy != .whole else { return plan }
    let files = allRegularFiles(options.files) ? options.files : nil
    // Parts read each value once per part: only a file can be read again,
    // and only a large value repays it (JSON Lines is faster built whole).
    if plan.strategy == .inParts && !options.explain
        && files?.allSatisfy({ firstValue(of: $0) == .large }) != true {
        return nil
    }
    // Many small values (JSON Lines, most often): each value is read as
    // `jsonstream F` reads an element (on every core, written from the tape
    // where it can), faster for small values than following the plan's path
    // into each. A later large value is then held whole, as jq holds it.
    if files?.allSatisfy({ firstValue(of: $0) == .followed }) == true { return nil }
    if let stdin, options.files.isEmpty || options.files == ["-"], stdin.firstValue() == .followed { return nil }
    return plan
}

/// Standard input looked at before the plan is made: a regular file's
/// first MiB is read in place; a pipe's first read (as much as it holds
/// then, never waiting for more) is kept in `peeked`, to be read first.
final class StdinPeek {
    let descriptor: Int32
    private(set) var peeked: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    fileprivate func firstValue() -> FirstValue {
        var info = stat()
        if unsafe fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
            let start = lseek(descriptor, 0, SEEK_CUR)
            return classifyStart(readPrefix(descriptor, at: max(0, start), count: firstValueWindow))
        }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        var got = 0
        repeat {
            got = unsafe bytes.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress!, $0.count) }
        } while got < 0 && errno == EINTR
        peeked = Array(bytes[..<max(0, got)])
        // What one read gave: a first value that goes on past it counts as large.
        return classify(_textStart(of: peeked, limit: firstValueWindow), complete: false)
    }
}

/// How the first value of a file sits in its first MiB.
fileprivate enum FirstValue {
    /// It goes on past the first MiB.
    case large
    /// It ends there, and nothing but whitespace follows it there.
    case alone
    /// Another value begins after it.
    case followed
}

/// The bytes of an input's start looked at for its first value.
private let firstValueWindow = 1 << 20

/// The first value in `file` (see `classify`).
private func firstValue(of file: String) -> FirstValue {
    let fd = unsafe open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .alone }
    defer { close(fd) }
    return classifyStart(readPrefix(fd, at: 0, count: firstValueWindow))
}

/// `classify` of a file's first bytes, decompressed when they are compressed
/// (then all of the window's text is there only when the file ended in it).
private func classifyStart(_ bytes: [UInt8]) -> FirstValue {
    let text = _textStart(of: bytes, limit: firstValueWindow)
    return classify(text, complete: text.count == firstValueWindow || bytes.count < firstValueWindow)
}

/// The first value in `bytes`, an input's start, from a scan of the
/// brackets outside strings (a scalar first value counts as `alone`);
/// `complete`: `bytes` is all of the input's start that there is, up to
/// the window.
private func classify(_ bytes: [UInt8], complete: Bool = true) -> FirstValue {
    var depth = 0, inString = false, escaped = false
    for (index, byte) in bytes.enumerated() {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
            else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            if depth <= 0 {
                let rest = bytes[(index + 1)...]
                return rest.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
                    ? .followed : .alone
            }
        case 0x20, 0x09, 0x0A, 0x0D: break
        default: if depth == 0 { return .alone }
        }
    }
    return (bytes.count == firstValueWindow || !complete) && depth > 0 ? .large : .alone
}

/// Up to `count` bytes of `fd` from `offset`, which stays where it is.
private func readPrefix(_ fd: Int32, at offset: off_t, count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let got = unsafe bytes.withUnsafeMutableBytes {
            unsafe pread(fd, $0.baseAddress! + filled, count - filled, offset + off_t(filled))
        }
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { break }
        filled += got
    }
    return Array(bytes[..<filled])
}

/// `--jq -s`: a plan that streams or copies the slurped array itself (its
/// elements are the input values), or nil.
func slurpPlan(for filter: JSONFilter) -> JSONFilterPlan? {
    let plan = filter.plan
    guard plan.path.isEmpty, plan.strategy == .streamed || plan.strategy == .copied else { return nil }
    return plan
}

/// Whether every input is a named regular file (not stdin, a pipe or a device).
private func allRegularFiles(_ files: [String]) -> Bool {
    !files.isEmpty && files.allSatisfy { file in
        var info = stat()
        return unsafe file != "-" && stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

/// `--explain`'s lines.
func explanation(of plan: JSONFilterPlan?, filter: JSONFilter, _ options: JSONStreamOptions) -> [String] {
    guard options.jqMode else { return [] }
    let mode: String
    if options.streamEvents && options.nullInput && filter.streamIdiomProgram != nil {
        mode = "streamed: fromstream(N|truncate_stream(inputs)) is read as the elements of each input value, "
            + "one at a time, taken apart to depth N; no event is made"
    } else if options.streamEvents {
        mode = "events: jq's [path, leaf] events are made from the parser's tokens as they come; nothing is built"
    } else if options.nullInput {
        mode = "-n: the filter runs once, on null; input and inputs read the input values, each built whole"
    } else if options.slurp, !options.rawInput, let slurped = slurpPlan(for: filter) {
        mode = "-s: " + slurped.description
            .replacingOccurrences(of: "each input value, one element at a time",
                                  with: "the input values, one at a time, as the elements of an array never built")
            .replacingOccurrences(of: "each input value is written out as it is read",
                                  with: "the input values are written out as they are read")
    } else if options.slurp {
        mode = "-s: every input value is built and gathered into one array (memory grows with the input, as in jq)"
    } else if options.rawInput {
        mode = "-R: each line is one input string"
    } else if let plan {
        mode = plan.description
    } else {
        // `jqPlan` gives a plan (`.whole` included) but for the files of many small values.
        mode = "each input value is read whole, as the files hold many small values (JSON Lines), "
            + "built only where the filter needs it"
    }
    var lines = ["jsonstream: plan: \(mode)"]
    if let fallback = plan?.fallback { lines.append("jsonstream: plan: \(fallback)") }
    for (index, part) in (plan?.parts ?? []).enumerated() {
        lines.append("jsonstream: plan: part \(index + 1): \(part.description)")
    }
    return lines
}
