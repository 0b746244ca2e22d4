// SPDX-License-Identifier: Apache-2.0
import NIOCore
import Synchronization

/// A JSON array, or JSON Lines, of `SampleRecords` generated as it is read,
/// in buffers of about 64 KiB: an upload body (AsyncHTTPClient's
/// `HTTPClientRequest.Body.stream`) or a response body (Hummingbird's
/// `ResponseBody(asyncSequence:)`) of any size in constant memory.
///
/// ```swift
/// let stream = RecordStream(format: .lines, limit: .bytes(1 << 30))
/// request.body = .stream(stream, length: .unknown)
/// // … after the upload:
/// stream.tally.counts  // records written, and how many of them are invalid
/// ```
public struct RecordStream: AsyncSequence, Sendable {
    /// How the records are laid out.
    public enum Format: String, Sendable, CaseIterable {
        /// `[` records separated by `,` and line breaks `]`.
        case array
        /// One record per line.
        case lines
    }

    /// When the stream ends.
    public enum Limit: Sendable, Hashable {
        /// After this many records.
        case records(Int)
        /// After the record that brings the stream to at least this many bytes.
        case bytes(Int)
    }

    /// A buffer of records.
    public typealias Element = ByteBuffer

    /// The layout of the stream.
    public let format: Format
    /// When it ends.
    public let limit: Limit
    /// What has been generated, counted as it is: read it once the stream
    /// has been consumed. Every iteration adds to it.
    public let tally = RecordTally()
    private let chunkSize: Int

    /// A stream of records `1...` in `format`, ending at `limit`.
    ///
    /// - Parameter chunkSize: The size each buffer reaches before it is handed out.
    public init(format: Format, limit: Limit, chunkSize: Int = 64 * 1024) {
        self.format = format
        self.limit = limit
        self.chunkSize = chunkSize
    }

    /// Starts from record 1 again.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Builds one buffer at a time, as it is asked for.
    public struct Iterator: AsyncIteratorProtocol {
        private let stream: RecordStream
        private let allocator = ByteBufferAllocator()
        private var next = 1
        /// Bytes in the buffers handed out before the current one.
        private var bytesBefore = 0
        private var started = false
        private var finished = false

        init(stream: RecordStream) {
            self.stream = stream
        }

        /// The next buffer, or nil after the last.
        public mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            var buffer = allocator.buffer(capacity: stream.chunkSize + 1024)
            if !started {
                started = true
                if stream.format == .array { buffer.writeStaticString("[") }
            }
            var records = 0
            var invalid = 0
            while buffer.readableBytes < stream.chunkSize, !isAtLimit(buffer) {
                if stream.format == .array { buffer.writeStaticString(next == 1 ? "\n" : ",\n") }
                SampleRecords.write(next, to: &buffer)
                if stream.format == .lines { buffer.writeStaticString("\n") }
                if SampleRecords.defect(next) != nil { invalid += 1 }
                records += 1
                next += 1
            }
            if isAtLimit(buffer) {
                finished = true
                if stream.format == .array { buffer.writeStaticString(next == 1 ? "]\n" : "\n]\n") }
            }
            bytesBefore += buffer.readableBytes
            stream.tally.add(records: records, invalid: invalid, bytes: buffer.readableBytes)
            return buffer
        }

        /// Whether the records so far, with those in `buffer`, reach the limit.
        private func isAtLimit(_ buffer: ByteBuffer) -> Bool {
            switch stream.limit {
            case .records(let count): return next > count
            case .bytes(let count): return bytesBefore + buffer.readableBytes >= count
            }
        }
    }
}

/// Counts of what a `RecordStream` generated, safe to read from any task.
public final class RecordTally: Sendable {
    /// The counts at one moment.
    public struct Counts: Sendable, Hashable {
        /// Records written.
        public var records = 0
        /// Of them, the ones with a `SampleRecords.defect`.
        public var invalid = 0
        /// Bytes handed out.
        public var bytes = 0
        /// Records without a defect.
        public var valid: Int { records - invalid }
    }

    private let state = Mutex(Counts())

    /// An empty tally.
    public init() {}

    /// The counts so far.
    public var counts: Counts {
        state.withLock { $0 }
    }

    func add(records: Int, invalid: Int, bytes: Int) {
        state.withLock {
            $0.records += records
            $0.invalid += invalid
            $0.bytes += bytes
        }
    }
}
