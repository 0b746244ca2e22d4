// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The elements of a JSON stream, decoded one at a time.
///
/// Returned by `StreamingJSONDecoder.elements(of:…)` for `Data`, a file URL
/// or a `FileHandle`. Three ways to iterate, all pulling one element at a time:
///
/// ```swift
/// // async: for try await
/// for try await beer in decoder.elements(of: Beer.self, contentsOf: url) { … }
///
/// // sync: the iterator's next() does not need a task
/// var iterator = decoder.elements(of: Beer.self, contentsOf: url).makeIterator()
/// while let beer = try iterator.next() { … }
/// // (inside an async function, Swift picks the async requirement instead:
/// // `try await iterator.next()`, the same code)
///
/// // sync, with a closure
/// try decoder.elements(of: Beer.self, contentsOf: url).forEach { beer in … }
/// ```
///
/// The `AsyncSequence` operators (`filter`, `map`, `prefix`, `reduce`…) work
/// as on any async sequence and keep memory bounded, as long as what they
/// collect is.
///
/// An error in one element (a missing key, a wrong type, or invalid JSON) is
/// thrown by that `next()`; the following call returns the next element.
/// When the rest cannot be read, the error says so (``JSONSyntaxError/endsStream``)
/// and every later call throws it again. Over `Data` or a URL, each iteration
/// starts again from the beginning; over a `FileHandle` (a pipe, stdin) the
/// sequence is single-pass.
public struct JSONElements<T: Decodable>: AsyncSequence {
    /// The decoded type.
    public typealias Element = T
    /// The same iterator serves `for try await` and synchronous pulls.
    public typealias AsyncIterator = Iterator

    /// Opens the input for one iteration.
    private let open: () throws -> _OpenedInput
    private let options: _DecodingOptions
    private let path: [String]
    private let format: JSONStreamFormat
    /// Makes the parsing thread's decoder, for `Sendable` elements (`_DecodeAhead.swift`).
    private let decodingAhead: ((_DecodingOptions) -> any _DecodingAhead)?
    /// Makes the decoder of pieces on several threads, for `Sendable`
    /// elements (`_PieceDecoder.swift`); it returns nil for an input not for pieces.
    private let decodingPieces: PiecesFactory?

    typealias PiecesFactory = (any _ByteSource, Int?, JSONStreamFormat, [String], _DecodingOptions)
        -> (any _PieceDecoding)?

    init(options: _DecodingOptions, path: [String], format: JSONStreamFormat,
         decodingAhead: ((_DecodingOptions) -> any _DecodingAhead)? = nil,
         decodingPieces: PiecesFactory? = nil,
         open: @escaping () throws -> _OpenedInput) {
        self.options = options
        self.path = path
        self.format = format
        self.decodingAhead = decodingAhead
        self.decodingPieces = decodingPieces
        self.open = open
    }

