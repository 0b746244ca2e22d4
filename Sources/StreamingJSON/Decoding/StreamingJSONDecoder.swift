import Foundation

/// Decodes JSON into `Decodable` values like Foundation's `JSONDecoder`, but
/// as a stream: a root-level array (or JSON Lines, or the array at a key path)
/// is parsed by yajl a 64 KiB chunk at a time and decoded element by element,
/// so memory is bounded by the largest element, not by the document.
///
///     let decoder = StreamingJSONDecoder()
///     decoder.dateDecodingStrategy = .iso8601
///     for try await beer in decoder.elements(of: Beer.self, contentsOf: dumpURL) { … }
///
/// Like `JSONDecoder`, one instance may be shared between threads: its options
/// are guarded by a lock and copied when a decode starts.
public final class StreamingJSONDecoder: @unchecked Sendable {
    private let lock = NSLock()
    private var _options = _DecodingOptions()

    public init() {}

    private func withLock<R>(_ body: (inout _DecodingOptions) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&_options)
    }

    /// A copy of the current options, taken when a decode or stream starts.
    var options: _DecodingOptions { withLock { $0 } }

    /// How object keys are matched to coding keys. Default `.useDefaultKeys`.
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { withLock { $0.keyDecodingStrategy } }
        set { withLock { $0.keyDecodingStrategy = newValue } }
    }

    /// How dates are read. Default `.deferredToDate`.
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { withLock { $0.dateDecodingStrategy } }
        set { withLock { $0.dateDecodingStrategy = newValue } }
    }

    /// How `Data` is read. Default `.base64`.
    public var dataDecodingStrategy: DataDecodingStrategy {
        get { withLock { $0.dataDecodingStrategy } }
        set { withLock { $0.dataDecodingStrategy = newValue } }
    }

    /// How `"NaN"`-style strings are read as floats. Default `.throw`.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { withLock { $0.nonConformingFloatDecodingStrategy } }
        set { withLock { $0.nonConformingFloatDecodingStrategy = newValue } }
    }

    /// Values handed to every `Decoder` as `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { withLock { $0.userInfo } }
        set { withLock { $0.userInfo = newValue } }
    }

    /// Accept `/* */` and `//` comments. Default `false`.
    public var allowsComments: Bool {
        get { withLock { $0.limits.allowsComments } }
        set { withLock { $0.limits.allowsComments = newValue } }
    }

    /// Deepest nesting of arrays and objects accepted, counted from the root.
    /// Default 512 (Foundation's). yajl has no limit of its own.
    public var maxDepth: Int {
        get { withLock { $0.limits.maxDepth } }
        set { withLock { $0.limits.maxDepth = max(1, newValue) } }
    }

    /// Longest number literal accepted, in characters. Default 1 000.
    public var maxNumberLength: Int {
        get { withLock { $0.limits.maxNumberLength } }
        set { withLock { $0.limits.maxNumberLength = max(1, newValue) } }
    }

    /// Longest string or key accepted, in bytes after unescaping. Default 64 MiB.
    public var maxStringLength: Int {
        get { withLock { $0.limits.maxStringLength } }
        set { withLock { $0.limits.maxStringLength = max(0, newValue) } }
    }

    /// Test hook: when parsing runs on a second thread.
    var pipelining: _Pipelining {
        get { withLock { $0.pipelining } }
        set { withLock { $0.pipelining = newValue } }
    }

    /// Largest single streamed element accepted, in bytes of input; `nil`
    /// (the default) for no limit. A larger element is rejected as soon as it
    /// passes the limit instead of being buffered.
    public var maxElementBytes: Int? {
        get { withLock { $0.limits.maxElementBytes == 0 ? nil : $0.limits.maxElementBytes } }
        set { withLock { $0.limits.maxElementBytes = max(0, newValue ?? 0) } }
    }

    // MARK: Whole documents

    /// Decodes a value from a whole JSON document.
    ///
    /// When the root is an array and `T` reads it through
    /// `decoder.unkeyedContainer()` (as `Array` does), the elements are parsed
    /// on demand, one chunk at a time. The document is validated to its end.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try _decodeDocument(type, source: _DataSource(data), size: data.count)
    }

    /// Decodes a value from a file, read in 64 KiB chunks.
    public func decode<T: Decodable>(_ type: T.Type, contentsOf url: URL) throws -> T {
        let source = try _FileDescriptorSource(url: url)
        return try _decodeDocument(type, source: source, size: source.size)
    }

    /// Decodes a value from everything the handle delivers until its end.
    public func decode<T: Decodable>(_ type: T.Type, from handle: FileHandle) throws -> T {
        try _decodeDocument(type, source: _FileDescriptorSource(handle: handle), size: nil)
    }

    func _decodeDocument<T: Decodable>(_ type: T.Type, source: some _ByteSource, size: Int?) throws -> T {
        let options = self.options
        let stream = options.makeStream(source: source, size: size, mode: .document)
        let decoder = _TapeDecoder(stream: stream, options: options)
        return try decoder.decodeDocument(type)
    }
}
