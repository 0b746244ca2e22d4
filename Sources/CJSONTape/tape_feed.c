// SPDX-License-Identifier: Apache-2.0
// Feeding yajl: chunks, their checks, and tokens that go on past the end
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
#include "tape_internal.h"

// MARK: - Positions

/// The first byte of the token after `chunk[from...]`'s whitespace,
/// comments and one ',' or ':' (what yajl accepts between the boundary and
/// the next token): its absolute offset, or UINT64_MAX when the chunk ends
/// first.
uint64_t sj_scan_token_start(const sj_parser *p, size_t from) {
    int separator = 0;
    size_t i = from;
    while (i < p->input.chunkLength) {
        unsigned char c = p->input.chunk[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if ((c == ',' || c == ':') && !separator) {
            separator = 1;
            i++;
        } else if (c == '/' && i + 1 < p->input.chunkLength && (p->input.chunk[i + 1] == '*' || p->input.chunk[i + 1] == '/')) {
            // A comment (yajl rejects a '/' here unless comments are allowed).
            int line = p->input.chunk[i + 1] == '/';
            for (i += 2; i < p->input.chunkLength; i++) {
                if (line ? p->input.chunk[i] == '\n' : p->input.chunk[i] == '*' && i + 1 < p->input.chunkLength && p->input.chunk[i + 1] == '/') break;
            }
            if (i >= p->input.chunkLength) return UINT64_MAX;
            i += line ? 1 : 2;
        } else {
            return p->input.chunkBase + i;
        }
    }
    return UINT64_MAX;
}

/// Absolute offset of a string's first byte (its opening quote). yajl hands
/// out a pointer into the chunk, or a copy when the string had escapes or
/// spanned chunks: then it is the first token after the boundary, found in
/// this chunk or noted at the end of the one it began in.
uint64_t sj_string_position(sj_parser *p, const unsigned char *bytes) {
    if (bytes > p->input.chunk && bytes <= p->input.chunk + p->input.chunkLength)
        return p->input.chunkBase + (uint64_t)(bytes - p->input.chunk) - 1;
    uint64_t start = UINT64_MAX;
    if (p->location.boundary >= p->input.chunkBase) start = sj_scan_token_start(p, (size_t)(p->location.boundary - p->input.chunkBase));
    else if (p->location.notedStart != UINT64_MAX && p->location.notedStart >= p->location.boundary) start = p->location.notedStart;
    else start = sj_scan_token_start(p, 0);
    return start != UINT64_MAX ? start : sj_end(p);  // (a comment ran across chunks before it)
}

// MARK: - Restarting

static yajl_status sj_feed(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base, int follow);

/// Forgets the token held back, if any.
static inline void sj_forget_pending(sj_parser *p) {
    p->pending.pendingStart = SJ_NO_POSITION;
    p->pending.heldCount = 0;
    if (p->pending.heldCapacity > (1u << 20)) {  // do not keep a huge token's buffer
        free(p->pending.held);
        p->pending.held = NULL;
        p->pending.heldCapacity = 0;
    }
}

/// Forgets the element in progress and starts a new yajl handle (JSON Lines
/// resynchronizing after a syntax error). Complete elements stay.
void sj_parser_restart(sj_parser *p) {
    sj_parser_open(p);
    p->tape.tokenCount = p->tape.completeEnd.token;
    p->tape.arenaCount = p->tape.completeEnd.arena;
    p->framing.depth = 0;
    p->framing.skipping = 0;
    p->projection.skipMember = 0;
    p->location.error = SJ_OK;
    p->location.errorKind = 0;
    p->location.restarted = 1;
    p->location.notedStart = SJ_NO_POSITION;
    p->pending.resumeFrom = 0;
    p->checks.escState = 0;
    p->checks.utf8Lead = 0;
    sj_forget_pending(p);
}

/// Forgets the element in progress and starts a new yajl handle standing
/// inside the target array, fed `opening` (the target's `[`, after the key
/// path's objects: `{"items":[`) as if it ended at `base + length`. The
/// handle follows the key path from the top again; following roots, the
/// mark it makes on opening the target is taken back, since the target is
/// the one already open. Complete elements and their count stay.
yajl_status sj_parser_reenter(sj_parser *p, const unsigned char *opening, size_t length, uint64_t base,
                              int allowsComments) {
    sj_parser_restart(p);
    if (!p->yajl) return yajl_status_error;
    yajl_config(p->yajl, yajl_allow_comments, allowsComments ? 1 : 0);
    p->framing.inTarget = 0;
    p->framing.targetDone = 0;
    p->framing.wholeTarget = 0;
    p->framing.frameDepth = 0;
    p->framing.pathDepth = 0;
    p->framing.expect = 1;
    if (p->framing.followsRoots) {  // more documents may follow this one
        p->framing.mode = SJ_MODE_ROOTS;
        yajl_config(p->yajl, yajl_allow_multiple_values, 1);
    }
    sj_element kept = p->tape.completeEnd;
    size_t elements = p->tape.elementCount;
    uint64_t completed = p->tape.completedElements;
    yajl_status status = sj_feed(p, opening, length, base, 0);
    p->tape.elementCount = elements;
    p->tape.completedElements = completed;
    p->tape.completeEnd = kept;
    p->tape.tokenCount = kept.token;
    p->tape.arenaCount = kept.arena;
    return status;
}

// MARK: - Tokens across chunks

/// Where the token in progress ends in `bytes`: the index just past it, or
/// SIZE_MAX when it goes on past them.
static size_t sj_pending_end(sj_parser *p, const unsigned char *bytes, size_t length) {
    switch (p->pending.pendingKind) {
    case '"':
        for (size_t i = 0; i < length; i++) {
            if (p->pending.pendingState) {  // the byte after a backslash
                p->pending.pendingState = 0;
                if (bytes[i] < 0x20) return i + 1;  // never a valid escape (a line break): reported now
            } else if (bytes[i] == '\\') p->pending.pendingState = 1;
            else if (bytes[i] == '"') return i + 1;
            else if (bytes[i] < 0x20) return i + 1;  // not allowed raw: yajl reports it now
        }
        return SIZE_MAX;
    case '/':
        for (size_t i = 0; i < length; i++) {
            unsigned char c = bytes[i];
            if (p->pending.pendingState == 0) {  // the byte after the first slash
                if (c != '/' && c != '*') return i;  // not a comment: yajl reports it
                p->pending.pendingState = c;
            } else if (p->pending.pendingState == '/') {
                if (c == '\n') return i + 1;
            } else {
                if (p->pending.pendingStar && c == '/') return i + 1;
                p->pending.pendingStar = c == '*';
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
    uint64_t from = p->location.boundary > p->pending.resumeFrom ? p->location.boundary : p->pending.resumeFrom;
    size_t i = from > base ? (size_t)(from - base) : 0;
    p->pending.pendingStart = SJ_NO_POSITION;
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
        p->pending.pendingKind = c == '"' || c == '/' ? c : '0';
        p->pending.pendingState = 0;
        p->pending.pendingStar = 0;
        size_t end = sj_pending_end(p, bytes + i + 1, length - i - 1);
        if (end == SIZE_MAX) {
            p->pending.pendingStart = base + i;
            return;
        }
        i += 1 + end;  // a whole comment
    }
}

/// Appends a chunk to the bytes held back.
static int sj_hold(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base) {
    if (p->pending.heldCount == 0) p->pending.heldBase = base;
    if (p->pending.heldCapacity - p->pending.heldCount < length &&
        !sj_grow((void **)&p->pending.held, &p->pending.heldCapacity, p->pending.heldCount + length, 1))
        return 0;
    memcpy(p->pending.held + p->pending.heldCount, bytes, length);
    p->pending.heldCount += length;
    return 1;
}

/// One call of yajl_parse; `follow` looks for a token left open at the end.
static yajl_status sj_feed(sj_parser *p, const unsigned char *bytes, size_t length,
                           uint64_t base, int follow) {
    p->input.chunk = bytes;
    p->input.chunkLength = length;
    p->input.chunkBase = base;
    p->input.fed = bytes;
    p->input.fedLength = length;
    p->input.fedBase = base;
    if (p->location.restarted) {  // the new handle begins here
        p->location.boundary = base;
        p->location.boundarySeparated = 0;
        p->location.restarted = 0;
    }
    yajl_status status = yajl_parse(p->yajl, bytes, length);
    // Note where a token still in progress began (sj_string_position).
    if (p->location.boundary >= base) p->location.notedStart = sj_scan_token_start(p, (size_t)(p->location.boundary - base));
    else if (p->location.notedStart == SJ_NO_POSITION || p->location.notedStart < p->location.boundary) p->location.notedStart = sj_scan_token_start(p, 0);
    if (status == yajl_status_ok && follow) sj_find_pending(p, bytes, length, base);
    p->input.chunk = NULL;
    p->input.chunkLength = 0;
    return status;
}

/// Hands yajl the bytes held back, if any.
static yajl_status sj_feed_held(sj_parser *p) {
    if (p->pending.heldCount == 0) return yajl_status_ok;
    size_t count = p->pending.heldCount;
    p->pending.heldCount = 0;
    return sj_feed(p, p->pending.held, count, p->pending.heldBase, 0);
}

// MARK: - Feeding

static yajl_status sj_parse_checked(sj_parser *p, const unsigned char *bytes,
                                    size_t length, uint64_t base);

/// Parses one chunk that starts at absolute offset `base`.
yajl_status sj_parser_parse(sj_parser *p, const unsigned char *bytes,
                           size_t length, uint64_t base) {
    size_t unpaired = sj_check_escapes(p, bytes, length, base);
    size_t badUTF8 = sj_check_utf8(p, bytes, unpaired == SIZE_MAX ? length : unpaired);
    if (unpaired == SIZE_MAX && badUTF8 == SIZE_MAX) return sj_parse_checked(p, bytes, length, base);
    size_t stop = badUTF8 != SIZE_MAX ? badUTF8 : unpaired;
    // yajl gets what comes before: a syntax error there is reported first.
    yajl_status status = sj_parse_checked(p, bytes, stop, base);
    p->checks.escState = SJ_ESC_NONE;
    p->checks.utf8Lead = 0;
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
    if (p->pending.pendingStart == SJ_NO_POSITION) return sj_feed(p, bytes, length, base, 1);
    size_t end = sj_pending_end(p, bytes, length);
    uint64_t reach = (end == SIZE_MAX ? base + length : base + end) - p->pending.pendingStart;
    size_t limit = p->pending.pendingKind == '0' ? p->limits.maxNumberLength : p->limits.maxStringLength;
    if (reach > (uint64_t)limit + (p->pending.pendingKind == '"' ? 2 : 0)) {
        int error = p->pending.pendingKind == '0' ? SJ_ERROR_NUMBER_LENGTH
                  : p->pending.pendingKind == '"' ? SJ_ERROR_STRING_LENGTH : SJ_ERROR_COMMENT_LENGTH;
        sj_fail(p, error, p->pending.pendingStart);
        p->location.errorKind = SJ_KIND_OPEN_TOKEN;
        sj_forget_pending(p);
        return yajl_status_client_canceled;
    }
    if (end == SIZE_MAX) {
        if (!sj_hold(p, bytes, length, base)) {
            sj_fail(p, SJ_ERROR_MEMORY, p->pending.pendingStart);
            sj_forget_pending(p);
            return yajl_status_client_canceled;
        }
        return yajl_status_ok;
    }
    p->pending.resumeFrom = base + end;
    p->pending.pendingStart = SJ_NO_POSITION;
    yajl_status status = sj_feed_held(p);
    if (status != yajl_status_ok) return status;
    return sj_feed(p, bytes, length, base, 1);
}

/// Hands yajl the bytes of a token held back, before an error found after
/// them is reported (an error in them comes first).
yajl_status sj_parser_flush_held(sj_parser *p) {
    return sj_feed_held(p);
}

/// Ends the input, which is `end` bytes long.
yajl_status sj_parser_complete(sj_parser *p, uint64_t end) {
    yajl_status status = sj_feed_held(p);  // a token still open: yajl reports it as truncated
    if (status != yajl_status_ok) return status;
    sj_forget_pending(p);
    p->input.chunk = NULL;
    p->input.chunkLength = 0;
    p->input.chunkBase = end;
    p->input.fed = NULL;
    p->input.fedLength = 0;
    p->input.fedBase = end;
    return yajl_complete_parse(p->yajl);
}
