// SPDX-License-Identifier: Apache-2.0
import Foundation
// Oniguruma's encoding and syntax tables are C globals that Swift sees as
// shared mutable state; the library only reads them, and we only take their
// addresses, so the concurrency diagnostics for them are silenced here
// (which strict memory safety counts as unsafe, hence `@unsafe`).
@unsafe @preconcurrency internal import COniguruma
import StreamingJSON

/// One capture group of a match, as jq 1.8 reports it: offsets and lengths in
/// code points; a group that did not take part has offset -1 and a null string.
struct _RegexCapture {
    let offset: Int
    let length: Int
    let string: String?
    var name: String?

    /// jq's capture object. jq builds an empty or unmatched group in another
    /// key order (offset, string, length, name) than a non-empty one, and
    /// object key order is visible in output, so it is kept.
    var json: JSONValue {
        var object = JSONObject()
        object["offset"] = .number(JSONNumber(offset))
        if let string, !string.isEmpty {
            object["length"] = .number(JSONNumber(length))
            object["string"] = .string(string)
        } else {
            object["string"] = string.map(JSONValue.string) ?? .null
            object["length"] = .number(JSONNumber(length))
        }
        object["name"] = name.map(JSONValue.string) ?? .null
        return .object(object)
    }
}

/// One match, as jq's `match` reports it, plus the byte range it covers
/// in the searched text (for `sub` and `split`, which cut the text there).
struct _RegexMatch {
    let bytes: Range<Int>
    let offset: Int
    let length: Int
    let string: String
    /// Empty for a zero-width match, even when the pattern has groups: jq
    /// reports no captures for those.
    let captures: [_RegexCapture]

    var json: JSONValue {
        var object = JSONObject()
        object["offset"] = .number(JSONNumber(offset))
        object["length"] = .number(JSONNumber(length))
        object["string"] = .string(string)
        object["captures"] = .array(captures.map(\.json))
        return .object(object)
    }

    /// What `capture` emits and `sub`'s replacement receives: named groups
    /// only, a repeated name keeping its first position and its last value
    /// (jq's `reduce … ({}; . + {(.name): .string})`).
    var captureObject: JSONValue {
        var object = JSONObject()
        for capture in captures {
            guard let name = capture.name else { continue }
            object[name] = capture.string.map(JSONValue.string) ?? .null
        }
        return .object(object)
    }
}

/// A compiled Oniguruma pattern with its scratch match region.
///
/// jq compiles with the Perl syntax plus named groups, UTF-8, and
/// `ONIG_OPTION_CAPTURE_GROUP` so unnamed groups still capture next to named
/// ones. An instance is used by one thread at a time: `_RegexCache` lends it
/// out and takes it back, so the region needs no lock and compiled patterns
/// are still shared across calls (a filter runs once per element of a big file).
///
/// Safe: it owns the compiled pattern and the region, freed in `deinit`;
/// the subject is a buffer pointer, so each call is marked.
@safe final class _Regex {
    private let regex: OnigRegex
    private let region: UnsafeMutablePointer<OnigRegion>
    /// Group number → name, from `onig_foreach_name`.
    private let names: [Int: String]

    /// jq's modifier letters. `g` is not a compile option but a loop flag.
    struct Options {
        var onig: OnigOptionType = OnigOptionType(ONIG_OPTION_CAPTURE_GROUP)
        var global = false

        /// Parses jq's flags value (a string or null), in f_match's order and
        /// with its messages: an unknown letter rejects the whole string.
        init(flags: JSONValue) throws {
            switch flags {
            case .null:
                return
            case .string(let letters):
                for letter in letters.unicodeScalars {
                    switch letter {
                    case "g": global = true
                    case "i": onig |= OnigOptionType(ONIG_OPTION_IGNORECASE)
                    case "x": onig |= OnigOptionType(ONIG_OPTION_EXTEND)
                    case "m": onig |= OnigOptionType(ONIG_OPTION_MULTILINE)
                    case "s": onig |= OnigOptionType(ONIG_OPTION_SINGLELINE)
                    case "p": onig |= OnigOptionType(ONIG_OPTION_MULTILINE) | OnigOptionType(ONIG_OPTION_SINGLELINE)
                    case "l": onig |= OnigOptionType(ONIG_OPTION_FIND_LONGEST)
                    case "n": onig |= OnigOptionType(ONIG_OPTION_FIND_NOT_EMPTY)
                    default: throw JSONFilterError(message: "\(letters) is not a valid modifier string")
                    }
                }
            default:
                throw JSONFilterError(message: "\(_describe(flags)) is not a string")
            }
        }
    }

