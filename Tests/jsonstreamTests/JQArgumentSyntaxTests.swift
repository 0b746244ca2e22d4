// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import JSONStreamTool

/// `--jq`'s command line read by jq 1.8.2's rules (`CommandLineSyntax+JQ.swift`),
/// as the canonical arguments the option parser then reads. (What jq prints
/// for the same command lines is checked end to end by `JQCommandLineTests`,
/// the `cli-` cases.)
@Suite("--jq's command line, by jq's rules")
struct JQArgumentSyntaxTests {
    static func canonical(_ arguments: [String]) -> [String] {
        CommandLineSyntax.canonicalJQArguments(["--jq"] + arguments)
    }

    @Test("An argument is an option only when a letter or '-' follows its '-'")
    func optionsByJQsRule() {
        #expect(Self.canonical(["-c", "-2 | length", "in.json"]) == ["--jq", "-c", "--", "-2 | length", "in.json"])
        #expect(Self.canonical(["-.a", "-"]) == ["--jq", "--", "-.a", "-"])
        #expect(CommandLineSyntax.isOption("-c") && CommandLineSyntax.isOption("--tab"))
        #expect(!CommandLineSyntax.isOption("-") && !CommandLineSyntax.isOption("-(1,2)"))
        #expect(!CommandLineSyntax.isOption("-1") && !CommandLineSyntax.isOption("x"))
    }

    @Test("-f is a flag: the first argument that is no option is the program's file")
    func fromFileFlag() {
        #expect(Self.canonical(["-cfr", "prog.jq", "in.json"])
                    == ["--jq", "-r", "-c", "--from-file", "prog.jq", "--", "in.json"])
        #expect(Self.canonical(["prog.jq", "-f", "in.json"])
                    == ["--jq", "--from-file", "prog.jq", "--", "in.json"])
    }

    @Test("The last of -c, --tab and --indent wins; -M beats -C")
    func layoutAndColour() {
        #expect(Self.canonical(["--tab", "-c", "."]) == ["--jq", "-c", "--", "."])
        #expect(Self.canonical(["-c", "--indent", "-1", "."]) == ["--jq", "--tab", "--", "."])
        #expect(Self.canonical(["--indent", "0", "."]) == ["--jq", "--indent", "0", "--", "."])
        #expect(Self.canonical(["--indent", "8", "."]) == ["--jq", "--indent", "99", "--", "."])
        #expect(Self.canonical(["-M", "-C", "."]) == ["--jq", "-M", "--", "."])
        #expect(Self.canonical(["-C", "."]) == ["--jq", "-C", "--", "."])
    }

    @Test("The first --arg, --argjson, --rawfile or --slurpfile of a name wins")
    func firstNamedArgumentWins() {
        #expect(Self.canonical(["-n", "--arg", "x", "1", "--argjson", "x", "2", "--arg", "y", "-3", "$x"])
                    == ["--jq", "-n", "--arg", "x", "1", "--arg", "y", "-3", "--", "$x"])
    }

    @Test("--args and --jsonargs: what follows the program is $ARGS.positional")
    func positionalArguments() {
        let option = CommandLineSyntax.positionalArgumentOption
        #expect(Self.canonical(["-n", "$ARGS", "--args", "a", "-1", "--jsonargs", "2"])
                    == ["--jq", "-n", option + "=s:a", option + "=s:-1", option + "=j:2", "--", "$ARGS"])
    }

    @Test("jsonstream's own options keep their values; -L takes its path either way")
    func ownOptions() {
        #expect(Self.canonical(["--threads", "2", "--explain", "-L/lib", "-L", "/lib2", "."])
                    == ["--jq", "--threads", "2", "--explain", "--library-path=/lib", "--library-path", "/lib2",
                        "--", "."])
        #expect(CommandLineSyntax.asksForJQ(["-c", "--jq", "."]) && !CommandLineSyntax.asksForJQ(["--", "--jq"]))
    }
}

/// The bash completion script, fitted to a command without subcommands.
@Suite("Bash completion")
struct BashCompletionTests {
    @Test("Positional arguments complete file names; no implicit help subcommand")
    func filesNotHelp() {
        let script = """
            case "${subcommand}" in
                help)
                    # Offer subcommand argument completions
                    "_jsonstream_${subcommand}"
                    ;;
                *)
                    COMPREPLY+=($(compgen -W 'help' -- "${cur}"))
                    ;;
                esac
            """
        let adjusted = CommandLineSyntax.bashCompletion(adjusting: script)
        #expect(!adjusted.contains("help)") && !adjusted.contains("compgen -W 'help'"))
        #expect(adjusted.contains(#"COMPREPLY+=($(compgen -f -- "${cur}"))"#))
        #expect(adjusted.contains("*)") && adjusted.contains("esac"))
    }
}
