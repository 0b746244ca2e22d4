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
/// values that the filter reads one at a time (`-n`, `-s`, `-R`, `--stream`).
func jqPlan(for filter: JSONFilter, _ options: JSONStreamOptions) -> JSONFilterPlan? {
    guard !options.nullInput, !options.slurp, !options.rawInput, !options.streamEvents else { return nil }
    let plan = filter.plan
    // Parts read each value once per part: only a file can be read again,
    // and only a large value repays it (JSON Lines is faster built whole).
    if plan.strategy == .inParts && !options.explain
        && !(allRegularFiles(options.files) && options.files.allSatisfy(startsWithLargeValue)) {
        return nil
    }
    return plan
}

/// Whether the first value in `file` goes on past its first MiB: a scan
/// of the brackets outside strings.
private func startsWithLargeValue(_ file: String) -> Bool {
    let window = 1 << 20
    guard let bytes = readPrefix(file, count: window) else { return false }
    var depth = 0, inString = false, escaped = false, started = false
    for byte in bytes {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
            else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; started = true
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        case 0x20, 0x09, 0x0A, 0x0D: break
        default: started = true
        }
        if started && depth <= 0 && !inString && byte != UInt8(ascii: "\"") {
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { return false }
        }
    }
    return bytes.count == window && depth > 0
}

/// Up to `count` bytes from the start of `file`.
private func readPrefix(_ file: String, count: Int) -> [UInt8]? {
    let fd = unsafe open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let got = unsafe bytes.withUnsafeMutableBytes { unsafe read(fd, $0.baseAddress! + filled, count - filled) }
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
        mode = "each input value is built whole"
    }
    var lines = ["jsonstream: plan: \(mode)"]
    if let fallback = plan?.fallback { lines.append("jsonstream: plan: \(fallback)") }
    for (index, part) in (plan?.parts ?? []).enumerated() {
        lines.append("jsonstream: plan: part \(index + 1): \(part.description)")
    }
    return lines
}
