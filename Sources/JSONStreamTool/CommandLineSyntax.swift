// SPDX-License-Identifier: Apache-2.0
/// The parts of jq's command-line syntax that an argument parser with one
/// value per option does not cover, and the parsing of option values.
package enum CommandLineSyntax {
    /// Options that take two values, as in jq: `--arg NAME VALUE`. (Arrays,
    /// not sets: a set of strings costs more to build, once per run, than
    /// the few look-ups a command line makes.)
    package static let optionsWithTwoValues: [String] = ["--arg", "--argjson", "--rawfile", "--slurpfile", "--split-lines"]

    /// Joins the two values of an option into one. NUL cannot occur in a
    /// command-line argument, so the join can always be undone.
    package static let pairSeparator: Character = "\u{0}"

    /// Rewrites `--arg NAME VALUE` as `--arg=NAME<NUL>VALUE` (and the same for
    /// the other two-value options), so that an argument parser taking one
    /// value per option sees the pair as one value. The `=` form keeps a
    /// value that starts with `-` from looking like an option. Arguments
    /// after `--` are left alone; an option without two values after it is
    /// left as it is, for the parser to report.
    package static func joiningPairs(_ arguments: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result.append(contentsOf: arguments[index...])
                break
            }
            if optionsWithTwoValues.contains(argument) && index + 2 < arguments.count {
                result.append(argument + "=" + arguments[index + 1] + String(pairSeparator) + arguments[index + 2])
                index += 3
                continue
            }
            result.append(argument)
            index += 1
        }
        return result
    }

    /// Whether `argument` is an option, by jq's rule: `-` and then a letter
    /// or a second `-`. `-`, `-2 | length` and `-.a` are not.
    package static func isOption(_ argument: String) -> Bool {
        let bytes = Array(argument.utf8.prefix(2))
        guard bytes.count == 2, bytes[0] == UInt8(ascii: "-") else { return false }
        let letter = bytes[1] | 0x20
        return bytes[1] == UInt8(ascii: "-") || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
    }

    /// swift-argument-parser's bash completion script, fitted to a command
    /// without subcommands: where it would offer its implicit `help`
    /// subcommand (which `jsonstream` would take for a filter), the filter
    /// and files are completed as file names.
    package static func bashCompletion(adjusting script: String) -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let start = lines.firstIndex(where: { $0.trimmingWhitespace() == "help)" }),
           let end = lines[start...].firstIndex(where: { $0.trimmingWhitespace() == ";;" }) {
            lines.removeSubrange(start...end)
        }
        return lines.joined(separator: "\n").replacingOccurrences(
            of: #"COMPREPLY+=($(compgen -W 'help' -- "${cur}"))"#, with: #"COMPREPLY+=($(compgen -f -- "${cur}"))"#)
    }

    /// Options that take one value as the next argument.
    package static let optionsWithOneValue: [String] = [
        "-f", "--from-file", "-L", "--library-path", "--path", "--input", "--limit", "--on-error", "--max-depth",
        "--max-number-length", "--max-string-length", "--max-element-bytes", "--indent", "--output", "--columns", "--threads",
        "--plan-pieces", "--plan-ranges", "--scan-piece", "--piece",
    ]

    /// The hidden option a positional argument after `--args` or
    /// `--jsonargs` becomes: its value is `s:TEXT` or `j:JSON`.
    package static let positionalArgumentOption = "--positional-argument"

    /// jq's position-dependent arguments, rewritten for a parser that does
    /// not see positions. After `--args` (`--jsonargs`) every positional
    /// argument but the filter is a string (JSON) for `$ARGS.positional`, not
    /// an input file, until the other of the two is given; they become
    /// `positionalArgumentOption`s, in order. `-Ldir` becomes
    /// `--library-path=dir`. The filter and the files go last, after `--`,
    /// so that none is taken for an option. Run after `joiningPairs`.
    package static func markingPositionalArguments(_ arguments: [String]) -> [String] {
        enum Mode { case files, strings, json }
        var mode = Mode.files
        var filterSeen = arguments.contains { $0 == "-f" || $0 == "--from-file" || $0.hasPrefix("--from-file=") }
        var optionsEnded = false
        var options: [String] = []
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // jq's rule: `-` then a letter or a second `-` (`-2 | length` is a filter).
            if !optionsEnded && Self.isOption(argument) {
                switch argument {
                case "--": optionsEnded = true
                case "--args": mode = .strings
                case "--jsonargs": mode = .json
                case _ where argument.hasPrefix("-L") && argument.count > 2:
                    options.append("--library-path=" + argument.dropFirst(2))
                default:
                    options.append(argument)
                    if optionsWithOneValue.contains(argument) && index < arguments.count {
                        options.append(arguments[index])
                        index += 1
                    }
                }
                continue
            }
            if !filterSeen {
                filterSeen = true
                positionals.append(argument)
                continue
            }
            switch mode {
            case .files: positionals.append(argument)
            case .strings: options.append(positionalArgumentOption + "=s:" + argument)
            case .json: options.append(positionalArgumentOption + "=j:" + argument)
            }
        }
        return positionals.isEmpty ? options : options + ["--"] + positionals
    }

    /// The variables `--arg`, `--argjson`, `--rawfile` and `--slurpfile`
    /// name, in command-line order (`$ARGS.named` keeps it).
    package static func variableNames(_ arguments: [String]) -> [String] {
        var names: [String] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if optionsWithTwoValues.contains(argument), argument != "--split-lines", index + 1 < arguments.count {
                names.append(arguments[index + 1])
                index += 3
            } else {
                index += 1
            }
        }
        return names
    }

    /// Undoes `joiningPairs` for one value: nil when it was not a pair.
    package static func splitPair(_ value: String) -> (first: String, second: String)? {
        guard let separator = value.firstIndex(of: pairSeparator) else { return nil }
        return (String(value[..<separator]), String(value[value.index(after: separator)...]))
    }

    /// A problem in an option's value.
    package struct ValueError: Error, CustomStringConvertible {
        package var description: String
    }

    /// `--path`: `.a.b`, `."a b".c`, `.["a b"]`; the leading dot may be left
    /// out, and a trailing `[]` (as in jq's `.items[]`) is accepted. `.` is the root.
    package static func keyPath(_ text: String) throws -> [String] {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.last == "]", scalars.dropLast().last == "[" { scalars = scalars.dropLast(2) }
        var keys: [String] = []
        var first = true
        while !scalars.isEmpty {
            if scalars.first == "." {
                scalars = scalars.dropFirst()
                if scalars.isEmpty {
                    if keys.isEmpty && first { return [] }  // `.`
                    throw ValueError(description: "--path \(text): a key is missing after the last '.'")
                }
            } else if !first && scalars.first != "[" {
                throw ValueError(description: "--path \(text): expected '.' before \(String(scalars))")
            }
            first = false
            if scalars.first == "[" {
                scalars = scalars.dropFirst()
                guard scalars.first == "\"" else {
                    throw ValueError(description: "--path \(text): only object keys can be on the path (.a.b or .[\"a\"]); array indexes are not supported")
                }
                keys.append(try quotedKey(&scalars, in: text))
                guard scalars.first == "]" else { throw ValueError(description: "--path \(text): expected ']'") }
                scalars = scalars.dropFirst()
            } else if scalars.first == "\"" {
                keys.append(try quotedKey(&scalars, in: text))
            } else {
                let end = scalars.firstIndex { $0 == "." || $0 == "[" } ?? scalars.endIndex
                keys.append(String(String.UnicodeScalarView(scalars[..<end])))
                scalars = scalars[end...]
            }
        }
        return keys
    }

    /// A JSON string literal at the start of `scalars` (which it consumes).
    private static func quotedKey(_ scalars: inout Substring.UnicodeScalarView.SubSequence, in text: String) throws -> String {
        var key = String.UnicodeScalarView()
        scalars = scalars.dropFirst()  // opening quote
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            switch scalar {
            case "\"":
                return String(key)
            case "\\":
                guard let escaped = scalars.first else { break }
                scalars = scalars.dropFirst()
                switch escaped {
                case "n": key.append("\n")
                case "t": key.append("\t")
                case "r": key.append("\r")
                default: key.append(escaped)  // \" \\ \/
                }
            default:
                key.append(scalar)
            }
        }
        throw ValueError(description: "--path \(text): a quoted key is not closed")
    }

    /// `--columns a,b.c`: the column paths, in order.
    package static func columns(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingWhitespace()
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[start...end])
    }
}
