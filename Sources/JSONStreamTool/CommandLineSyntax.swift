/// The parts of jq's command-line syntax that an argument parser with one
/// value per option does not cover, and the parsing of option values.
package enum CommandLineSyntax {
    /// Options that take two values, as in jq: `--arg NAME VALUE`.
    package static let optionsWithTwoValues: Set<String> = ["--arg", "--argjson", "--rawfile", "--slurpfile", "--split-lines"]

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
