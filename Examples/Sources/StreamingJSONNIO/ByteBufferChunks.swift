// SPDX-License-Identifier: Apache-2.0
import NIOCore
import NIOFoundationCompat
import StreamingJSON

/// The readable bytes of each `ByteBuffer` of an async sequence, as the
/// `DataProtocol` chunks that `StreamingJSONDecoder.elements(of:from:)` reads.
///
/// Hummingbird's `RequestBody` and AsyncHTTPClient's `HTTPClientResponse.Body`
/// are async sequences of `ByteBuffer`; `ByteBuffer` itself is not a
/// `DataProtocol`, but its `readableBytesView` is (through
/// `NIOFoundationCompat`). A view shares the buffer's storage, so no chunk is
/// copied into a `Data` on the way: the decoder's own input buffer is the
/// only copy.
///
/// ```swift
/// for try await record in decoder.elements(of: Record.self, from: request.body.jsonChunks) { … }
/// ```
///
/// Iterating pulls one buffer from the base sequence per chunk, so the
/// base's back-pressure (a server's socket reads, a client's response
/// stream) is preserved: nothing is read ahead of the decoder.
public struct ByteBufferChunks<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    /// A view of one buffer's readable bytes.
    public typealias Element = ByteBufferView

    private let base: Base

    /// The chunks of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// An iterator over the base sequence's buffers.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Pulls the next buffer and hands out its readable bytes.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator

        init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next buffer's readable bytes, or nil at the end of the base sequence.
        public mutating func next() async throws -> ByteBufferView? {
            try await base.next()?.readableBytesView
        }
    }
}

extension ByteBufferChunks: Sendable where Base: Sendable {}

extension AsyncSequence where Element == ByteBuffer {
    /// This sequence's buffers as `DataProtocol` chunks for
    /// `StreamingJSONDecoder.elements(of:from:)`, without copying them.
    public var jsonChunks: ByteBufferChunks<Self> {
        ByteBufferChunks(self)
    }
}

extension StreamingJSONDecoder {
    /// The elements of a JSON stream whose bytes arrive as NIO buffers: a
    /// Hummingbird request body, an AsyncHTTPClient response body.
    ///
    /// ```swift
    /// let response = try await client.execute(request, timeout: .minutes(5))
    /// for try await record in decoder.elements(of: Record.self, from: response.body) { … }
    /// ```
    ///
    /// The same as `elements(of:from:at:format:)` on `buffers.jsonChunks`.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - buffers: The input, in buffers of any size, split anywhere.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream (`.auto`, `.array`, `.jsonLines`…).
    public func elements<T: Decodable, S: AsyncSequence>(
        of type: T.Type, from buffers: S, at path: [String] = [], format: JSONStreamFormat = .auto
    ) -> AsyncJSONElements<T, ByteBufferChunks<S>> where S.Element == ByteBuffer {
        elements(of: type, from: buffers.jsonChunks, at: path, format: format)
    }
}
