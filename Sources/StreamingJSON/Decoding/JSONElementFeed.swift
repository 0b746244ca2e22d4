import Foundation

/// Push-style decoding, for bytes that arrive in buffers (a SwiftNIO channel
/// handler, a socket callback): hand each buffer to `feed(_:)` and get back
/// the elements it completed. Same engine, formats and errors as
/// `StreamingJSONDecoder.elements(of:…)`.
///
/// ```swift
/// let feed = JSONElementFeed(of: Event.self, format: .jsonLines)
/// for buffer in incoming {
///     for event in try feed.feed(buffer) { handle(event) }
/// }
/// for event in try feed.finish() { handle(event) }   // the rest, or the truncation error
/// ```
///
/// A decoding error in one element is thrown by the call that reached it; the
/// elements decoded before it in that call are returned by the next call,
/// and the stream goes on. After a syntax error (outside JSON Lines, which
/// resynchronizes at the next line) every call throws it again.
///
/// A feed is not thread-safe: call it from one thread, or one task, at a time.
public final class JSONElementFeed<T: Decodable> {
    private let source = _PushSource()
    private var container: _IncrementalUnkeyedContainer
    /// Elements decoded before an error was thrown, returned first next time.
    private var carried: [T] = []
    private var finished = false

    /// Creates a feed for elements of `type`.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - decoder: Where the options and limits come from; they are copied now.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``. With
    ///     `.auto` the first non-whitespace byte decides, as for the other sources.
    public init(of type: T.Type, decoder: StreamingJSONDecoder = StreamingJSONDecoder(), at path: [String] = [],
                format: JSONStreamFormat = .auto) {
        let options = decoder.options
        let stream = _ElementStream(source: source, mode: format.streamMode(path: path), path: path,
                                    limits: options.limits)
        container = _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options), path: .root)
    }

    /// Parses `bytes` and returns the elements they completed.
    ///
    /// The bytes may end anywhere, even inside a token; an element that they
    /// start but do not finish is returned by a later call. Must not be
    /// called after ``finish()``.
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
