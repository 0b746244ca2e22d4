// SPDX-License-Identifier: Apache-2.0
// Feeding yajl: the parser's life cycle, and tokens that go on past the end
// of a chunk.
//
// Tokens across chunks
// --------------------
// When a chunk ends inside a token, yajl's lexer copies the token's bytes so
// far into a buffer of its own, and on every later chunk lexes the token
// again from its first byte. A token of n bytes fed in chunks of c bytes thus
// costs about n²/2c byte reads, and nothing bounds the buffer: a string with
// no closing quote in a 1 GB file would be copied whole, and re-read some
// 15 000 times. (That buffer is also where yajl 2.1.0's size arithmetic can
// overflow, CVE-2022-24795.)
//
// So the parser follows the token that a chunk ends inside of:
//   - after yajl accepts a chunk, the bytes after the last scalar it reported
//     can only be whitespace, punctuation, brackets, complete comments, or
//     the start of an unfinished string, number, literal or comment;
//     sj_find_pending looks there for that start;
//   - the next chunks are searched for the token's end (sj_pending_end),
//     carrying a string's escape state and a comment's terminator state;
//   - while the token goes on, its bytes are checked against the limit
//     (maxNumberLength for numbers, maxStringLength for strings and
//     comments) and held back in `held`, not handed to yajl;
//   - when it ends, yajl gets the held bytes in one call, then the chunk.
// yajl then lexes each token at most twice, and never buffers one longer
// than its limit plus one chunk. Literals (true, false, null) are at most
// five bytes and are left to yajl.
//
// Surrogate escapes
// -----------------
// yajl 2.1.0 decodes a \u escape of a high surrogate without checking what
// follows: `\uD800\u0041` becomes a code point that was never there, a lone
// low surrogate becomes invalid UTF-8, and `\uD800\\` ends in an assert
// (CVE-2017-16516, fixed by distributions' patches, not upstream). So every
// chunk is searched for backslashes first, and the escapes are followed
// across chunks (sj_check_escapes): yajl is given the bytes before the one
// that shows a surrogate to be unpaired, never the end of that string, and
// the parse stops with SJ_ERROR_SURROGATE, as Foundation's JSONDecoder stops.
// The search does not know where strings are: a backslash outside one is a
// syntax error anyway, and with comments allowed, a \u escape of a lone
// surrogate written inside a comment is rejected too.
//
// Strict UTF-8
// ------------
// yajl's lexer checks only the shape of a UTF-8 sequence (a lead byte and
// its continuation bytes), so it lets through overlong forms (C0 80 for
// U+0000), encoded surrogates (ED A0 80) and code points past U+10FFFF
// (F4 90 80 80, F5..F7 leads), which Swift would then turn into U+FFFD.
// The same pass over each chunk (sj_check_utf8) stops at the first byte that
// shows such a form; like an unpaired surrogate, it is reported after any
// error yajl finds before it. Forms yajl rejects itself are left to it.
#ifndef CYAJL_TAPE_FEED_H
#define CYAJL_TAPE_FEED_H

// MARK: - Life cycle

/// Prepares `p` (zeroed by the caller) for `mode`. The path's key bytes must
/// outlive the parser.
static inline void sj_parser_setup(sj_parser *p, int mode,
                                   const unsigned char *const *pathKeys,
                                   const size_t *pathLengths, size_t pathCount) {
    p->mode = mode;
    p->pathKeys = pathKeys;
    p->pathLengths = pathLengths;
    p->pathCount = pathCount;
    p->pendingStart = SJ_NO_POSITION;
    p->notedStart = SJ_NO_POSITION;
    // Start with room on the tape: the arena pointer is never NULL, even
    // when every string is empty.
    sj_grow((void **)&p->tokens, &p->tokenCapacity, 1024, sizeof(sj_token));
    sj_grow((void **)&p->arena, &p->arenaCapacity, 16384, 1);
    p->followsRoots = mode == SJ_MODE_ROOTS;
    p->recordsEvents = mode == SJ_MODE_EVENTS;
    if (mode == SJ_MODE_LINES) {
        p->inTarget = 1;
        p->frameDepth = 0;
    } else {
        p->expect = 1;
    }
}