    /// Compiles `pattern`. Errors carry jq's text: `Regex failure: <Oniguruma's message>`.
    init(pattern: String, options: OnigOptionType) throws {
        _ = _Regex.initialized
        var compiled: OnigRegex?
        var failure: String?
        // NUL-terminated so even an empty pattern has a real address.
        let text = Array(pattern.utf8) + [0]
        unsafe text.withUnsafeBufferPointer { buffer in
            let start = buffer.baseAddress!, end = unsafe start + (buffer.count - 1)
            var info = unsafe OnigErrorInfo()
            let status = _Regex.compileLock.withLock {
                unsafe onig_new(&compiled, start, end, options, &OnigEncodingUTF8, &OnigSyntaxPerl_NG, &info)
            }
            // The message may quote part of the pattern, so it is read while
            // the pattern bytes are alive.
            if status != ONIG_NORMAL { failure = unsafe _Regex.message(for: status, info: info) }
        }
        guard failure == nil, let compiled = unsafe compiled else {
            throw JSONFilterError(message: "Regex failure: " + (failure ?? "compile failed"))
        }
        unsafe regex = unsafe compiled
        unsafe region = unsafe onig_region_new()
        names = unsafe _Regex.groupNames(compiled)
    }

    deinit {
        unsafe onig_region_free(region, 1)
        _Regex.compileLock.withLock { unsafe onig_free(regex) }
    }

    /// `test`: whether the pattern matches anywhere (jq stops at the first match).
    func test(_ subject: UnsafeBufferPointer<UInt8>) throws -> Bool {
        unsafe try _Regex.withBase(subject) { base in
            unsafe try search(base, count: subject.count, from: 0) != nil
        }
    }

    /// jq 1.8's f_match loop: the first match, or with `global` every match.
    ///
    /// After a zero-width match the search goes on one character past it (so
    /// `"qux" | match("(?=u)"; "g")` matches once), and an empty match at the
    /// very end is reported too (`"abc" | match(""; "g")` finds offsets 0 to 3).
    func matches(_ subject: UnsafeBufferPointer<UInt8>, global: Bool) throws -> [_RegexMatch] {
        unsafe try _Regex.withBase(subject) { base in
            var results: [_RegexMatch] = []
            var counter = unsafe _CodePointCounter(base: base, count: subject.count)
            var start = 0
            repeat {
                guard unsafe try search(base, count: subject.count, from: start) != nil else { break }
                let begin = unsafe Int(region.pointee.beg[0]), end = unsafe Int(region.pointee.end[0])
                let (offset, length) = unsafe begin == end
                    ? (counter.boundaries(before: begin).count, 0) : counter.span(begin, end)
                unsafe results.append(_RegexMatch(bytes: begin..<end, offset: offset, length: length,
                                                  string: _string(base, begin, end), captures: captures(base, &counter)))
                if begin == end {
                    start = unsafe end + (end < subject.count ? _utf8SequenceLength(base[end]) : 1)
                } else {
                    start = end
                }
            } while global && start <= subject.count
            return results
        }
    }

    /// The groups of the match in the region, as jq reports them.
    private func captures(_ base: UnsafePointer<UInt8>, _ counter: inout _CodePointCounter) -> [_RegexCapture] {
        var captures: [_RegexCapture] = []
        for group in unsafe 1..<Int(max(region.pointee.num_regs, 1)) {
            let groupBegin = unsafe Int(region.pointee.beg[group]), groupEnd = unsafe Int(region.pointee.end[group])
            let name = names[group]
            if groupBegin == groupEnd {
                let offset = unsafe groupBegin == -1 ? -1 : counter.boundaries(before: groupBegin).count
                captures.append(_RegexCapture(offset: offset, length: 0, string: groupBegin == -1 ? nil : "", name: name))
            } else {
                let (offset, length) = unsafe counter.span(groupBegin, groupEnd)
                unsafe captures.append(_RegexCapture(offset: offset, length: length,
                                                     string: _string(base, groupBegin, groupEnd), name: name))
            }
        }
        return captures
    }

    /// One `onig_search` from byte `start` to the end; the region holds the match.
    private func search(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) throws -> Int? {
        let end = unsafe base + count
        // A region left from the previous match would make a longest-match
        // search ("l") refuse anything shorter than it: jq frees it per match.
        unsafe onig_region_clear(region)
        let status = unsafe onig_search(regex, base, end, base + start, end, region, OnigOptionType(ONIG_OPTION_NONE))
        if status >= 0 { return Int(status) }
        if status == ONIG_MISMATCH { return nil }
        throw unsafe JSONFilterError(message: "Regex failure: " + _Regex.message(for: status, info: nil))
    }