    /// Opens the input and the container that reads it: a whole input in
    /// the sequence's format, or a piece of a plan as it says.
    fileprivate func openContainer() throws -> _IncrementalUnkeyedContainer {
        let input = try open()
        let stream: _ElementStream
        if let piece = input.piece {
            stream = _ElementStream(source: input.source, mode: piece.mode, path: piece.path, limits: options.limits,
                                    origin: piece.origin)
        } else {
            stream = options.makeStream(source: input.source, size: input.size, mode: format.streamMode(path: path),
                                        path: path, decodingAhead: decodingAhead?(options))
        }
        stream.keepsPreviousElement = false  // nothing here looks back
        return _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options), path: .root,
                                            shelvesContainers: true, pathIndexBase: input.piece?.firstIndex ?? 0)
    }

    /// A new pass over the elements. The source is opened at the first `next()`,
    /// which also throws any system error (a missing file).
    public func makeIterator() -> Iterator {
        Iterator(elements: self)
    }

    /// The iterator `for try await` uses: the same as ``makeIterator()``.
    public func makeAsyncIterator() -> Iterator {
        makeIterator()
    }

    /// Calls `body` with each element in turn.
    ///
    /// Stops at the first error, thrown by the stream or by `body`: unlike a
    /// loop over ``Iterator/next()``, it does not go on after an element that
    /// fails to decode.
    public func forEach(_ body: (T) throws -> Void) throws {
        var iterator = makeIterator()
        while let element = try iterator.next() {
            try body(element)
        }
    }

    /// Pulls elements one at a time. `next()` is synchronous; it also serves
    /// `for try await`, checking for task cancellation before each read.
    public struct Iterator: AsyncIteratorProtocol {
        private let elements: JSONElements
        private var container: _IncrementalUnkeyedContainer?
        private var finished = false
        /// The error that ended the stream before its end (a syntax error
        /// with no element after it, a read error), thrown again by every
        /// later call: the stream never looks as if it had ended.
        private var ending: (any Error)?
        /// Decoding pieces on several threads, until it hands over a container.
        private var pieces: (any _PieceDecoding)?
        /// The elements of the piece being handed out.
        private var batch: [T] = []
        private var batchIndex = 0

        init(elements: JSONElements) {
            self.elements = elements
        }

        /// The next element, or nil after the last one.
        ///
        /// Throws a `DecodingError` for an element that does not decode or
        /// does not parse: the following call returns the next element (after
        /// a syntax error, an array goes on at the next element, JSON Lines at
        /// the next line; the error's `JSONSyntaxError` says how many bytes
        /// were passed over). When the rest of the input cannot be read (it
        /// ends inside a value, or no element can be found after the
        /// damage), the error's `JSONSyntaxError/endsStream` is true and every
        /// later call throws it again: the stream never ends as if it had
        /// been read whole. A system error opening or reading the source
        /// (`CocoaError`, `POSIXError`) is thrown as it comes, and again by
        /// every later call.
        public mutating func next() throws -> T? {
            if let ending { throw ending }
            if finished { return nil }
            if batchIndex < batch.count {
                defer { batchIndex += 1 }
                return batch[batchIndex]
            }
            if pieces != nil || (container == nil && startPieces()) { return try nextFromPieces() }
            return try nextFromContainer()
        }

        /// The next element from the one stream (`container`), opened on the first call.
        private mutating func nextFromContainer() throws -> T? {
            if container == nil {
                do {
                    container = try elements.openContainer()
                } catch {
                    finished = true
                    ending = error
                    throw error
                }
            }
            do {
                defer {
                    if container!.returnedNil {  // the end (pulled sources never need input)
                        finished = true
                        container = nil  // release the file and the parser
                    }
                }
                // Returned as it comes: a local `T?` would cost a run-time
                // metadata look-up per element.
                return try container!.nextElement(T.self)
            } catch {
                if container!.decoder.stream.failureThrown {
                    // Syntax or read error: the stream cannot go on. (An element
                    // that failed to decode before it does not end the stream:
                    // the elements after it, then the failure, still come.)
                    finished = true
                    container = nil
                    ending = error
                }
                throw error
            }
        }

        /// Starts decoding pieces when the elements are `Sendable` and the
        /// input is for pieces. (The source is opened again for one stream
        /// when the input turns out too small or not an array: the factory
        /// may have read from it. Without threads for pieces, as by default
        /// on two cores, it is not opened here at all.)
        private mutating func startPieces() -> Bool {
            guard let factory = elements.decodingPieces,
                  elements.options.pieceThreads(path: elements.path, format: elements.format) != nil,
                  let input = try? elements.open() else { return false }
            pieces = factory(input.source, input.size, elements.format, elements.path, elements.options)
            return pieces != nil
        }

        /// The next element from the pieces, or from the container they
        /// handed over to; nil at the end. (No local `T?` here or in `next()`:
        /// each would cost a run-time metadata look-up per element.)
        @inline(never)
        private mutating func nextFromPieces() throws -> T? {
            while let decoder = pieces {
                let step: _PieceDecodingStep
                do {
                    step = try decoder.next()
                } catch {
                    finished = true
                    pieces = nil
                    ending = error
                    throw error
                }
                switch step {
                case .elements(let any):
                    batch = any as! [T]  // one cast per piece
                    batchIndex = 0
                    if !batch.isEmpty {
                        batchIndex = 1
                        return batch[0]
                    }
                case .rest(let rest):
                    container = rest
                    pieces = nil
                    batch = []
                    return try nextFromContainer()
                case .end:
                    finished = true
                    pieces = nil
                    batch = []
                }
            }
            return nil
        }
    }
}