static inline void sj_parser_release(sj_parser *p) {
    if (p->yajl) yajl_free(p->yajl);
    free(p->tokens);
    free(p->arena);
    free(p->elements);
    free(p->frames);
    free(p->held);
    p->yajl = NULL;
    p->tokens = NULL;
    p->arena = NULL;
    p->elements = NULL;
    p->frames = NULL;
    p->held = NULL;
}

/// Forgets the token held back, if any.
static inline void sj_forget_pending(sj_parser *p) {
    p->pendingStart = SJ_NO_POSITION;
    p->heldCount = 0;
    if (p->heldCapacity > (1u << 20)) {  // do not keep a huge token's buffer
        free(p->held);
        p->held = NULL;
        p->heldCapacity = 0;
    }
}

/// Forgets the element in progress and starts a new yajl handle (JSON Lines
/// resynchronizing after a syntax error). Complete elements stay.
static inline void sj_parser_restart(sj_parser *p) {
    yajl_free(p->yajl);
    p->yajl = sj_yajl_alloc(sj_callbacks(), p);
    p->tokenCount = p->completeEnd.token;
    p->arenaCount = p->completeEnd.arena;
    p->depth = 0;
    p->skipping = 0;
    p->skipMember = 0;
    p->error = SJ_OK;
    p->errorKind = 0;
    p->restarted = 1;
    p->notedStart = SJ_NO_POSITION;
    p->resumeFrom = 0;
    p->escState = 0;
    p->utf8Lead = 0;
    sj_forget_pending(p);
}

// MARK: - Tokens across chunks

/// Where the token in progress ends in `bytes`: the index just past it, or
/// SIZE_MAX when it goes on past them.
static size_t sj_pending_end(sj_parser *p, const unsigned char *bytes, size_t length) {
    switch (p->pendingKind) {
    case '"':
        for (size_t i = 0; i < length; i++) {
            if (p->pendingState) {  // the byte after a backslash
                p->pendingState = 0;
                if (bytes[i] < 0x20) return i + 1;  // never a valid escape (a line break): reported now
            } else if (bytes[i] == '\\') p->pendingState = 1;
            else if (bytes[i] == '"') return i + 1;
            else if (bytes[i] < 0x20) return i + 1;  // not allowed raw: yajl reports it now
        }
        return SIZE_MAX;
    case '/':
        for (size_t i = 0; i < length; i++) {
            unsigned char c = bytes[i];
            if (p->pendingState == 0) {  // the byte after the first slash
                if (c != '/' && c != '*') return i;  // not a comment: yajl reports it
                p->pendingState = c;
            } else if (p->pendingState == '/') {
                if (c == '\n') return i + 1;
            } else {
                if (p->pendingStar && c == '/') return i + 1;
                p->pendingStar = c == '*';
            }
        }
        return SIZE_MAX;
    default:  // a number
        for (size_t i = 0; i < length; i++) {
            unsigned char c = bytes[i];
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
                return i;
        }
        return SIZE_MAX;
    }
}

/// After yajl accepted `bytes`: finds the token they end inside of, if any.
/// Past the last scalar yajl reported (and the last token held back), only
/// whitespace, punctuation, brackets and whole comments can be complete.
static void sj_find_pending(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base) {
    uint64_t from = p->boundary > p->resumeFrom ? p->boundary : p->resumeFrom;
    size_t i = from > base ? (size_t)(from - base) : 0;
    p->pendingStart = SJ_NO_POSITION;
    while (i < length) {
        unsigned char c = bytes[i];
        switch (c) {
        case ' ': case '\t': case '\n': case '\r': case '\v': case '\f':
        case ',': case ':': case '[': case ']': case '{': case '}':
            i++;
            continue;
        case 't': case 'f': case 'n':
            return;  // a literal: yajl holds at most four bytes of it
        }
        p->pendingKind = c == '"' || c == '/' ? c : '0';
        p->pendingState = 0;
        p->pendingStar = 0;
        size_t end = sj_pending_end(p, bytes + i + 1, length - i - 1);
        if (end == SIZE_MAX) {
            p->pendingStart = base + i;
            return;
        }
        i += 1 + end;  // a whole comment
    }
}