    /// Oniguruma wants a real pointer even for empty text.
    private static func withBase<R>(_ subject: UnsafeBufferPointer<UInt8>,
                                    _ body: (UnsafePointer<UInt8>) throws -> R) rethrows -> R {
        if let base = subject.baseAddress { return unsafe try body(base) }
        var byte: UInt8 = 0
        return unsafe try withUnsafePointer(to: &byte) { unsafe try body($0) }
    }

    private static func groupNames(_ regex: OnigRegex) -> [Int: String] {
        final class Box { var names: [Int: String] = [:] }
        let box = Box()
        withExtendedLifetime(box) {
            _ = unsafe onig_foreach_name(regex, { name, nameEnd, count, groups, _, context in
                guard let name = unsafe name, let nameEnd = unsafe nameEnd, let groups = unsafe groups,
                      let context = unsafe context else { return 0 }
                let box = unsafe Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
                let text = unsafe String(decoding: UnsafeBufferPointer(start: name, count: nameEnd - name), as: UTF8.self)
                for index in 0..<Int(count) { unsafe box.names[Int(groups[index])] = text }
                return 0
            }, unsafe Unmanaged.passUnretained(box).toOpaque())
        }
        return box.names
    }

    // MARK: Library state

    /// `onig_initialize` once per process (Oniguruma asks for it before any compile).
    private static let initialized: Bool = unsafe withUnsafeMutablePointer(to: &OnigEncodingUTF8) { utf8 in
        var encodings: [OnigEncoding?] = unsafe [utf8]
        return unsafe onig_initialize(&encodings, 1) == ONIG_NORMAL
    }

    /// Oniguruma's documentation never promises that compiling or freeing
    /// patterns on several threads at once is safe (older releases said it
    /// was not), so both happen under one lock; they are rare thanks to the cache.
    private static let compileLock = NSLock()

    /// Oniguruma's own message for an error code. Its `onig_error_code_to_str`
    /// is variadic, which Swift cannot call, so this reads the exported
    /// message template and fills the `%n` (a group or property name) the way
    /// that function does: the first 27 bytes of the name, then `...` if cut.
    private static func message(for code: Int32, info: OnigErrorInfo?) -> String {
        guard let template = errorTemplate?(code) else { return "error code \(code)" }
        var message = unsafe String(cString: template)
        if message.contains("%n"), let info = unsafe info, let start = unsafe info.par, let end = unsafe info.par_end {
            let name = unsafe UnsafeBufferPointer(start: UnsafePointer(start), count: end - start)
            var text = unsafe String(decoding: name.prefix(27), as: UTF8.self)
            if name.count > 27 { text += "..." }
            message = message.replacingOccurrences(of: "%n", with: text)
        }
        return message
    }

    private typealias ErrorTemplate = @convention(c) (Int32) -> UnsafePointer<CChar>?

    private static let errorTemplate: ErrorTemplate? = {
        guard let handle = unsafe dlopen(nil, RTLD_NOW),
              let symbol = unsafe dlsym(handle, "onig_error_code_to_format") else { return nil }
        return unsafe unsafeBitCast(symbol, to: ErrorTemplate.self)
    }()
}

/// Byte offsets to code-point offsets as jq computes them: walk from the
/// start by each lead byte's sequence length and count the steps. A cursor
/// (and a mark at the last match start) keeps successive lookups linear.
/// Unsafe: a view of the caller's bytes, which must outlive it.
@unsafe private struct _CodePointCounter {
    let base: UnsafePointer<UInt8>
    let count: Int
    private var position = 0, index = 0
    private var mark = (position: 0, index: 0)

    init(base: UnsafePointer<UInt8>, count: Int) {
        unsafe self.base = unsafe base
        unsafe self.count = count
    }

    /// How many characters start before `target`, and whether one starts at it.
    mutating func boundaries(before target: Int) -> (count: Int, exact: Bool) {
        if unsafe target < position {
            unsafe (position, index) = unsafe target >= mark.position ? mark : (0, 0)
        }
        while unsafe position < target && position < count {
            unsafe position += _utf8SequenceLength(base[position])
            unsafe index += 1
        }
        return unsafe (index, position == target)
    }

