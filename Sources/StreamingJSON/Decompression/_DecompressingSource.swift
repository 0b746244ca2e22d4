// SPDX-License-Identifier: Apache-2.0
import Foundation

// Compressed input, recognised by its first bytes.
//
// Every stream reads through a `_SniffingSource`. Its first read looks at
// the input's first byte; only when that byte can begin a compression
// signature does it read up to six, and then either passes everything
// through unchanged (a JSON text: one look, then the inner source's own
// reads) or hands the bytes to a `_CompressedSource`:
//
//   file, handle   inner ─▶ _CompressedSource ─▶ _ReadAheadSource ─▶ parser
//                          (decompressing thread)   (queue of chunks)
//   data, pushes   inner ─▶ _CompressedSource ─▶ parser  (same thread)
//
// Descriptors are decompressed on their own thread, so that decompressing
// and parsing run side by side; bytes in memory and pushed chunks are
// decompressed where they are read (a pushed source must return -1, "more
// later", without blocking, which a queue between threads cannot promise).
// Positions in the parser's errors count decompressed bytes, as the parser
// sees them.

extension _ByteSource {
    /// The source every stream reads: `self`, decompressed when its first
    /// bytes say it is compressed.
    func recognisingCompression() -> any _ByteSource {
        self is _SniffingSource || self is _ReadAheadSource ? self : _SniffingSource(self)
    }
}

/// Looks at the first bytes, then passes the input through or decompresses it.
final class _SniffingSource: _ByteSource {
    private enum State {
        case sniffing
        case plain
        case decompressing(any _ByteSource)
    }

    private var inner: any _ByteSource
    private var state = State.sniffing
    /// The first bytes, read while sniffing; handed out before anything else.
    private var prefix: [UInt8] = []
    private var prefixOffset = 0

    init(_ inner: any _ByteSource) {
        self.inner = inner
    }

    /// Whether the input turned out compressed and is decompressed on a thread of its own.
    var decompressesOnItsOwnThread: Bool {
        if case .decompressing(let source) = state { return source is _ReadAheadSource }
        return false
    }

    func isReady(within milliseconds: Int32) -> Bool {
        switch state {
        case .plain: prefixOffset < prefix.count || inner.isReady(within: milliseconds)
        case .decompressing(var source): source.isReady(within: milliseconds)
        case .sniffing: inner.isReady(within: milliseconds)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch state {
        case .plain:
            if prefixOffset < prefix.count { return unsafe handOutPrefix(into: buffer) }
            return unsafe try inner.read(into: buffer)
        case .decompressing(var source):
            return unsafe try source.read(into: buffer)
        case .sniffing:
            guard try sniff() else { return -1 }
            return unsafe try read(into: buffer)
        }
    }

    /// Reads the first bytes and decides; false while a pushed source has
    /// too few of them yet.
    private func sniff() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: CompressedInputError.Format.signatureLength)
        while prefix.count < chunk.count {
            if let first = prefix.first, !CompressedInputError.Format.mayBeginSignature(first) { break }
            let count = unsafe try chunk.withUnsafeMutableBytes { bytes in
                unsafe try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[prefix.count...]))
            }
            if count < 0 { return false }
            if count == 0 { break }
            prefix.append(contentsOf: chunk[prefix.count..<(prefix.count + count)])
        }
        guard let format = CompressedInputError.Format.recognise(prefix) else {
            state = .plain
            return true
        }
        let decompressor: any _Decompressor
        do throws(_DecompressionFailure) {
            decompressor = try format.makeDecompressor()
        } catch {
            throw CompressedInputError(format: format, kind: error.kind, reason: error.reason,
                                       compressedOffset: 0, byteOffset: 0)
        }
        let hook = inner.takeBlockingReadHook()
        let compressed = _CompressedSource(inner, decompressor: decompressor, prefix: prefix)
        inner = _DataSource(Data())
        prefix = []
        state = .decompressing(compressed.readsAheadOnItsOwnThread
                               ? _ReadAheadSource(running: compressed, beforeWaiting: hook)
                               : compressed)
        return true
    }

    private func handOutPrefix(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, prefix.count - prefixOffset)
        unsafe prefix.withUnsafeBytes { bytes in
            unsafe buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[prefixOffset..<(prefixOffset + count)]))
        }
        prefixOffset += count
        return count
    }
}

