// SPDX-License-Identifier: Apache-2.0

// `jsonstream --jq`'s command line, read by jq 1.8.2's rules (its main.c):
//
// - an argument is an option only when it starts with `-` and then a letter
//   or a second `-`: `-2 | length`, `-.a` and `-` are the program or files;
// - short options combine (`-cfr`), and `-f` is a flag: the first argument
//   that is no option is then the program's file;
// - `-c`, `--tab` and `--indent N` set the layout, the last one winning
//   (`--indent -1` is tabs); `-M` beats `-C`;
// - `--arg`, `--argjson`, `--rawfile` and `--slurpfile` naming a variable
//   given before are ignored (the first wins);
// - after `--args` (`--jsonargs`), arguments after the program are strings
//   (JSON texts) for `$ARGS.positional`.
//
// The arguments are rewritten into the canonical form the option parser
// reads (options first, with their values; the program and files after
// `--`). jsonstream's own options keep their values.
extension CommandLineSyntax {
    /// Whether the command line asks for jq's (`--jq` among the options).
    package static func asksForJQ(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--jq" { return true }
        }
        return false
    }

    /// `arguments` (jq's command line, `--jq` among them) in the canonical
    /// form: what jq 1.8.2 would make of them (see the top of this file).
    package static func canonicalJQArguments(_ arguments: [String]) -> [String] {
        var reading = JQArgumentReader()
        var index = 0
        while index < arguments.count {
            index = reading.read(arguments, at: index)
        }
        return reading.canonical
    }
}

/// Reads jq's command line one argument at a time.
private struct JQArgumentReader {
    enum Layout { case unchanged, compact, tab, indent(Int) }
    enum Positionals { case files, strings, json }

    var options: [String] = []
    var program: String?
    var files: [String] = []
    var fromFile = false
    var layout = Layout.unchanged
    var color = false, monochrome = false
    var positionals = Positionals.files
    var optionsEnded = false
    var named: Set<String> = []

    /// Reads the argument at `index` (and the values it takes); the index
    /// of the next one.
    mutating func read(_ arguments: [String], at index: Int) -> Int {
        let argument = arguments[index]
        if optionsEnded || !CommandLineSyntax.isOption(argument) {
            positional(argument)
            return index + 1
        }
        if argument == "--" {
            optionsEnded = true
            return index + 1
        }
        if argument.hasPrefix("--") { return long(argument, arguments, at: index) }
        return short(argument, arguments, at: index)
    }

    private mutating func positional(_ argument: String) {
        if program == nil {
            program = argument
            return
        }
        switch positionals {
        case .files: files.append(argument)
        case .strings: options.append(CommandLineSyntax.positionalArgumentOption + "=s:" + argument)
        case .json: options.append(CommandLineSyntax.positionalArgumentOption + "=j:" + argument)
        }
    }

    /// A long option, and the values it takes.
    private mutating func long(_ argument: String, _ arguments: [String], at index: Int) -> Int {
        let values = { (count: Int) in Array(arguments[(index + 1)..<min(arguments.count, index + 1 + count)]) }
        switch argument {
        case "--compact-output": layout = .compact
        case "--tab": layout = .tab
        case "--color-output": color = true
        case "--monochrome-output": monochrome = true
        case "--from-file": fromFile = true
        case "--args": positionals = .strings
        case "--jsonargs": positionals = .json
        case "--debug-dump-disasm", "--debug-trace", "--debug-trace=all", "--binary": break
        case "--indent":
            guard let text = values(1).first else {
                options.append(argument)  // the option parser says a value is missing
                return index + 1
            }
            indent(text)
            return index + 2
        case "--arg", "--argjson", "--rawfile", "--slurpfile":
            let pair = values(2)
            // The first of a name wins; a missing value is the option parser's to report.
            if pair.count < 2 || named.insert(pair[0]).inserted { options += [argument] + pair }
            return index + 1 + pair.count
        default:
            options.append(argument)
            let count = CommandLineSyntax.optionsWithTwoValues.contains(argument) ? 2
                : CommandLineSyntax.optionsWithOneValue.contains(argument) ? 1 : 0
            options += values(count)
            return index + 1 + values(count).count
        }
        return index + 1
    }

    /// `--indent N`: -1 is tabs (0 still breaks lines); out of range, the
    /// option parser's error (jq's exit status, 2).
    private mutating func indent(_ text: String) {
        guard let width = Int(text, radix: 10), (-1...7).contains(width) else {
            options += ["--indent", "99"]
            return
        }
        layout = width == -1 ? .tab : .indent(width)
    }

    /// A run of short options (`-cfr`), and the values the last one takes.
    private mutating func short(_ argument: String, _ arguments: [String], at index: Int) -> Int {
        var letters = argument.dropFirst()
        while let letter = letters.popFirst() {
            switch letter {
            case "c": layout = .compact
            case "C": color = true
            case "M": monochrome = true
            case "f": fromFile = true
            case "b": break
            case "V": options.append("--version")
            case "L":
                if !letters.isEmpty {
                    options.append("--library-path=" + letters)
                    return index + 1
                }
                guard index + 1 < arguments.count else {
                    options.append("-L")
                    return index + 1
                }
                options += ["--library-path", arguments[index + 1]]
                return index + 2
            default: options.append("-" + String(letter))
            }
        }
        return index + 1
    }

    /// The options, then `--` and the program (or, with `-f`, its file as
    /// an option) and the files.
    var canonical: [String] {
        var result = options
        switch layout {
        case .unchanged: break
        case .compact: result.append("-c")
        case .tab: result.append("--tab")
        case .indent(let width): result += ["--indent", String(width)]
        }
        if monochrome { result.append("-M") } else if color { result.append("-C") }
        var positional = files
        if let program {
            if fromFile { result += ["--from-file", program] } else { positional.insert(program, at: 0) }
        } else if fromFile {
            result.append("--from-file")  // the option parser says its file is missing
        }
        return positional.isEmpty ? result : result + ["--"] + positional
    }
}
