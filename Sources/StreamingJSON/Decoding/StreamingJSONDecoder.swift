// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Decodes JSON into `Decodable` values like Foundation's `JSONDecoder`, but
/// as a stream: a root-level array (or JSON Lines, or the array at a key path)
/// is parsed by yajl a chunk at a time (64 KiB, or 256 KiB on a parsing
/// thread) and decoded element by element, so memory is bounded by the
/// largest element, not by the document.
///
/// ```swift
/// let decoder = StreamingJSONDecoder()
/// decoder.dateDecodingStrategy = .iso8601
///
/// // A whole document, as with JSONDecoder:
/// let beers = try decoder.decode([Beer].self, from: data)
///
/// // A huge file, one element at a time:
/// for try await beer in decoder.elements(of: Beer.self, contentsOf: dumpURL) {
///     print(beer.name)
/// }
/// ```
///
/// The options are `JSONDecoder`'s (``keyDecodingStrategy``,
/// ``dateDecodingStrategy``, ``dataDecodingStrategy``,
/// ``nonConformingFloatDecodingStrategy``, ``userInfo``), plus
/// ``allowsComments`` and the limits that bound what one input may cost:
/// ``maxDepth``, ``maxNumberLength``, ``maxStringLength`` and
/// ``maxElementBytes``. Options are copied when `decode` is called or a
/// stream is created (`elements(of:…)`, ``JSONElementFeed``): changing them
/// later does not affect a stream that already exists.
///
/// Every problem is thrown as a `DecodingError` that says where: invalid JSON
/// and broken limits as `.dataCorrupted` with a ``JSONSyntaxError`` (line,
/// column, byte) as its `underlyingError`; wrong types, missing keys and
/// nulls as Foundation's `.typeMismatch`, `.keyNotFound` and
/// `.valueNotFound`, with the value's line and column in the debug
/// description. Files that cannot be read throw `CocoaError` or
/// `POSIXError`, as Foundation does.
///
/// Like `JSONDecoder`, one instance may be shared between threads: its options
/// are guarded by a lock and copied when a decode starts.
public final class StreamingJSONDecoder: @unchecked Sendable {
    private let lock = NSLock()
    private var _options = _DecodingOptions()

    /// Creates a decoder with Foundation's default strategies, comments not
    /// allowed, and the default limits (``maxDepth`` 512, ``maxNumberLength``
    /// 1 000, ``maxStringLength`` 64 MiB, no ``maxElementBytes``).
    public init() {}