extension StreamingJSONDecoder {
    /// The elements of the array (or other stream shape, see `format`) in `data`.
    ///
    /// ```swift
    /// let data = Data(#"[{"name":"Oak","abv":9.5},{"name":"Pils","abv":4.8}]"#.utf8)
    /// for try await beer in decoder.elements(of: Beer.self, from: data) {
    ///     print(beer.name)
    /// }
    /// ```
    ///
    /// Each iteration starts again from the beginning of `data`. As with
    /// files, 1 MiB or more is parsed on a second thread, which for a
    /// `Sendable` `T` also decodes some elements.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - data: The input.
    ///   - path: Object keys leading from the root to the array (or object)
    ///     to stream, `["data", "items"]` for `{"data":{"items":[…]}}`;
    ///     empty for the root. Keys around the path may come in any order;
    ///     everything outside it is parsed and validated but not kept.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``.
    public func elements<T: Decodable>(of type: T.Type, from data: Data, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format, open: Self.source(data))
    }

    /// The elements of a file, read through one reused 64 KiB buffer.
    ///
    /// ```swift
    /// for try await beer in decoder.elements(of: Beer.self, contentsOf: dumpURL) {
    ///     print(beer.name)
    /// }
    /// ```
    ///
    /// The file is opened at the first `next()` of each iteration (which
    /// throws `CocoaError` if it cannot be) and closed when the iteration
    /// ends or its iterator is dropped. Each iteration reads the file again.
    /// Files of 1 MiB or more are parsed on a second thread when the machine
    /// has more than one core. For a `Sendable` `T`, that thread also decodes
    /// some elements when it would otherwise wait (see <doc:StreamingHugeArrays>):
    /// the elements and errors are the same, in the same order, but `init(from:)`
    /// may run on either thread.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - url: A file URL.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``.
    public func elements<T: Decodable>(of type: T.Type, contentsOf url: URL, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format, open: Self.source(contentsOf: url))
    }

    /// The elements arriving on a file handle (a file, a pipe, stdin), each
    /// delivered as soon as its last byte has been read. Single-pass.
    ///
    /// ```swift
    /// var events = decoder.elements(of: Event.self, from: FileHandle.standardInput,
    ///                               format: .jsonLines).makeIterator()
    /// while let event = try events.next() { handle(event) }
    /// ```
    ///
    /// The handle's descriptor is read with `read(2)`, which returns what is
    /// available, so an element is decoded as soon as it is complete even if
    /// the writer at the other end of a pipe pauses. The handle is not closed.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - handle: An open handle, read from its current position.
    ///   - path: Object keys leading to the array (or object) to stream;
    ///     empty for the root.
    ///   - format: The shape of the stream; see ``JSONStreamFormat``.
    public func elements<T: Decodable>(of type: T.Type, from handle: FileHandle, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format) { _OpenedInput(source: _FileDescriptorSource(handle: handle)) }
    }
}

// MARK: - Sendable elements

// For a `Sendable` element type Swift picks these overloads (more
// constrained) over the ones above: the same sequences, whose parsing
// thread may also decode some elements (`_DecodeAhead.swift`). They are the
// documented functions above as far as callers can tell, so they are left
// out of the documentation. (A `FileHandle`'s size is not known, so it is
// never parsed on a second thread and needs no such overload.)
extension StreamingJSONDecoder {
    /// ``elements(of:from:at:format:)-(_,Data,_,_)`` for a `Sendable` type:
    /// a large input's parsing thread may decode some elements too.
    @_documentation(visibility: internal)
    public func elements<T: Decodable & Sendable>(of type: T.Type, from data: Data, at path: [String] = [],
                                                  format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format, decodingAhead: { _AheadDecoder<T>(options: $0) },
                     decodingPieces: Self.pieces(T.self), open: Self.source(data))
    }

    /// ``elements(of:contentsOf:at:format:)`` for a `Sendable` type: a large
    /// file's parsing thread may decode some elements too.
    @_documentation(visibility: internal)
    public func elements<T: Decodable & Sendable>(of type: T.Type, contentsOf url: URL, at path: [String] = [],
                                                  format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format, decodingAhead: { _AheadDecoder<T>(options: $0) },
                     decodingPieces: Self.pieces(T.self), open: Self.source(contentsOf: url))
    }

    /// Makes the decoder of pieces on several threads (`_PieceDecoder.swift`).
    private static func pieces<T: Decodable & Sendable>(_ type: T.Type) -> JSONElements<T>.PiecesFactory {
        { source, size, format, path, options in
            _PieceDecoder<T>(source: source, size: size, format: format, path: path, options: options)
        }
    }

    /// Opens `data` for an iteration, with its size.
    private static func source(_ data: Data) -> () throws -> _OpenedInput {
        { _OpenedInput(source: _DataSource(data), size: data.count) }
    }

    /// Opens the file for an iteration (throwing `CocoaError` if it cannot), with its size.
    private static func source(contentsOf url: URL) -> () throws -> _OpenedInput {
        {
            let source = try _FileDescriptorSource(url: url)
            return _OpenedInput(source: source, size: source.size)
        }
    }
}

/// An input opened for one iteration of `JSONElements`.
struct _OpenedInput {
    let source: any _ByteSource
    /// Its size in bytes, when known.
    var size: Int?
    /// Set for a piece of a plan (`JSONPiece+Reading.swift`): how its bytes are read.
    var piece: _PieceLayout?
}
