import Foundation

/// Push-style decoding, for bytes that arrive in buffers (a SwiftNIO channel
/// handler, a socket callback): hand each buffer to `feed(_:)` and get back
/// the elements it completed. Same engine, formats and errors as
/// `StreamingJSONDecoder.elements(of:…)`.
///
///     let feed = JSONElementFeed(of: Event.self, format: .jsonLines)
///     for buffer in incoming { for event in try feed.feed(buffer) { handle(event) } }
///     for event in try feed.finish() { handle(event) }   // the rest, or the truncation error
///
/// A decoding error in one element is thrown by the call that reached it; the
/// elements decoded before it in that call are returned by the next call,
/// and the stream goes on. After a syntax error (outside JSON Lines, which
/// resynchronizes at the next line) every later call throws it again, once
/// the elements decoded before it have been returned.
public final class JSONElementFeed<T: Decodable> {
    private let source = _PushSource()
    private var container: _IncrementalUnkeyedContainer
    /// Elements decoded before an error was thrown, returned first next time.
    private var carried: [T] = []
    private var finished = false

    public init(of type: T.Type, decoder: StreamingJSONDecoder = StreamingJSONDecoder(), at path: [String] = [],
                format: JSONStreamFormat = .auto) {
        let options = decoder.options
        let stream = _ElementStream(source: source, mode: format.streamMode(path: path), path: path,
                                    limits: options.limits)
        container = _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options), path: .root)
    }

    /// Parses `bytes` and returns the elements they completed.
    public func feed(_ bytes: some DataProtocol) throws -> [T] {
        precondition(!finished, "JSONElementFeed.feed(_:) called after finish()")
        source.append(bytes)
        return try decodeAvailable()
    }

    /// Ends the input: returns the remaining elements, or throws when the
    /// input is truncated or invalid at its end.
    public func finish() throws -> [T] {
        finished = true
        source.finish()
        return try decodeAvailable()
    }

    private func decodeAvailable() throws -> [T] {
        var elements = carried
        carried = []
        // After an error that ends the stream, decoding would only throw it
        // again and lose these: hand them out, and throw on the next call.
        if !elements.isEmpty, container.decoder.stream.failure != nil { return elements }
        do {
            while case .element(let element) = try container.nextElement(T.self) {
                elements.append(element)
            }
        } catch {
            carried = elements
            throw error
        }
        return elements
    }
}
