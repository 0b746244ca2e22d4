// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The elements of a JSON stream whose bytes come from an `AsyncSequence`:
/// chunks (`Data`, `[UInt8]`, slices, NIO buffers as `DataProtocol`) or single
/// bytes (`URLSession.AsyncBytes`, `FileHandle.bytes`), which are batched.
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: url)
/// for try await event in decoder.elements(of: Event.self, from: bytes) { … }
/// ```
///
/// Each element is delivered as soon as the chunk that completes it arrives.
/// Errors behave as in `JSONElements`. Cancelling the task, or leaving the
/// loop, stops at the next chunk.
///
/// The sequence is as single-pass as `S` is: each iteration makes a new
/// iterator of `S` and a new parser.
public struct AsyncJSONElements<T: Decodable, S: AsyncSequence>: AsyncSequence {
    /// The decoded type.
    public typealias Element = T

    private let chunks: S
    private let options: _DecodingOptions
    private let path: [String]
    private let format: JSONStreamFormat
    /// Moves the next input from the sequence into the source; false at its end.
    private let pull: (inout S.AsyncIterator, _PushSource) async throws -> Bool

    init(chunks: S, options: _DecodingOptions, path: [String], format: JSONStreamFormat,
         pull: @escaping (inout S.AsyncIterator, _PushSource) async throws -> Bool) {
        self.chunks = chunks
        self.options = options
        self.path = path
        self.format = format
        self.pull = pull
    }

    /// Starts an iteration: a new iterator of the underlying sequence and a new parser.
    public func makeAsyncIterator() -> Iterator {
        Iterator(self)
    }

    /// Pulls input from the underlying sequence as elements are asked for.
    public struct Iterator: AsyncIteratorProtocol {
        private var input: S.AsyncIterator
        private let pull: (inout S.AsyncIterator, _PushSource) async throws -> Bool
        private let source = _PushSource()
        private var container: _IncrementalUnkeyedContainer?
        private var finished = false
        /// The error that ended the stream before its end, thrown again by
        /// every later call: the stream never looks as if it had ended.
        private var ending: (any Error)?

        init(_ sequence: AsyncJSONElements) {
            input = sequence.chunks.makeAsyncIterator()
            pull = sequence.pull
            let stream = _ElementStream(source: source, mode: sequence.format.streamMode(path: sequence.path),
                                        path: sequence.path, limits: sequence.options.limits)
            container = _IncrementalUnkeyedContainer(
                decoder: _TapeDecoder(stream: stream, options: sequence.options), path: .root,
                shelvesContainers: true)
        }

        /// The next element, or nil after the last one.
        ///
        /// Reads from the underlying sequence only when the input so far
        /// holds no complete element. Throws `CancellationError` when the
        /// task is cancelled, whatever the underlying sequence throws, and
        /// `DecodingError`s as ``JSONElements/Iterator/next()`` does; an error
        /// that ends the stream before its end is thrown again by every later call.
        public mutating func next() async throws -> T? {
            if let ending { throw ending }
            while !finished, container != nil {
                try Task.checkCancellation()
                do {
                    if let element = try container!.nextElement(T.self) { return element }
                } catch {
                    if container!.decoder.stream.failureThrown {  // the stream cannot go on
                        container = nil
                        ending = error
                    }
                    throw error
                }
                if !container!.needsInput || source.isFinished {
                    container = nil  // the end
                } else if try await !pull(&input, source) {
                    source.finish()
                }
            }
            finished = true
            return nil
        }
    }
}

extension StreamingJSONDecoder {
    /// The elements of a stream whose bytes arrive as an async sequence of
    /// chunks (`Data`, `[UInt8]`, `ArraySlice<UInt8>`… any `DataProtocol`).
    ///
    /// ```swift
    /// let chunks = AsyncStream<[UInt8]> { continuation in … }
    /// for try await beer in decoder.elements(of: Beer.self, from: chunks) { … }
    /// ```
    ///
    /// Chunks may be split anywhere, even inside a token; each element is
    /// delivered as soon as the chunk that completes it has arrived.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - chunks: The input, in chunks of any size.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``.
    public func elements<T: Decodable, S: AsyncSequence>(
        of type: T.Type, from chunks: S, at path: [String] = [], format: JSONStreamFormat = .auto
    ) -> AsyncJSONElements<T, S> where S.Element: DataProtocol {
        AsyncJSONElements(chunks: chunks, options: options, path: path, format: format) { input, source in
            guard let chunk = try await input.next() else { return false }
            source.append(chunk)
            return true
        }
    }

    /// The elements of a stream whose bytes arrive one at a time
    /// (`URLSession.AsyncBytes`, `FileHandle.AsyncBytes`). Bytes are batched,
    /// up to 64 KiB, and handed to the parser whenever one may end an element
    /// (`}` `]` `,` or a line break), so elements are not held back.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// for try await beer in decoder.elements(of: Beer.self, from: bytes) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - bytes: The input, one byte at a time.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``.
    public func elements<T: Decodable, S: AsyncSequence>(
        of type: T.Type, from bytes: S, at path: [String] = [], format: JSONStreamFormat = .auto
    ) -> AsyncJSONElements<T, S> where S.Element == UInt8 {
        AsyncJSONElements(chunks: bytes, options: options, path: path, format: format) { input, source in
            var count = 0
            while let byte = try await input.next() {
                source.append(byte)
                count += 1
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ",")
                    || byte == 0x0A || count >= _ElementStream.chunkSize {
                    return true
                }
            }
            return count > 0
        }
    }
}
