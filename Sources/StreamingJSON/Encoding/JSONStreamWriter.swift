// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes a JSON array, or JSON Lines, one element at a time, in constant
/// memory: each element is encoded, written into a 256 KiB buffer, and the
/// buffer goes out with `write(2)` when full.
///
/// ```swift
/// let writer = try JSONStreamWriter<Beer>(toFileAt: outputURL)
/// for try await beer in decoder.elements(of: Beer.self, contentsOf: inputURL) where beer.abv > 8 {
///     try writer.append(beer)
/// }
/// try writer.finish()
/// ```
///
/// `.array` (and `.auto`) writes exactly what `StreamingJSONEncoder` (and,
/// with `.sortedKeys`, Foundation's `JSONEncoder`) writes for an array of the
/// same elements, pretty-printed when the encoder asks for it. `.jsonLines`
/// writes each element compact on its own line.
///
/// Failures are thrown, never left as a silently truncated file:
/// - an element that fails to encode (NaN under `.throw`) throws from
///   `append(_:)`, writes nothing, and the writer stays usable;
/// - a failed write (closed pipe, full disk) throws a `POSIXError`, and every
///   later call throws it again;
/// - a writer created with `init(toFileAt:)` writes a temporary file beside
///   the target and renames it in `finish()`: dropped without `finish()`, it
///   removes the temporary file and leaves no file at the target;
/// - a writer on a `FileHandle` dropped without `finish()` closes its array
///   best-effort, so the output stays well-formed.
///
/// A process that wants a closed pipe to throw rather than kill it must
/// ignore `SIGPIPE` (`signal(SIGPIPE, SIG_IGN)`); the library leaves signal
/// handling alone.
///
/// On standard output, the writer and `print` each buffer their bytes: text
/// printed before the writer writes comes out first (the writer flushes
/// `stdout` before each write), but elements still in the writer's buffer
/// come out after a later `print` unless ``flush()`` is called before it.
///
/// A writer is not thread-safe: append from one thread, or one task, at a time.
public final class JSONStreamWriter<Element: Encodable> {
    private enum State {
        case open, finished, failed(any Error)
    }

    private let writesLines: Bool
    private var writer: _ValueWriter
    private let output: _JSONOutput
    private let destination: _Destination
    private var state = State.open
    /// `state` is `.open` (checked on every append without copying the enum).
    private var isOpen = true
    private var count = 0

    /// Writes to an open handle (a file, a pipe, standard output). The handle
    /// is not closed by the writer.
    ///
    /// ```swift
    /// let writer = try JSONStreamWriter<Beer>(to: .standardOutput, format: .jsonLines)
    /// ```
    ///
    /// - Parameters:
    ///   - handle: Where the bytes go, written with `write(2)` from the
    ///     handle's current position.
    ///   - format: `.array` (the default; `.auto` means the same) or
    ///     `.jsonLines`. `.objectValues` throws `EncodingError.invalidValue`.
    ///   - encoder: The options for each element; they are copied now.
    public convenience init(to handle: FileHandle, format: JSONStreamFormat = .array,
                            encoder: StreamingJSONEncoder = StreamingJSONEncoder()) throws {
        try self.init(destination: .handle(handle), format: format, encoder: encoder)
    }

    /// Writes to a temporary file beside `url` that `finish()` renames to
    /// `url`, replacing any file there.
    ///
    /// - Parameters:
    ///   - url: A file URL in a directory the process may write to.
    ///   - format: `.array` (the default; `.auto` means the same) or
    ///     `.jsonLines`. `.objectValues` throws `EncodingError.invalidValue`.
    ///   - encoder: The options for each element; they are copied now.
    /// - Throws: `CocoaError` when the temporary file cannot be created
    ///   (`.fileNoSuchFile`, `.fileWriteNoPermission`…).
    public convenience init(toFileAt url: URL, format: JSONStreamFormat = .array,
                            encoder: StreamingJSONEncoder = StreamingJSONEncoder()) throws {
        try self.init(destination: _Destination.temporaryFile(beside: url), format: format, encoder: encoder)
    }

    private init(destination: _Destination, format: JSONStreamFormat, encoder: StreamingJSONEncoder) throws {
        if case .objectValues = format {
            destination.discard()
            throw EncodingError.invalidValue(format, .init(
                codingPath: [], debugDescription: "JSONStreamWriter writes .array or .jsonLines, not .objectValues."))
        }
        self.destination = destination
        self.writesLines = format == .jsonLines
        let output = _JSONOutput(sink: _FileSink(descriptor: destination.descriptor))
        self.output = output
        self.writer = _ValueWriter(options: encoder.options, output: output, compact: writesLines)
    }

