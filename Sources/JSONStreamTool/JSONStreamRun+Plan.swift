import JSONFilter
import StreamingJSON

/// `--jq`'s plan: how each top-level value is read, decided before any
/// input is (`JSONFilterPlan`), and what `--explain` says of it.

/// The plan for a `--jq` run, or nil when the input is not top-level JSON
/// values that the filter reads one at a time (`-n`, `-s`, `-R`, `--stream`).
func jqPlan(for filter: JSONFilter, _ options: JSONStreamOptions) -> JSONFilterPlan? {
    guard !options.nullInput, !options.slurp, !options.rawInput, !options.streamEvents else { return nil }
    return filter.plan
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
    return lines
}
