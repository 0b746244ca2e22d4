// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Encodes `Encodable` values as JSON with the options and, with
/// `.sortedKeys`, the exact bytes of Foundation's `JSONEncoder`.
///
/// ```swift
/// let encoder = StreamingJSONEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// encoder.dateEncodingStrategy = .iso8601
/// let data = try encoder.encode(beer)
/// ```
///
/// For output too large to build in memory, write it element by element with
/// ``JSONStreamWriter``, or straight to a file with ``encode(_:to:)``.
///
/// Like `JSONEncoder`, one instance may be shared between threads: its options
/// are guarded by a lock and copied when an encode starts.
public final class StreamingJSONEncoder: @unchecked Sendable {
    private let lock = NSLock()
    private var _options = _EncodingOptions()

    /// Creates an encoder with Foundation's defaults: compact output,
    /// `.deferredToDate`, `.base64` data, `.throw` for non-finite floats.
    public init() {}

    private func withLock<R>(_ body: (inout _EncodingOptions) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&_options)
    }

    /// A copy of the current options, taken when an encode or a writer starts.
    var options: _EncodingOptions { withLock { $0 } }

    /// Layout of the output. Default: compact, keys in encoding order.
    ///
    /// ```swift
    /// encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    /// ```
    public var outputFormatting: OutputFormatting {
        get { withLock { $0.outputFormatting } }
        set { withLock { $0.outputFormatting = newValue } }
    }

    /// How coding keys are spelled in the output. Default `.useDefaultKeys`.
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { withLock { $0.keyEncodingStrategy } }
        set { withLock { $0.keyEncodingStrategy = newValue } }
    }

    /// How dates are written. Default `.deferredToDate`.
    public var dateEncodingStrategy: DateEncodingStrategy {
        get { withLock { $0.dateEncodingStrategy } }
        set { withLock { $0.dateEncodingStrategy = newValue } }
    }

    /// How `Data` is written. Default `.base64`.
    public var dataEncodingStrategy: DataEncodingStrategy {
        get { withLock { $0.dataEncodingStrategy } }
        set { withLock { $0.dataEncodingStrategy = newValue } }
    }

    /// How NaN and the infinities are written. Default `.throw`.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
        get { withLock { $0.nonConformingFloatEncodingStrategy } }
        set { withLock { $0.nonConformingFloatEncodingStrategy = newValue } }
    }

    /// Values handed to every `Encoder` as `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { withLock { $0.userInfo } }
        set { withLock { $0.userInfo = newValue } }
    }

    /// Tests: encode every value through the node tape instead of writing
    /// it directly, to compare the two paths byte for byte.
    var _forcesTape: Bool {
        get { withLock { $0.forcesTape } }
        set { withLock { $0.forcesTape = newValue } }
    }

    /// Encodes a value as one JSON document.
    ///
    /// ```swift
    /// let data = try StreamingJSONEncoder().encode(["name": "Oak"])   // {"name":"Oak"}
    /// ```
    ///
    /// Throws `EncodingError.invalidValue` for NaN or an infinity under
    /// `.throw`, for a value that encodes nothing, and for nesting deeper
    /// than 512 arrays and objects.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let output = _JSONOutput(capacity: 4096)
        var writer = _ValueWriter(options: options, output: output)
        try writer.writeDocument(value)
        return output.takeData()
    }

    /// Encodes a value as one JSON document and writes it to `handle` with
    /// `write(2)`, in 256 KiB writes as the output is produced.
    ///
    /// A root-level array is encoded and written one element at a time, in
    /// constant memory; an encoding error then stops the output after the
    /// elements before it. Any other value is encoded completely before the
    /// first byte is written. A failed write (a closed
    /// pipe, a full disk) throws a `POSIXError`; a process that wants that
    /// error rather than being killed by `SIGPIPE` must ignore the signal.
    public func encode<T: Encodable>(_ value: T, to handle: FileHandle) throws {
        let output = _JSONOutput(sink: _FileSink(descriptor: handle.fileDescriptor))
        var writer = _ValueWriter(options: options, output: output)
        try writer.writeDocument(value)
        try output.flush()
    }
}