    private func withLock<R>(_ body: (inout _DecodingOptions) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&_options)
    }

    /// A copy of the current options, taken when a decode or stream starts.
    var options: _DecodingOptions { withLock { $0 } }

    /// How object keys are matched to coding keys. Default `.useDefaultKeys`.
    ///
    /// ```swift
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase   // "brewery_name" → breweryName
    /// ```
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { withLock { $0.keyDecodingStrategy } }
        set { withLock { $0.keyDecodingStrategy = newValue } }
    }

    /// How dates are read. Default `.deferredToDate` (seconds since 2001, as
    /// a number, as Foundation's default).
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .iso8601               // "2017-11-13T14:30:15.5Z"
    /// ```
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { withLock { $0.dateDecodingStrategy } }
        set { withLock { $0.dateDecodingStrategy = newValue } }
    }

    /// How `Data` is read. Default `.base64`, as in Foundation.
    public var dataDecodingStrategy: DataDecodingStrategy {
        get { withLock { $0.dataDecodingStrategy } }
        set { withLock { $0.dataDecodingStrategy = newValue } }
    }

    /// How `"NaN"`-style strings are read as floats. Default `.throw`.
    ///
    /// ```swift
    /// decoder.nonConformingFloatDecodingStrategy =
    ///     .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    /// ```
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { withLock { $0.nonConformingFloatDecodingStrategy } }
        set { withLock { $0.nonConformingFloatDecodingStrategy = newValue } }
    }

    /// Values handed to every `Decoder` as `userInfo`.
    ///
    /// The values must be `Sendable`, because the decoder may be shared
    /// between threads; a `Decoder` sees them as `[CodingUserInfoKey: Any]`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { withLock { $0.userInfo } }
        set { withLock { $0.userInfo = newValue } }
    }

    /// Accept `/* */` and `//` comments. Default `false`.
    ///
    /// With `false`, a comment is a syntax error, as in standard JSON. This
    /// is the only relaxation on offer: trailing commas, single quotes and
    /// the rest of JSON5 are always rejected.
    public var allowsComments: Bool {
        get { withLock { $0.limits.allowsComments } }
        set { withLock { $0.limits.allowsComments = newValue } }
    }

    /// Deepest nesting of arrays and objects accepted, counted from the root.
    /// Default 512 (Foundation's). yajl has no limit of its own.
    ///
    /// The bracket that opens one level too many is a syntax error:
    /// `.dataCorrupted` with a ``JSONSyntaxError`` such as
    /// `Nesting deeper than 512 levels (maxDepth) at line 1, column 513 (byte 512)`.
    /// The depth counts from the document's root, not from the streamed
    /// element: an element of the root array starts at depth 2. Values below
    /// 1 are stored as 1.
    public var maxDepth: Int {
        get { withLock { $0.limits.maxDepth } }
        set { withLock { $0.limits.maxDepth = max(1, newValue) } }
    }

    /// Longest number literal accepted, in characters. Default 1 000.
    ///
    /// A longer literal is a syntax error (`Number literal longer than 1000
    /// characters`). It bounds the cost of converting digits: no `Decodable`
    /// number type needs more. Values below 1 are stored as 1.
    public var maxNumberLength: Int {
        get { withLock { $0.limits.maxNumberLength } }
        set { withLock { $0.limits.maxNumberLength = max(1, newValue) } }
    }

    /// Longest string or key accepted, in bytes after unescaping. Default 64 MiB.
    ///
    /// A longer string is a syntax error (`String longer than 67108864 bytes`).
    /// Negative values are stored as 0.
    public var maxStringLength: Int {
        get { withLock { $0.limits.maxStringLength } }
        set { withLock { $0.limits.maxStringLength = max(0, newValue) } }
    }

    /// Test hook: when parsing runs on a second thread.
    var pipelining: _Pipelining {
        get { withLock { $0.pipelining } }
        set { withLock { $0.pipelining = newValue } }
    }

    /// Threads that parse and decode pieces of a large input at once; `nil`
    /// (the default) for one per core on machines with more than two, 1 for
    /// the single parsing thread (on two cores, that thread and the caller's
    /// already share the work, and measured faster than two pieces).
    ///
    /// Used by ``elements(of:contentsOf:at:format:)`` and
    /// ``elements(of:from:at:format:)-(_,Data,_,_)`` for a `Sendable` element
    /// type, when the input is 1 MiB or more and the streamed array is its
    /// root or at a key path (or it is JSON Lines): the input is cut into
    /// pieces at element
    /// boundaries, each decoded on its own thread, and the elements come out
    /// in order, with the same values and the same errors (coding paths,
    /// positions) as from one thread. An element that fails to decode, or a
    /// line that is not JSON, sends the rest of the input through one stream.
    /// With ``allowsComments``, an input is not cut (a comment may hold
    /// what looks like an element boundary).
    public var maxThreads: Int? {
        get { withLock { $0.maxThreads } }
        set { withLock { $0.maxThreads = newValue.map { max(1, $0) } } }
    }

    /// Test hook: the size of those pieces.
    var pieceSize: Int? {
        get { withLock { $0.pieceSize } }
        set { withLock { $0.pieceSize = newValue } }
    }

    /// Test hook: the sixteenths of each batch that the parsing thread
    /// decodes ahead for `Sendable` elements, fixed; nil (the default)
    /// follows the threads' balance (`_DecodeAhead.swift`).
    var decodeAheadShare: Int? {
        get { withLock { $0.decodeAheadShare } }
        set { withLock { $0.decodeAheadShare = newValue.map { min(max($0, 0), 16) } } }
    }

    /// Largest single streamed element accepted, in bytes of input; `nil`
    /// (the default) for no limit. A larger element is rejected as soon as it
    /// passes the limit instead of being buffered.
    ///
    /// The rest of the element is parsed (so it must still be valid JSON) but
    /// not recorded, and decoding it throws `.dataCorrupted` with a
    /// ``JSONSyntaxError`` (`Element larger than 1000 bytes (maxElementBytes)`)
    /// positioned at the element's start. That error belongs to the element,
    /// not to the stream: the next call to `next()` returns the element after
    /// it. In the same way, an object member over the limit in an
    /// `.objectValues` stream is skipped, its key first in the error's coding
    /// path.
    ///
    /// `decode(_:from:)` applies the limit too, to each element of a root
    /// array and to a root that is not an array, with the same error.
    ///
    /// ```swift
    /// decoder.maxElementBytes = 1 << 20      // no element over 1 MiB
    /// ```
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
    ///
    /// ```swift
    /// let beers = try decoder.decode([Beer].self, from: data)
    /// ```
    ///
    /// A custom root type can walk a root array through that incremental
    /// container and keep only what it needs (see <doc:StreamingHugeArrays>).
    /// Elements it leaves unread are parsed and skipped; trailing garbage is
    /// still an error.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: One JSON document (an optional UTF-8 BOM is skipped).
    /// - Throws: `DecodingError`; see <doc:MigratingFromJSONDecoder> for each case.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try _decodeDocument(type, size: data.count, rereadable: true) { _DataSource(data) }
    }

    /// Decodes an array of `Sendable` elements from a whole JSON document:
    /// as ``decode(_:from:)-(T.Type,Data)``, and when a second thread parses
    /// the input (1 MiB or more, more than one core), that thread also
    /// decodes some elements when it would otherwise wait. The elements and
    /// errors are the same, in the same order; `init(from:)` may run on
    /// either thread.
    ///
    /// - Parameters:
    ///   - type: The array type to decode.
    ///   - data: One JSON document whose root is an array.
    /// - Throws: `DecodingError`; see <doc:MigratingFromJSONDecoder> for each case.
    public func decode<Element: Decodable & Sendable>(_ type: [Element].Type, from data: Data) throws -> [Element] {
        try _decodeDocument(type, size: data.count, rereadable: true,
                            decodingAhead: { _AheadDecoder<Element>(options: $0) }) {
            _DataSource(data)
        }
    }

    /// Decodes a value from a file, read in 64 KiB chunks (256 KiB when a
    /// second thread parses it).
    ///
    /// The file is read with `read(2)` into one reused buffer, never mapped
    /// or loaded whole; a root array decoded as `[T]` still ends up in
    /// memory, as the array it returns.
    ///
    /// - Throws: `CocoaError` when the file cannot be opened (`.fileReadNoSuchFile`,
    ///   `.fileReadNoPermission`…) or the URL is not a file URL; `POSIXError`
    ///   when reading fails; otherwise `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, contentsOf url: URL) throws -> T {
        let source = try _FileDescriptorSource(url: url)
        var first: _FileDescriptorSource? = source
        return try _decodeDocument(type, size: source.size, rereadable: true) {
            defer { first = nil }
            return try first ?? _FileDescriptorSource(url: url)
        }
    }

    /// Decodes an array of `Sendable` elements from a file: as
    /// ``decode(_:contentsOf:)-(T.Type,_)``, and for files of 1 MiB or more
    /// on more than one core, the parsing thread also decodes some elements
    /// when it would otherwise wait. The elements and errors are the same,
    /// in the same order; `init(from:)` may run on either thread.
    ///
    /// - Parameters:
    ///   - type: The array type to decode.
    ///   - url: A file URL; the file's root is an array.
    /// - Throws: `CocoaError` or `POSIXError` when the file cannot be read,
    ///   `DecodingError` when its content does not decode.
    public func decode<Element: Decodable & Sendable>(_ type: [Element].Type,
                                                      contentsOf url: URL) throws -> [Element] {
        let source = try _FileDescriptorSource(url: url)
        var first: _FileDescriptorSource? = source
        return try _decodeDocument(type, size: source.size, rereadable: true,
                                   decodingAhead: { _AheadDecoder<Element>(options: $0) }) {
            defer { first = nil }
            return try first ?? _FileDescriptorSource(url: url)
        }
    }

    /// Decodes a value from everything the handle delivers until its end.
    ///
    /// Reads the handle's file descriptor with `read(2)` from its current
    /// offset; the handle is not closed.
    public func decode<T: Decodable>(_ type: T.Type, from handle: FileHandle) throws -> T {
        try _decodeDocument(type, size: nil, rereadable: false) { _FileDescriptorSource(handle: handle) }
    }

    /// Documents from this size on (or of unknown size) reuse keyed containers.
    static let shelfThreshold = 64 * 1024

    /// Decodes the document `open` reads. A root type whose `init(from:)`
    /// walks a streamed root array twice (which `JSONDecoder` allows) finds
    /// the elements of the first pass dropped; for `rereadable` input the
    /// document is then read again from the start, every element kept.
    func _decodeDocument<T: Decodable>(_ type: T.Type, size: Int?, rereadable: Bool,
                                        decodingAhead: ((_DecodingOptions) -> any _DecodingAhead)? = nil,
                                        open: () throws -> any _ByteSource) throws -> T {
        let options = self.options
        let stream = options.makeStream(source: try open(), size: size, mode: .document,
                                        decodingAhead: decodingAhead?(options))
        do {
            return try decodeDocument(type, from: stream, size: size)
        } catch where rereadable && stream.askedForDroppedElement {
            let again = options.makeStream(source: try open(), size: size, mode: .document)
            again.keepsEveryElement = true
            return try decodeDocument(type, from: again, size: size)
        }
    }

    private func decodeDocument<T: Decodable>(_ type: T.Type, from stream: _ElementStream, size: Int?) throws -> T {
        let decoder = _TapeDecoder(stream: stream, options: options)
        // A small document repeats few containers: setting up a shelf for it
        // (and shelving each container type once) costs more than it saves.
        guard (size ?? Int.max) >= Self.shelfThreshold else { return try decoder.decodeDocument(type, inputSize: size) }
        let shelfScope = decoder.shelfScope()
        return try withExtendedLifetime(shelfScope) { try decoder.decodeDocument(type, inputSize: size) }
    }
}
