import Foundation

/// The elements of a JSON stream, decoded one at a time.
///
/// Two ways to iterate, both pulling one element at a time:
///
///     // async: for try await
///     for try await beer in decoder.elements(of: Beer.self, contentsOf: url) { … }
///
///     // sync: the iterator's next() does not need a task
///     var iterator = decoder.elements(of: Beer.self, contentsOf: url).makeIterator()
///     while let beer = try iterator.next() { … }
///
/// A decoding error in one element (a missing key, a wrong type) is thrown
/// by that `next()`; the following call returns the next element. A syntax
/// error in an array ends the stream. Over `Data` or a URL, each iteration
/// starts again from the beginning; over a `FileHandle` (a pipe, stdin) the
/// sequence is single-pass.
public struct JSONElements<T: Decodable>: AsyncSequence {
    public typealias Element = T
    public typealias AsyncIterator = Iterator

    /// Opens the source; returns it with its size when known.
    private let openSource: () throws -> (any _ByteSource, Int?)
    private let options: _DecodingOptions
    private let path: [String]
    private let format: JSONStreamFormat

    init(options: _DecodingOptions, path: [String], format: JSONStreamFormat,
         openSource: @escaping () throws -> (any _ByteSource, Int?)) {
        self.options = options
        self.path = path
        self.format = format
        self.openSource = openSource
    }

    /// A new pass over the elements. The source is opened at the first `next()`,
    /// which also throws any system error (a missing file).
    public func makeIterator() -> Iterator {
        Iterator(elements: self)
    }

    public func makeAsyncIterator() -> Iterator {
        makeIterator()
    }

    /// Calls `body` with each element in turn.
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

        init(elements: JSONElements) {
            self.elements = elements
        }

        /// The next element, or nil after the last one.
        public mutating func next() throws -> T? {
            if finished { return nil }
            if container == nil {
                do {
                    let (source, size) = try elements.openSource()
                    let stream = elements.options.makeStream(source: source, size: size,
                                                             mode: elements.format.streamMode(path: elements.path),
                                                             path: elements.path)
                    stream.keepsPreviousElement = false  // nothing here looks back
                    container = _IncrementalUnkeyedContainer(
                        decoder: _TapeDecoder(stream: stream, options: elements.options), path: .root)
                } catch {
                    finished = true
                    throw error
                }
            }
            do {
                switch try container!.nextElement(T.self) {
                case .element(let element):
                    return element
                case .end, .needsInput:  // pulled sources never need input
                    finished = true
                    container = nil  // release the file and the parser
                    return nil
                }
            } catch {
                if container!.decoder.stream.failure != nil {
                    // Syntax or read error: the stream cannot go on.
                    finished = true
                    container = nil
                }
                throw error
            }
        }
    }
}

extension StreamingJSONDecoder {
    /// The elements of the array (or other stream shape, see `format`) in `data`.
    public func elements<T: Decodable>(of type: T.Type, from data: Data, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format) { (_DataSource(data), data.count) }
    }

    /// The elements of a file, read through one reused 64 KiB buffer.
    public func elements<T: Decodable>(of type: T.Type, contentsOf url: URL, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format) {
            let source = try _FileDescriptorSource(url: url)
            return (source, source.size)
        }
    }

    /// The elements arriving on a file handle (a file, a pipe, stdin), each
    /// delivered as soon as its last byte has been read. Single-pass.
    public func elements<T: Decodable>(of type: T.Type, from handle: FileHandle, at path: [String] = [],
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: path, format: format) { (_FileDescriptorSource(handle: handle), nil) }
    }
}
