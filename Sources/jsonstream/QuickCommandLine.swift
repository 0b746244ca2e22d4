// SPDX-License-Identifier: Apache-2.0
import JSONStreamTool

/// The command lines most runs are made of, read without ArgumentParser:
/// flags that take no value, then the filter and the files.
///
/// ArgumentParser's first parse builds its model of every option by
/// reflection, which costs more than the whole run on a small file does
/// (`for f in *.json; do jsonstream …; done`). Anything else (an option
/// with a value, a cluster of short flags, a flag given twice, `--help`,
/// a mistake) still goes to ArgumentParser, and the options made here are
/// the ones it makes (`CommandTests` compares the two).
enum QuickCommandLine {
    /// The options for `arguments` (after `canonicalJQArguments` with
    /// `--jq`), or nil when ArgumentParser must read them.
    static func options(_ arguments: [String]) -> JSONStreamOptions? {
        var options = JSONStreamOptions()
        var compact = false
        var positionals: [String] = []
        var optionsEnded = false
        var seen: [String] = []  // a handful: an array costs less than a set to make
        for argument in arguments {
            if optionsEnded || !CommandLineSyntax.isOption(argument) {
                positionals.append(argument)
                continue
            }
            guard !seen.contains(argument), let flag = flag(argument) else { return nil }
            seen.append(argument)
            switch flag {
            case .optionsEnd: optionsEnded = true
            case .compact: compact = true
            case .set(let set): set(&options)
            }
        }
        // What the option groups' `apply(to:)` and `makeOptions()` add.
        if options.jqMode { options.limits.maxDepth = 10_000 }
        options.settleJQLayout(compact: compact)
        if let first = positionals.first {
            options.filter = .text(first)
            options.files = Array(positionals.dropFirst())
        }
        return options
    }

    private enum Flag {
        case optionsEnd
        case compact
        case set((inout JSONStreamOptions) -> Void)
    }

    private static func flag(_ argument: String) -> Flag? {
        switch argument {
        case "--": return .optionsEnd
        case "-c", "--compact-output": return .compact
        case "--jq": return .set { $0.jqMode = true }
        case "-r", "--raw-output": return .set { $0.rawOutput = true }
        case "-j", "--join-output": return .set { $0.joinOutput = true }
        case "-a", "--ascii-output": return .set { $0.asciiOutput = true }
        case "-S", "--sort-keys": return .set { $0.sortKeys = true }
        case "-n", "--null-input": return .set { $0.nullInput = true }
        case "-s", "--slurp": return .set { $0.slurp = true }
        case "-R", "--raw-input": return .set { $0.rawInput = true }
        case "-e", "--exit-status": return .set { $0.exitStatus = true }
        case "--tab": return .set { $0.tab = true }
        case "--seq": return .set { $0.seq = true }
        case "--unbuffered": return .set { $0.unbuffered = true }
        default: return nil
        }
    }
}
