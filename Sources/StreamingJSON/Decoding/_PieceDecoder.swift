// SPDX-License-Identifier: Apache-2.0
import Foundation

// Decoding a large input on several cores.
//
// `_PieceSplitter` cuts the input into pieces at element boundaries; worker
// threads each decode whole pieces into arrays of elements, with their own
// parser and decoder (`_PieceFlow`); the iterator hands the elements out in
// input order.
// A piece in which anything fails (an element that does not decode, a line
// that is not JSON) is not handed out from the worker's work: from that
// piece on, the input is read by one stream, exactly as without pieces,
// element indexes in coding paths counted on from the pieces before. Errors
// are rare, and this keeps every error (its coding path, position and the
// elements after it) what one stream gives.

/// What the iterator gets next from a `_PieceDecoding`.
enum _PieceDecodingStep {
    /// A piece's elements, as `[T]`.
    case elements(Any)
    /// The rest of the input, to be read by this container.
    case rest(_IncrementalUnkeyedContainer)
    case end
}

/// `_PieceDecoder<T>` without its type, for `JSONElements<T>` (whose `T`
/// need not be `Sendable`).
protocol _PieceDecoding: AnyObject {
    func next() throws -> _PieceDecodingStep
}

/// One piece, decoded by a worker.
private struct _DecodedPiece: @unchecked Sendable {
    /// `[T]`; empty when `failed`.
    let elements: Any
    let count: Int
    /// Something in the piece threw: it is to be read again by one stream.
    let failed: Bool
}

/// Decodes pieces of `source` into `T`s on `maxThreads` threads.
final class _PieceDecoder<T: Decodable & Sendable>: _PieceDecoding {
    private let flow: _PieceFlow<_DecodedPiece>
    private let options: _DecodingOptions
    /// Elements handed out so far (the next piece's first index).
    private var indexBase = 0
    private var finished = false

    /// nil when the input is not for pieces (too small, one thread, object
    /// values, no array at the root or the path); `source` may then have
    /// been read from.
    init?(source: any _ByteSource, size: Int?, format: JSONStreamFormat, path: [String], options: _DecodingOptions) {
        let pieceSize = options.pieceSize ?? _PieceSplitter.defaultPieceSize
        guard let threads = options.pieceThreads(path: path, format: format),
              let size, size >= 2 * pieceSize else { return nil }
        let splitter = _PieceSplitter(source: source, format: format, path: path, limits: options.limits,
                                      pieceSize: pieceSize)
        guard (try? splitter.prepare()) == true,
              let flow = _PieceFlow<_DecodedPiece>(splitter: splitter, threads: threads, start: Self.startThread,
                                                   makeWork: { { Self.decode($0, options: options) } })
        else { return nil }
        self.flow = flow
        self.options = options
    }

    private static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        let thread = Thread(block: body)
        thread.name = "StreamingJSON piece decoder"
        thread.stackSize = 8 << 20  // `init(from:)` may go deep
        thread.start()
        return true
    }

    /// A worker's work: every element of `piece`, or `failed`.
    private static func decode(_ piece: _InputPiece, options: _DecodingOptions) -> _DecodedPiece {
        let stream = _ElementStream(source: _DataSource(piece.bytes), mode: piece.mode, path: piece.path,
                                    limits: options.limits, origin: piece.origin)
        stream.keepsPreviousElement = false
        var container = _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options),
                                                     path: .root, shelvesContainers: true)
        var elements: [T] = []
        do {
            while let element = try container.nextElement(T.self) { elements.append(element) }
        } catch {
            return _DecodedPiece(elements: [T](), count: 0, failed: true)
        }
        return _DecodedPiece(elements: elements, count: elements.count, failed: false)
    }

    func next() throws -> _PieceDecodingStep {
        guard !finished else { return .end }
        if Task.isCancelled {
            finished = true
            flow.close()
            throw CancellationError()
        }
        switch flow.next(readsAgain: \.failed) {
        case .result(let decoded):
            indexBase += decoded.count
            return .elements(decoded.elements)
        case .readOn(let pieces):
            finished = true
            return .rest(restContainer(from: pieces))
        case .end:
            finished = true
            return .end
        }
    }

    /// One stream over `pieces` and the rest of the input, its elements
    /// numbered on from those handed out.
    private func restContainer(from pieces: [_InputPiece]) -> _IncrementalUnkeyedContainer {
        let (source, mode, origin) = flow.splitter.rest(from: pieces)
        let stream = _ElementStream(source: source, mode: mode, path: flow.splitter.path, limits: options.limits,
                                    origin: origin)
        stream.keepsPreviousElement = false
        return _IncrementalUnkeyedContainer(decoder: _TapeDecoder(stream: stream, options: options), path: .root,
                                            shelvesContainers: true, pathIndexBase: indexBase)
    }
}

extension _DecodingOptions {
    /// The threads that would decode pieces of an input read at `path` in
    /// `format`, or nil when pieces are not used whatever the input's size:
    /// known before the input is opened.
    func pieceThreads(path: [String], format: JSONStreamFormat) -> Int? {
        // By default only past two cores: on two, the pipeline's parsing
        // thread and the caller's (which it helps by decoding ahead) already
        // share the work, for less than pieces cost (elements made on one
        // core and used and freed on another).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = maxThreads ?? (cores > 2 ? cores : 1)
        // The cut scan knows strings, not comments: a comment may hide a comma.
        let cuttable = format != .objectValues && (path.isEmpty || format != .jsonLines) && !limits.allowsComments
        return threads > 1 && cuttable ? threads : nil
    }
}