/// Appends a chunk to the bytes held back.
static int sj_hold(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base) {
    if (p->heldCount == 0) p->heldBase = base;
    if (p->heldCapacity - p->heldCount < length &&
        !sj_grow((void **)&p->held, &p->heldCapacity, p->heldCount + length, 1))
        return 0;
    memcpy(p->held + p->heldCount, bytes, length);
    p->heldCount += length;
    return 1;
}

/// One call of yajl_parse; `follow` looks for a token left open at the end.
static yajl_status sj_feed(sj_parser *p, const unsigned char *bytes, size_t length,
                           uint64_t base, int follow) {
    p->chunk = bytes;
    p->chunkLength = length;
    p->chunkBase = base;
    p->fed = bytes;
    p->fedLength = length;
    p->fedBase = base;
    if (p->restarted) {  // the new handle begins here
        p->boundary = base;
        p->boundarySeparated = 0;
        p->restarted = 0;
    }
    yajl_status status = yajl_parse(p->yajl, bytes, length);
    // Note where a token still in progress began (sj_string_position).
    if (p->boundary >= base) p->notedStart = sj_scan_token_start(p, (size_t)(p->boundary - base));
    else if (p->notedStart == SJ_NO_POSITION || p->notedStart < p->boundary) p->notedStart = sj_scan_token_start(p, 0);
    if (status == yajl_status_ok && follow) sj_find_pending(p, bytes, length, base);
    p->chunk = NULL;
    p->chunkLength = 0;
    return status;
}

/// Hands yajl the bytes held back, if any.
static yajl_status sj_feed_held(sj_parser *p) {
    if (p->heldCount == 0) return yajl_status_ok;
    size_t count = p->heldCount;
    p->heldCount = 0;
    return sj_feed(p, p->held, count, p->heldBase, 0);
}

// MARK: - Surrogate escapes

enum { SJ_ESC_NONE, SJ_ESC_BACKSLASH, SJ_ESC_HEX, SJ_ESC_AFTER_HIGH, SJ_ESC_AFTER_HIGH_BACKSLASH, SJ_ESC_LOW_HEX };

static inline int sj_hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/// Follows the escapes in `bytes`. Returns the index of the byte that shows
/// a surrogate escape to be unpaired (escUnit holds its code unit), or
/// SIZE_MAX when there is none.
static size_t sj_check_escapes(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base) {
    size_t i = 0;
    while (i < length) {
        unsigned char c = bytes[i];
        switch (p->escState) {
        case SJ_ESC_NONE: {
            const unsigned char *next = memchr(bytes + i, '\\', length - i);
            if (!next) return SIZE_MAX;
            i = (size_t)(next - bytes);
            p->escStart = base + i;
            p->escState = SJ_ESC_BACKSLASH;
            break;
        }
        case SJ_ESC_BACKSLASH:
        case SJ_ESC_AFTER_HIGH_BACKSLASH:
            if (c == 'u') {
                p->escState = p->escState == SJ_ESC_BACKSLASH ? SJ_ESC_HEX : SJ_ESC_LOW_HEX;
                p->escDigits = 0;
                if (p->escState == SJ_ESC_HEX) p->escUnit = 0;
            } else if (p->escState == SJ_ESC_AFTER_HIGH_BACKSLASH) {
                return i;  // a high surrogate, then another escape
            } else {
                p->escState = SJ_ESC_NONE;  // a one-letter escape (yajl checks which)
            }
            break;
        case SJ_ESC_HEX:
        case SJ_ESC_LOW_HEX: {
            int digit = sj_hex(c);
            if (digit < 0) {  // yajl reports it
                p->escState = SJ_ESC_NONE;
                break;
            }
            unsigned int unit = p->escState == SJ_ESC_HEX ? p->escUnit : (p->escUnit >> 16);
            unit = (unit << 4) | (unsigned int)digit;
            if (p->escState == SJ_ESC_HEX) p->escUnit = unit;
            else p->escUnit = (p->escUnit & 0xFFFF) | (unit << 16);
            if (++p->escDigits < 4) break;
            if (p->escState == SJ_ESC_LOW_HEX) {
                if (unit < 0xDC00 || unit > 0xDFFF) return i;  // not a low surrogate
                p->escState = SJ_ESC_NONE;
            } else if (unit >= 0xD800 && unit <= 0xDBFF) {
                p->escState = SJ_ESC_AFTER_HIGH;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                return i;  // a low surrogate on its own
            } else {
                p->escState = SJ_ESC_NONE;
            }
            break;
        }
        case SJ_ESC_AFTER_HIGH:
            if (c != '\\') return i;  // a high surrogate on its own
            p->escState = SJ_ESC_AFTER_HIGH_BACKSLASH;
            break;
        }
        i++;
    }
    return SIZE_MAX;
}

