// SPDX-License-Identifier: Apache-2.0
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
/// Elements and errors come in input order, and none is lost. A call
/// returns the elements decoded before the first error it reached; that
/// error is thrown by the next call (or by this one when it decoded nothing
/// before it), and the call after that goes on with the next element. So
/// after ``finish()`` throws, call it again until it returns an empty array
/// to see the rest. After a syntax error (outside JSON Lines, which
/// resynchronizes at the next line) every call throws it again.
///
/// A feed is not thread-safe: call it from one thread, or one task, at a time.
public final class JSONElementFeed<T: Decodable> {
    private let source = _PushSource()
    private var container: _IncrementalUnkeyedContainer
    /// An error reached after some elements: thrown by the next call.
    private var deferredError: (any Error)?
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
        container = _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options), path: .root,
                                                 shelvesContainers: true)
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
    /// input is truncated or invalid at its end. May be called again: after
    /// it throws an element's error, the next call returns the elements
    /// after that one (an empty array once all is delivered).
    public func finish() throws -> [T] {
        finished = true
        source.finish()
        return try decodeAvailable()
    }

    private func decodeAvailable() throws -> [T] {
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        var elements: [T] = []
        do {
            while let element = try container.nextElement(T.self) {
                elements.append(element)
            }
        } catch {
            if elements.isEmpty { throw error }
            deferredError = error
        }
        return elements
    }
}