/// Decompresses `inner` with one of the `_Decompressor`s.
/// Safe: it owns its input buffer, read and written within `start..<end`.
@safe final class _CompressedSource: _ByteSource {
    private var inner: any _ByteSource
    private let decompressor: any _Decompressor
    private let input: UnsafeMutableRawBufferPointer
    /// The unconsumed compressed bytes are `input[start..<end]`.
    private var start = 0
    private var end = 0
    private var innerEnded = false
    private var compressedOffset = 0
    private var byteOffset = 0
    /// Found after some output of the same read: thrown by the next.
    private var pendingFailure: (any Error)?

    static let inputSize = 128 << 10

    init(_ inner: any _ByteSource, decompressor: any _Decompressor, prefix: [UInt8]) {
        self.inner = inner
        self.decompressor = decompressor
        unsafe input = .allocate(byteCount: max(Self.inputSize, prefix.count), alignment: 16)
        unsafe prefix.withUnsafeBytes { unsafe input.copyMemory(from: $0) }
        end = prefix.count
    }

    deinit {
        unsafe input.deallocate()
    }

    /// Whether reading may block the caller (a descriptor): then it is worth a thread.
    var readsAheadOnItsOwnThread: Bool { inner.prefersReadAhead }

    /// Fills `buffer` as far as the compressed bytes at hand allow, reading
    /// more only while nothing has been produced (so that a pipe's elements
    /// are not held back). -1: a pushed source has nothing more yet.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure = pendingFailure { throw failure }
        var produced = 0
        while produced < buffer.count {
            if start == end && !innerEnded {
                if produced > 0 { break }
                guard try fill() else { return -1 }
                continue
            }
            let output = unsafe UnsafeMutableRawBufferPointer(rebasing: buffer[produced...])
            let step = unsafe decompressor.decompress(UnsafeRawBufferPointer(rebasing: input[start..<end]),
                                                      into: output, atEnd: innerEnded)
            start += step.consumed
            compressedOffset += step.consumed
            byteOffset += step.produced
            produced += step.produced
            if let failure = step.failure {
                // The text decompressed before the damage is delivered first.
                pendingFailure = self.failure(failure.kind, failure.reason)
                if produced > 0 { break }
                throw pendingFailure!
            }
            if step.consumed > 0 || step.produced > 0 { continue }
            // Stuck: the decompressor needs more than what is buffered.
            if produced > 0 { break }
            if innerEnded { try checkEnd(); return 0 }
            guard try fill() else { return -1 }
        }
        return produced
    }

    /// Reads more compressed bytes behind the unconsumed ones; false when a
    /// pushed source has none yet.
    private func fill() throws -> Bool {
        if start > 0 {
            let kept = end - start
            if kept > 0 { unsafe input.baseAddress!.copyMemory(from: input.baseAddress! + start, byteCount: kept) }
            start = 0
            end = kept
        }
        let count = unsafe try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: input[end...]))
        if count < 0 { return false }
        if count == 0 { innerEnded = true }
        end += count
        return true
    }

    /// At the end of the input: the last stream must be complete, and nothing after it.
    private func checkEnd() throws {
        if start < end { throw failure(.trailingData, "") }
        if !decompressor.isAtStreamEnd { throw failure(.truncated, "") }
    }

    private func failure(_ kind: CompressedInputError.Kind, _ reason: String) -> CompressedInputError {
        CompressedInputError(format: type(of: decompressor).format, kind: kind, reason: reason,
                             compressedOffset: compressedOffset, byteOffset: byteOffset)
    }
}

/// The start of the text an input holds, from its first `bytes` (which may
/// be all of it): the bytes themselves, or, when they begin compressed, the
/// first `limit` bytes they decompress to (fewer when they end first, or
/// where they are damaged). For looking at an input's start (`--jq`'s plan)
/// without reading it for good.
package func _textStart(of bytes: [UInt8], limit: Int) -> [UInt8] {
    guard CompressedInputError.Format.recognise(bytes.prefix(CompressedInputError.Format.signatureLength)) != nil
    else { return bytes.count <= limit ? bytes : Array(bytes.prefix(limit)) }
    let source = _SniffingSource(_DataSource(Data(bytes)))
    var text = [UInt8](repeating: 0, count: limit)
    var count = 0
    while count < limit {
        let read = unsafe (try? text.withUnsafeMutableBytes {
            unsafe try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
        }) ?? 0
        if read <= 0 { break }
        count += read
    }
    return Array(text[..<count])
}