// MARK: - Strict UTF-8

/// Why a UTF-8 form is refused (utf8Bad).
enum { SJ_UTF8_OVERLONG = 1, SJ_UTF8_SURROGATE = 2, SJ_UTF8_PAST_MAX = 3 };

/// Whether `next`, a continuation byte after `lead`, makes the sequence one
/// that valid UTF-8 does not have: the reason, or 0.
static inline int sj_utf8_second_bad(unsigned char lead, unsigned char next) {
    switch (lead) {
    case 0xE0: return next >= 0x80 && next <= 0x9F ? SJ_UTF8_OVERLONG : 0;
    case 0xED: return next >= 0xA0 && next <= 0xBF ? SJ_UTF8_SURROGATE : 0;  // U+D800..U+DFFF
    case 0xF0: return next >= 0x80 && next <= 0x8F ? SJ_UTF8_OVERLONG : 0;
    case 0xF4: return next >= 0x90 && next <= 0xBF ? SJ_UTF8_PAST_MAX : 0;
    default: return 0;
    }
}

/// The lead byte at `i` (0xC0 or more): SIZE_MAX when its form is allowed,
/// else the index of the byte that shows it is not (the reason in utf8Bad).
/// A lead whose next byte decides, as the chunk's last byte, is noted in
/// utf8Lead for the next chunk.
static inline size_t sj_check_lead(sj_parser *p, const unsigned char *bytes, size_t length, size_t i) {
    unsigned char c = bytes[i];
    if (c <= 0xC1) { p->utf8Bad = SJ_UTF8_OVERLONG; return i; }
    if (c >= 0xF5 && c <= 0xF7) { p->utf8Bad = SJ_UTF8_PAST_MAX; return i; }
    if (c == 0xE0 || c == 0xED || c == 0xF0 || c == 0xF4) {
        if (i + 1 == length) { p->utf8Lead = c; return SIZE_MAX; }
        if ((p->utf8Bad = (unsigned char)sj_utf8_second_bad(c, bytes[i + 1]))) return i + 1;
    }
    return SIZE_MAX;
}

/// Returns the index of the first byte in `bytes` that shows a UTF-8 form
/// yajl would accept but valid UTF-8 does not have (the reason in
/// utf8Bad), or SIZE_MAX. Only lead bytes (0xC0 and up) can show one: with
/// SSE2 they are found 16 bytes at a time, otherwise ASCII is skipped eight
/// bytes at a time.
static size_t sj_check_utf8(sj_parser *p, const unsigned char *bytes, size_t length) {
    size_t i = 0;
    if (p->utf8Lead && length) {
        unsigned char lead = p->utf8Lead;
        p->utf8Lead = 0;
        if ((p->utf8Bad = (unsigned char)sj_utf8_second_bad(lead, bytes[0]))) return 0;
    }
#if defined(__SSE2__)
    const __m128i top = _mm_set1_epi8((char)0xC0);
    for (; length - i >= 16; i += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
        unsigned leads = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(block, top), top));
        while (leads) {
            size_t bad = sj_check_lead(p, bytes, length, i + (size_t)__builtin_ctz(leads));
            if (bad != SIZE_MAX) return bad;
            leads &= leads - 1;
        }
    }