    deinit {
        guard case .open = state else {
            destination.discard()
            return
        }
        switch destination {
        case .handle:
            // Best effort: the caller can no longer hear about a failure.
            try? writeClosing()
            try? output.flush()
        case .file:
            destination.discard()
        }
    }

    /// Encodes `element` and writes it after the ones before.
    ///
    /// - Throws: `EncodingError` when the element cannot be encoded (nothing
    ///   of it is written and the writer stays usable); `POSIXError` when a
    ///   write fails, and again on every later call; `EncodingError.invalidValue`
    ///   after ``finish()``.
    public func append(_ element: Element) throws {
        if !isOpen { try checkOpen() }
        // An element that fails to encode writes nothing (the output is
        // cut back to where it was) and leaves the writer usable.
        if writesLines {
            try writer.writeLine(element)
        } else {
            try writer.writeElement(element, index: count, pathIndex: -1)
        }
        try failing {
            try output.flushIfNeeded()
            count += 1
        }
    }

    /// Writes the elements appended so far, now, instead of when the buffer
    /// fills. On standard output, call it before a `print` that must come
    /// after them: the writer's buffer and `print`'s are separate.
    ///
    /// - Throws: `POSIXError` when the write fails (and again on every later
    ///   call); the error of an earlier failure.
    public func flush() throws {
        try checkOpen()
        try failing { try output.flush() }
    }

    /// Closes the array, writes what is buffered and, for a file, moves it
    /// into place. Calling it again does nothing; after a failure it throws
    /// that failure again.
    public func finish() throws {
        switch state {
        case .finished: return
        case .failed(let error): throw error
        case .open: break
        }
        try failing {
            try writeClosing()
            try output.flush()
            try destination.commit()
        }
        state = .finished
        isOpen = false
    }

    private func checkOpen() throws {
        switch state {
        case .open: return
        case .failed(let error): throw error
        case .finished:
            throw EncodingError.invalidValue(count, .init(
                codingPath: [], debugDescription: "JSONStreamWriter.append(_:) called after finish()."))
        }
    }

    /// Runs a step that writes; a failure poisons the writer.
    private func failing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            state = .failed(error)
            isOpen = false
            throw error
        }
    }

    private func writeClosing() throws {
        if !writesLines { writer.closeArray(count: count) }
    }
}

/// Where a `JSONStreamWriter`'s bytes go.
enum _Destination {
    /// A caller's handle, kept alive while it is written.
    case handle(FileHandle)
    /// A temporary file, renamed to the target when committed.
    case file(_TemporaryFile)

    var descriptor: Int32 {
        switch self {
        case .handle(let handle): return handle.fileDescriptor
        case .file(let file): return file.descriptor
        }
    }

    static func temporaryFile(beside url: URL) throws -> _Destination {
        .file(try _TemporaryFile(beside: url))
    }

    func commit() throws {
        if case .file(let file) = self { try file.commit() }
    }

    func discard() {
        if case .file(let file) = self { file.discard() }
    }
}

/// `.<name>.<random>.tmp` in the target's directory, created exclusively
/// with the permissions a new file gets (0666 less the umask), renamed over
/// the target by `commit()`, removed by `discard()`.
final class _TemporaryFile {
    let descriptor: Int32
    let path: String
    let target: String
    private var isOpen = true

    init(beside url: URL) throws {
        guard url.isFileURL else {
            throw CocoaError(.fileWriteUnsupportedScheme, userInfo: [NSURLErrorKey: url])
        }
        target = url.path
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        while true {
            let candidate = directory + "/." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            let fd = unsafe open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                descriptor = fd
                path = candidate
                return
            }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            throw Self.writeError(errno: code, path: target)
        }
    }

    func commit() throws {
        guard isOpen else { return }
        isOpen = false
        if close(descriptor) != 0, errno != EINTR {
            let code = errno
            unsafe unlink(path)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        if unsafe rename(path, target) != 0 {
            let code = errno
            unsafe unlink(path)
            throw Self.writeError(errno: code, path: target)
        }
    }

    func discard() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
        unsafe unlink(path)
    }

    private static func writeError(errno code: Int32, path: String) -> CocoaError {
        let kind: CocoaError.Code
        switch code {
        case ENOENT, ENOTDIR: kind = .fileNoSuchFile
        case EACCES, EPERM: kind = .fileWriteNoPermission
        case ENOSPC, EDQUOT: kind = .fileWriteOutOfSpace
        case EROFS: kind = .fileWriteVolumeReadOnly
        case ENAMETOOLONG: kind = .fileWriteInvalidFileName
        default: kind = .fileWriteUnknown
        }
        var info: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(kind, userInfo: info)
    }
}
