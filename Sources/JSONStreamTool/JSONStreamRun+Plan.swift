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
    // Parts read each value once per part: only a file can be read again.
    if plan.strategy == .inParts && !options.explain && !allRegularFiles(options.files) { return nil }
    return plan
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
        return file != "-" && stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
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