#endif
    while (i < length) {
        if (length - i >= 8) {
            uint64_t word;
            memcpy(&word, bytes + i, 8);
            if (!(word & 0x8080808080808080ULL)) { i += 8; continue; }
        }
        if (bytes[i] >= 0xC0) {
            size_t bad = sj_check_lead(p, bytes, length, i);
            if (bad != SIZE_MAX) return bad;
        }
        i++;
    }
    return SIZE_MAX;
}

// MARK: - Feeding

static yajl_status sj_parse_checked(sj_parser *p, const unsigned char *bytes,
                                    size_t length, uint64_t base);

/// Parses one chunk that starts at absolute offset `base`.
static inline yajl_status sj_parser_parse(sj_parser *p, const unsigned char *bytes,
                                          size_t length, uint64_t base) {
    size_t unpaired = sj_check_escapes(p, bytes, length, base);
    size_t badUTF8 = sj_check_utf8(p, bytes, unpaired == SIZE_MAX ? length : unpaired);
    if (unpaired == SIZE_MAX && badUTF8 == SIZE_MAX) return sj_parse_checked(p, bytes, length, base);
    size_t stop = badUTF8 != SIZE_MAX ? badUTF8 : unpaired;
    // yajl gets what comes before: a syntax error there is reported first.
    yajl_status status = sj_parse_checked(p, bytes, stop, base);
    p->escState = SJ_ESC_NONE;
    p->utf8Lead = 0;
    if (status != yajl_status_ok) return status;
    status = sj_feed_held(p);  // an error in the bytes held back comes first
    if (status != yajl_status_ok) return status;
    // Reported where it shows, like every syntax error: the first byte that
    // no valid document could have there.
    sj_fail(p, badUTF8 != SIZE_MAX ? SJ_ERROR_UTF8 : SJ_ERROR_SURROGATE, base + stop);
    return yajl_status_client_canceled;
}

/// sj_parser_parse, once the chunk's escapes are known to be paired.
static yajl_status sj_parse_checked(sj_parser *p, const unsigned char *bytes,
                                    size_t length, uint64_t base) {
    if (p->pendingStart == SJ_NO_POSITION) return sj_feed(p, bytes, length, base, 1);
    size_t end = sj_pending_end(p, bytes, length);
    uint64_t reach = (end == SIZE_MAX ? base + length : base + end) - p->pendingStart;
    size_t limit = p->pendingKind == '0' ? p->maxNumberLength : p->maxStringLength;
    if (reach > (uint64_t)limit + (p->pendingKind == '"' ? 2 : 0)) {
        int error = p->pendingKind == '0' ? SJ_ERROR_NUMBER_LENGTH
                  : p->pendingKind == '"' ? SJ_ERROR_STRING_LENGTH : SJ_ERROR_COMMENT_LENGTH;
        sj_fail(p, error, p->pendingStart);
        p->errorKind = SJ_KIND_OPEN_TOKEN;
        sj_forget_pending(p);
        return yajl_status_client_canceled;
    }
    if (end == SIZE_MAX) {
        if (!sj_hold(p, bytes, length, base)) {
            sj_fail(p, SJ_ERROR_MEMORY, p->pendingStart);
            sj_forget_pending(p);
            return yajl_status_client_canceled;
        }
        return yajl_status_ok;
    }
    p->resumeFrom = base + end;
    p->pendingStart = SJ_NO_POSITION;
    yajl_status status = sj_feed_held(p);
    if (status != yajl_status_ok) return status;
    return sj_feed(p, bytes, length, base, 1);
}

/// Hands yajl the bytes of a token held back, before an error found after
/// them is reported (an error in them comes first).
static inline yajl_status sj_parser_flush_held(sj_parser *p) {
    return sj_feed_held(p);
}

/// Ends the input, which is `end` bytes long.
static inline yajl_status sj_parser_complete(sj_parser *p, uint64_t end) {
    yajl_status status = sj_feed_held(p);  // a token still open: yajl reports it as truncated
    if (status != yajl_status_ok) return status;
    sj_forget_pending(p);
    p->chunk = NULL;
    p->chunkLength = 0;
    p->chunkBase = end;
    p->fed = NULL;
    p->fedLength = 0;
    p->fedBase = end;
    return yajl_complete_parse(p->yajl);
}

#endif
