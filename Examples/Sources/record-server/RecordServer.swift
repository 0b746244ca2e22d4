// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird

/// `record-server [--host HOST] [--port PORT] [--output FILE]`
///
/// Serves `POST /records` (a JSON array or JSON Lines of records, read as it
/// arrives) and `GET /records?count=N&format=array|lines` (generated records,
/// written as they are sent). Its first line on standard output is
/// `listening on HOST:PORT`, with the port bound (`--port 0` takes any free one).
@main
struct RecordServer {
    static func main() async {
        let options: ServerOptions
        do {
            options = try ServerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("record-server: \(error)\n\n\(ServerOptions.usage)\n".utf8))
            exit(2)
        }
        if options.showsHelp {
            print(ServerOptions.usage)
            return
        }
        let host = options.host
        let app = Application(
            router: RecordRoutes(output: options.output).router(),
            configuration: .init(address: .hostname(host, port: options.port)),
            onServerRunning: { channel in
                // Unbuffered, and before anything else on stdout: a test reads the port from it.
                let port = channel.localAddress?.port ?? options.port
                FileHandle.standardOutput.write(Data("listening on \(host):\(port)\n".utf8))
            })
        do {
            // Stops gracefully on SIGTERM and SIGINT.
            try await app.runService()
        } catch {
            FileHandle.standardError.write(Data("record-server: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// The command line of `record-server`.
struct ServerOptions {
    static let usage = """
        Usage: record-server [--host HOST] [--port PORT] [--output FILE]

          --host HOST     address to bind (default 127.0.0.1)
          --port PORT     port to bind; 0 takes any free port (default 8080)
          --output FILE   where the accepted records of each upload go, as JSON Lines;
                          each successful upload replaces the file (default: discarded)
        """

    var host = "127.0.0.1"
    var port = 8080
    var output: String?
    var showsHelp = false

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                showsHelp = true
            case "--host":
                host = try Self.value(of: argument, from: &rest)
            case "--port":
                let text = try Self.value(of: argument, from: &rest)
                guard let number = Int(text), (0...65535).contains(number) else {
                    throw Invalid(description: "--port takes a number in 0...65535, not '\(text)'")
                }
                port = number
            case "--output":
                output = try Self.value(of: argument, from: &rest)
            default:
                throw Invalid(description: "unknown argument '\(argument)'")
            }
        }
    }

    private static func value(of option: String, from rest: inout ArraySlice<String>) throws -> String {
        guard let value = rest.popFirst() else { throw Invalid(description: "\(option) needs a value") }
        return value
    }
}
