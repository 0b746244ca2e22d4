// SPDX-License-Identifier: Apache-2.0
import RecordKit
import StreamingJSON

/// The command line of `record-client`.
struct ClientOptions {
    static let usage = """
        Usage: record-client get URL [--format auto|array|lines]
               record-client post URL (--file FILE | --generate COUNT | --generate-bytes BYTES)
                                      [--format array|lines]

          get    decodes the records of the response as they arrive, and counts them
          post   uploads FILE, or generated records (three in fifty invalid), as a
                 streamed request body, and prints the server's answer

        Example: record-client post http://127.0.0.1:8080/records --generate-bytes 1073741824
                 record-client get 'http://127.0.0.1:8080/records?count=1000000'
        """

    enum Command: String {
        case get, post
    }

    var command: Command?
    var url = ""
    var file: String?
    var limit = RecordStream.Limit.records(1000)
    private var generates = false
    private var formatName: String?

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// The format the decoder expects (`get`).
    var format: JSONStreamFormat {
        switch formatName {
        case "array": return .array
        case "lines": return .jsonLines
        default: return .auto
        }
    }

    /// The layout of generated records (`post`).
    var generatedFormat: RecordStream.Format {
        formatName == "lines" ? .lines : .array
    }

    init(arguments: [String]) throws {
        var rest = arguments[...]
        guard let first = rest.popFirst(), first != "-h", first != "--help" else { return }
        guard let command = Command(rawValue: first) else { throw Invalid(description: "unknown command '\(first)'") }
        guard let url = rest.popFirst() else { throw Invalid(description: "\(first) needs a URL") }
        self.command = command
        self.url = url
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(option) needs a value") }
            try apply(option, value)
        }
        if command == .post, file == nil, !generates {
            throw Invalid(description: "post needs --file, --generate or --generate-bytes")
        }
    }

    private mutating func apply(_ option: String, _ value: String) throws {
        switch option {
        case "--format":
            guard ["auto", "array", "lines"].contains(value) else {
                throw Invalid(description: "--format takes auto, array or lines")
            }
            formatName = value
        case "--file" where command == .post:
            file = value
        case "--generate" where command == .post, "--generate-bytes" where command == .post:
            guard let count = Int(value), count >= 0 else { throw Invalid(description: "\(option) takes a count") }
            limit = option == "--generate" ? .records(count) : .bytes(count)
            generates = true
        default:
            throw Invalid(description: "unknown option '\(option)' for \(command?.rawValue ?? "")")
        }
    }
}