    /// jq's offset and length of a non-empty span. When the start is not on a
    /// character boundary jq reports offset 0 and counts from the beginning.
    mutating func span(_ begin: Int, _ end: Int) -> (offset: Int, length: Int) {
        let start = unsafe boundaries(before: begin)
        unsafe mark = unsafe (position, index)
        let stop = unsafe boundaries(before: end).count
        return start.exact ? (start.count, stop - start.count) : (0, stop)
    }
}

/// The length of the UTF-8 sequence a lead byte starts (jq's rule: anything
/// that is not a 1-, 2- or 3-byte lead counts as 4).
@inline(__always)
func _utf8SequenceLength(_ byte: UInt8) -> Int {
    if byte & 0x80 == 0 { return 1 }
    if byte & 0xE0 == 0xC0 { return 2 }
    if byte & 0xF0 == 0xE0 { return 3 }
    return 4
}

/// The text of `base[begin..<end]`; invalid sequences become U+FFFD, as in jq.
private func _string(_ base: UnsafePointer<UInt8>, _ begin: Int, _ end: Int) -> String {
    unsafe String(decoding: UnsafeBufferPointer(start: base + begin, count: max(0, end - begin)), as: UTF8.self)
}

/// Compiled patterns kept for reuse, keyed by pattern and compile options.
///
/// Patterns are nearly always constants while a filter runs once per element
/// of a possibly huge input, so compiling once matters. A pattern checked out
/// is used by one thread only (its match region is scratch space); a thread
/// that finds none idle compiles another, and at most `instancesPerPattern`
/// idle copies of at most `patternLimit` patterns are kept, the least recently
/// used pattern going first. All state is behind `lock`, hence `@unchecked Sendable`.
final class _RegexCache: @unchecked Sendable {
    static let shared = _RegexCache()

    private struct Key: Hashable {
        let pattern: String
        let options: OnigOptionType
    }

    private let patternLimit = 64
    private let instancesPerPattern = 4
    private let lock = NSLock()
    private var idle: [Key: [_Regex]] = [:]
    private var lastUse: [Key: UInt64] = [:]
    private var clock: UInt64 = 0

    /// Runs `body` with a compiled `pattern`, which must not escape `body`.
    func withRegex<Result>(_ pattern: String, options: OnigOptionType,
                           _ body: (_Regex) throws -> Result) throws -> Result {
        let key = Key(pattern: pattern, options: options)
        let cached = lock.withLock { idle[key]?.popLast() }
        let regex = try cached ?? _Regex(pattern: pattern, options: options)
        defer { checkIn(regex, key) }
        return try body(regex)
    }

    private func checkIn(_ regex: _Regex, _ key: Key) {
        // Dropped instances are freed after unlocking: freeing takes the compile lock.
        var dropped: [_Regex] = []
        lock.withLock {
            clock += 1
            lastUse[key] = clock
            if idle[key, default: []].count < instancesPerPattern {
                idle[key, default: []].append(regex)
            } else {
                dropped.append(regex)
            }
            if idle.count > patternLimit, let oldest = lastUse.min(by: { $0.value < $1.value })?.key {
                dropped += idle.removeValue(forKey: oldest) ?? []
                lastUse[oldest] = nil
            }
        }
        dropped.removeAll()
    }
}

extension _Regex {
    /// jq's f_match argument checks, in its order: the input, then the
    /// pattern, then the flags (compile errors come after all three).
    static func arguments(_ input: JSONValue, _ pattern: JSONValue,
                          _ flags: JSONValue) throws -> (subject: String, pattern: String, options: Options) {
        guard case .string(let subject) = input else {
            throw JSONFilterError(message: "\(_describe(input)) cannot be matched, as it is not a string")
        }
        guard case .string(let text) = pattern else {
            throw JSONFilterError(message: "\(_describe(pattern)) is not a string")
        }
        return (subject, text, try Options(flags: flags))
    }

    /// `_match_impl(re; flags; true)`.
    static func test(_ input: JSONValue, _ pattern: JSONValue, _ flags: JSONValue) throws -> Bool {
        var (subject, text, options) = try arguments(input, pattern, flags)
        return try _RegexCache.shared.withRegex(text, options: options.onig) { regex in
            try subject.withUTF8 { unsafe try regex.test($0) }
        }
    }

    /// `_match_impl(re; flags; false)`: every match jq reports.
    static func matches(_ input: JSONValue, _ pattern: JSONValue, _ flags: JSONValue) throws -> [_RegexMatch] {
        var (subject, text, options) = try arguments(input, pattern, flags)
        return try _RegexCache.shared.withRegex(text, options: options.onig) { regex in
            try subject.withUTF8 { unsafe try regex.matches($0, global: options.global) }
        }
    }
}
