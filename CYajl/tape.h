// SPDX-License-Identifier: Apache-2.0
// The tape: yajl's events, recorded by C callbacks so that no Swift code runs
// per token while yajl parses.
//
// Layout
// ------
//   tokens  [ sj_token ... ]     16 bytes each, in document order
//   arena   [ bytes ... ]        the bytes of every string, key and number
//   elements[ sj_element ... ]   where each complete streamed element starts
//
//   sj_token.word   bits 56..63  kind (SJ_NULL ... SJ_OBJECT)
//                   bits  0..55  absolute byte offset of the value's first
//                                byte in the input
//   sj_token.a      string, key, number: offset of the bytes in the arena
//                   array, object:       number of tokens inside (its span)
//   sj_token.b      string, key, number: byte length
//                   array, object:       number of elements / members
//
// Containers have no closing token: `a` skips over the contents. An object's
// contents are key, value, key, value... A string's bytes are already
// unescaped and, with yajl's UTF-8 validation on, valid UTF-8.
//
// Framing
// -------
// The parser streams the elements of one *target*: the root array, the array
// (or object) found at a key path, or every top-level value (JSON Lines).
// Only values inside the target, at depth >= frameDepth, are recorded; the
// rest is parsed for validity and skipped. When a value at frameDepth ends,
// the element is complete and its start is appended to `elements`. Swift
// decodes complete elements, then drops them with sj_parser_drop_elements,
// which moves what remains (the element in progress) to the front, so tape
// memory is bounded by one chunk's elements plus the largest element.
//
// yajl cannot pause (a callback returning 0 cancels the parse for good), so a
// chunk is always parsed to its end and every element it completes is queued.
#ifndef CYAJL_TAPE_H
#define CYAJL_TAPE_H

#include <yajl/yajl_parse.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    SJ_NULL = 0, SJ_FALSE = 1, SJ_TRUE = 2, SJ_NUMBER = 3,
    SJ_STRING = 4, SJ_KEY = 5, SJ_ARRAY = 6, SJ_OBJECT = 7,
    /// Stands for an element that passed maxElementBytes: it was parsed but
    /// not recorded. Its position is the element's first byte.
    SJ_OVERSIZED = 8,
    /// SJ_MODE_ROOTS only: an element of one token that says what the next
    /// elements are (a = SJ_MARK_*, b = keys of the path followed).
    SJ_MARK = 9
};

/// What is streamed.
enum {
    /// The root value. A root array is the target (its elements are streamed);
    /// any other root value is one element.
    SJ_MODE_DOCUMENT = 0,
    /// The elements of the array at the path (root when the path is empty).
    SJ_MODE_ARRAY = 1,
    /// Every top-level value (JSON Lines, concatenated JSON).
    SJ_MODE_LINES = 2,
    /// The members of the object at the path: each element is a key token
    /// followed by its value.
    SJ_MODE_MEMBERS = 3,
    /// Every top-level value, each followed along the path to its target: a
    /// target array's elements or a target object's members are streamed
    /// (the parser runs as ARRAY or MEMBERS inside it), anything else met on
    /// the way is one element; SJ_MARK elements say which (jsonstream --jq).
    SJ_MODE_ROOTS = 4,
    /// Every token is an element of its own, for jq's --stream events: a
    /// scalar, a key, a container's opening token (a and b 0), and an
    /// SJ_MARK_END element when it closes. Nothing is ever held back, so
    /// memory stays bounded by the nesting depth whatever the value's size.
    SJ_MODE_EVENTS = 5
};

/// What an SJ_MARK element announces in SJ_MODE_ROOTS.
enum {
    SJ_MARK_ARRAY = 1,    // the target is an array: its elements follow, then SJ_MARK_END
    SJ_MARK_OBJECT = 2,   // the target is an object: its members follow, then SJ_MARK_END
    SJ_MARK_END = 3,      // the target's last element or member was the one before
    SJ_MARK_WHOLE = 4,    // the next element is the value reached after b keys (b < pathCount:
                          // not an object, so the path stops there)
    SJ_MARK_MISSING = 5,  // the object reached after b keys has no member path[b]
    SJ_MARK_ROOT_END = 6  // the top-level value ends here (its position: the byte after it)
};

/// Why a callback stopped the parse (yajl then reports "client cancelled").
enum {
    SJ_OK = 0,
    SJ_ERROR_DEPTH = 1,            // nesting deeper than maxDepth
    SJ_ERROR_NUMBER_LENGTH = 2,    // number literal longer than maxNumberLength
    SJ_ERROR_STRING_LENGTH = 3,    // string or key longer than maxStringLength
    // 4 is unused: an element over maxElementBytes leaves an SJ_OVERSIZED marker instead
    SJ_ERROR_NOT_ARRAY = 5,        // the target is not an array (object for MEMBERS)
    SJ_ERROR_PATH_NOT_OBJECT = 6,  // a value on the key path is not an object
    SJ_ERROR_MEMORY = 7,           // allocation failed
    SJ_ERROR_TOO_LARGE = 8,        // an element needs more than 4 G tokens or arena bytes
    SJ_ERROR_COMMENT_LENGTH = 9,   // a comment longer than maxStringLength
    SJ_ERROR_SURROGATE = 10,       // a \u escape of an unpaired UTF-16 surrogate
    SJ_ERROR_UTF8 = 11             // a UTF-8 form yajl lets through: overlong, surrogate, past U+10FFFF
};

#define SJ_NO_POSITION UINT64_MAX
/// errorKind of a length error raised on a token still open (tape_feed.h):
/// its position is the token's first byte, not the end of a whole string.
#define SJ_KIND_OPEN_TOKEN 255

#define SJ_NO_TOKEN UINT32_MAX
#define SJ_POSITION_MASK 0x00FFFFFFFFFFFFFFull

typedef struct sj_token {
    uint64_t word;
    uint32_t a;
    uint32_t b;
} sj_token;

typedef struct sj_element {
    uint32_t token;   // index of the element's first token
    uint32_t arena;   // arena offset where its bytes start
} sj_element;

typedef struct sj_frame {
    uint32_t token;   // the container's token, or SJ_NO_TOKEN when not recorded
    uint32_t count;   // values begun inside it so far
} sj_frame;

typedef struct sj_parser {
    yajl_handle yajl;

    sj_token *tokens;
    size_t tokenCount, tokenCapacity;
    unsigned char *arena;
    size_t arenaCount, arenaCapacity;
    sj_element *elements;
    size_t elementCount, elementCapacity;
    sj_element current;              // start of the element in progress
    sj_element completeEnd;          // end of the last complete element
    uint64_t currentPosition;        // its first byte
    uint64_t completedElements;      // elements completed since the start

    sj_frame *frames;
    size_t depth, frameCapacity;

    // Framing: recording while inTarget && depth >= frameDepth.
    int mode;
    size_t frameDepth;
    int inTarget, targetDone;
    // SJ_MODE_ROOTS: `mode` is ARRAY or MEMBERS inside a target and ROOTS
    // elsewhere; wholeTarget is set while a value is recorded whole.
    int followsRoots, wholeTarget;
    // SJ_MODE_EVENTS: nothing is ever "in the target"; every token goes
    // through the callbacks' general paths and becomes an element.
    int recordsEvents;
    // The element in progress passed maxElementBytes: parse it, record nothing.
    int skipping;
    // Key path: pathDepth objects along the path are open; `expect` says the
    // next value begun is the one the path leads to so far.
    const unsigned char *const *pathKeys;
    const size_t *pathLengths;
    size_t pathCount, pathDepth;
    int expect;

    // Projection: when projecting, an element that is an object keeps
    // only the members whose keys are listed; the others are parsed but not
    // recorded (nor counted). skipMember is set while one is being skipped,
    // memberDepth is the depth of its key.
    const unsigned char *const *memberKeys;
    const size_t *memberLengths;
    size_t memberCount;
    // One bit per listed key, from its length and first byte (sj_key_bit):
    // most keys an element has are not listed, and this rejects them
    // without comparing against each listed key.
    uint64_t memberBits;
    int projecting;
    int skipMember;
    size_t memberDepth;

    // The chunk yajl is parsing: its absolute offset, for positions.
    uint64_t chunkBase;
    const unsigned char *chunk;
    size_t chunkLength;

    size_t maxDepth, maxNumberLength, maxStringLength;
    uint64_t maxElementBytes;        // 0: no limit

    // A token that goes on past the end of a chunk (tape_feed.h).
    // resumeFrom is the end of the last token held back. The token still open
    // begins at pendingStart (SJ_NO_POSITION: none); pendingKind is its
    // first byte ('0' for any number); pendingState carries a string's
    // backslash or a comment's kind and star across chunks. While it is
    // longer than a chunk, its bytes wait in `held` (from heldBase), and
    // yajl gets them at once when it ends.
    uint64_t resumeFrom, pendingStart;
    unsigned char pendingKind, pendingState, pendingStar;
    unsigned char *held;
    size_t heldCount, heldCapacity;
    uint64_t heldBase;
    // \u escapes, followed through every chunk before yajl sees it: an
    // unpaired surrogate is an error (tape_feed.h). escState is where in an
    // escape the last chunk ended, escStart the absolute offset of the
    // escape's backslash, escUnit the code unit read so far.
    unsigned char escState, escDigits;
    unsigned int escUnit;
    uint64_t escStart;
    // Strict UTF-8 (tape_feed.h): a lead byte whose next byte decides
    // whether the sequence is allowed, seen as the last byte of a chunk (0:
    // none); utf8Bad why the form was refused (SJ_UTF8_*), for the message.
    unsigned char utf8Lead, utf8Bad;
    // The bytes of the last yajl_parse call, for locating its errors.
    const unsigned char *fed;
    size_t fedLength;
    uint64_t fedBase;

    int error;
    uint64_t errorPosition;
    int errorKind;                   // the value found, for the target/path errors

    // Just past the last token handed to a callback (or where a restarted
    // handle began): a token boundary, from which Swift lexes forward to the
    // token yajl rejects (yajl's own offset for it is sometimes its end,
    // sometimes its end less its length, and clamped to the chunk). After a
    // key or a value inside a container (boundarySeparated), a ',' or ':' may
    // have been accepted before the rejected token.
    uint64_t boundary;
    int boundarySeparated;
    int restarted;
    // The first byte of the token after the boundary, as found at the end of
    // the chunk it began in (UINT64_MAX: not known): where a string that yajl
    // copies out of several chunks begins.
    uint64_t notedStart;
} sj_parser;

// MARK: - Growth (slow paths)

static inline int sj_fail(sj_parser *p, int error, uint64_t position) {
    if (p->error == SJ_OK) { p->error = error; p->errorPosition = position; }
    return 0;
}

static int sj_grow(void **buffer, size_t *capacity, size_t needed, size_t itemSize) {
    size_t capacity2 = *capacity ? *capacity : 64;
    while (capacity2 < needed) {
        if (capacity2 > SIZE_MAX / 2 / itemSize) return 0;
        capacity2 *= 2;
    }
    void *grown = realloc(*buffer, capacity2 * itemSize);
    if (!grown) return 0;
    *buffer = grown;
    *capacity = capacity2;
    return 1;
}

// MARK: - Cache lines of its own

// A parser often runs on a thread of its own while another thread decodes,
// allocating and freeing small objects all the time. Memory from the same
// malloc arena as those objects can share a cache line with them, and every
// write on one side then evicts the line from the other core: yajl's handle,
// lexer and buffers, written on every token, ran at half their speed so. So
// the parser's state and everything yajl allocates get whole cache lines
// (128 bytes: adjacent-line prefetching pairs 64-byte lines).

#define SJ_LINE 128

/// A block of whole cache lines; its size is kept in the line before it.
static void *sj_lines_malloc(void *ctx, size_t size) {
    (void)ctx;
    if (size > SIZE_MAX - 2 * SJ_LINE) return NULL;
    size_t total = SJ_LINE + ((size + SJ_LINE - 1) / SJ_LINE) * SJ_LINE;
    void *block = NULL;
    if (posix_memalign(&block, SJ_LINE, total) != 0) return NULL;
    *(size_t *)block = size;
    return (unsigned char *)block + SJ_LINE;
}

static void sj_lines_free(void *ctx, void *pointer) {
    (void)ctx;
    if (pointer) free((unsigned char *)pointer - SJ_LINE);
}

static void *sj_lines_realloc(void *ctx, void *pointer, size_t size) {
    if (!pointer) return sj_lines_malloc(ctx, size);
    size_t old = *(size_t *)((unsigned char *)pointer - SJ_LINE);
    void *grown = sj_lines_malloc(ctx, size);
    if (!grown) return NULL;
    memcpy(grown, pointer, old < size ? old : size);
    sj_lines_free(ctx, pointer);
    return grown;
}

static yajl_alloc_funcs sj_line_allocator = { sj_lines_malloc, sj_lines_realloc, sj_lines_free, NULL };

/// yajl_alloc with every allocation on cache lines of its own.
static inline yajl_handle sj_yajl_alloc(const yajl_callbacks *callbacks, void *ctx) {
    return yajl_alloc(callbacks, &sj_line_allocator, ctx);
}

// MARK: - Positions

/// Absolute offset of the end of the token yajl just lexed.
static inline uint64_t sj_end(sj_parser *p) {
    return p->chunkBase + (uint64_t)yajl_get_bytes_consumed(p->yajl);
}

/// The first byte of the token after `chunk[from...]`'s whitespace,
/// comments and one ',' or ':' (what yajl accepts between the boundary and
/// the next token): its absolute offset, or UINT64_MAX when the chunk ends
/// first.
static uint64_t sj_scan_token_start(const sj_parser *p, size_t from) {
    int separator = 0;
    size_t i = from;
    while (i < p->chunkLength) {
        unsigned char c = p->chunk[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if ((c == ',' || c == ':') && !separator) {
            separator = 1;
            i++;
        } else if (c == '/' && i + 1 < p->chunkLength && (p->chunk[i + 1] == '*' || p->chunk[i + 1] == '/')) {
            // A comment (yajl rejects a '/' here unless comments are allowed).
            int line = p->chunk[i + 1] == '/';
            for (i += 2; i < p->chunkLength; i++) {
                if (line ? p->chunk[i] == '\n' : p->chunk[i] == '*' && i + 1 < p->chunkLength && p->chunk[i + 1] == '/') break;
            }
            if (i >= p->chunkLength) return UINT64_MAX;
            i += line ? 1 : 2;
        } else {
            return p->chunkBase + i;
        }
    }
    return UINT64_MAX;
}

/// Absolute offset of a string's first byte (its opening quote). yajl hands
/// out a pointer into the chunk, or a copy when the string had escapes or
/// spanned chunks: then it is the first token after the boundary, found in
/// this chunk or noted at the end of the one it began in.
static inline uint64_t sj_string_position(sj_parser *p, const unsigned char *bytes) {
    if (bytes > p->chunk && bytes <= p->chunk + p->chunkLength)
        return p->chunkBase + (uint64_t)(bytes - p->chunk) - 1;
    uint64_t start = UINT64_MAX;
    if (p->boundary >= p->chunkBase) start = sj_scan_token_start(p, (size_t)(p->boundary - p->chunkBase));
    else if (p->notedStart != UINT64_MAX && p->notedStart >= p->boundary) start = p->notedStart;
    else start = sj_scan_token_start(p, 0);
    return start != UINT64_MAX ? start : sj_end(p);  // (a comment ran across chunks before it)
}

// MARK: - Recording

static inline int sj_recording(const sj_parser *p) {
    return p->inTarget && p->depth >= p->frameDepth && !p->skipping;
}

#define SJ_HOT static inline __attribute__((always_inline))
#define SJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define SJ_UNLIKELY(x) __builtin_expect(!!(x), 0)

static int sj_root_end(sj_parser *p);

static inline void sj_element_begin(sj_parser *p, uint64_t position) {
    p->current.token = (uint32_t)p->tokenCount;
    p->current.arena = (uint32_t)p->arenaCount;
    p->currentPosition = position;
}

static inline int sj_element_end(sj_parser *p) {
    if (p->elementCount == p->elementCapacity &&
        !sj_grow((void **)&p->elements, &p->elementCapacity, p->elementCount + 1, sizeof(sj_element)))
        return sj_fail(p, SJ_ERROR_MEMORY, p->currentPosition);
    p->elements[p->elementCount++] = p->current;
    p->completeEnd.token = (uint32_t)p->tokenCount;
    p->completeEnd.arena = (uint32_t)p->arenaCount;
    p->completedElements++;
    if (SJ_UNLIKELY(p->wholeTarget)) {
        p->wholeTarget = 0;
        p->inTarget = 0;
        p->targetDone = 1;
        if (p->depth == 0) return sj_root_end(p);
    }
    return 1;
}

SJ_HOT int sj_append(sj_parser *p, uint8_t kind, uint64_t position,
                     const unsigned char *bytes, size_t length);

/// The element in progress passed maxElementBytes: forget what was recorded
/// of it (keeping an object member's key), leave a marker in its place, and
/// parse the rest of it without recording. The stream goes on after it.
/// Returns 2 when the element ended here (a scalar), 1 when the rest is skipped.
static int sj_oversized(sj_parser *p, int atKey) {
    size_t keep = p->current.token, arena = p->current.arena;
    if (p->mode == SJ_MODE_MEMBERS && p->tokenCount > keep) {
        arena = p->tokens[keep].a + p->tokens[keep].b;
        keep += 1;
    }
    p->tokenCount = keep;
    p->arenaCount = arena;
    for (size_t i = p->frameDepth; i < p->depth; i++) p->frames[i].token = SJ_NO_TOKEN;
    uint64_t maxBytes = p->maxElementBytes;
    p->maxElementBytes = 0;
    int ok = sj_append(p, SJ_OVERSIZED, p->currentPosition, NULL, 0);
    p->maxElementBytes = maxBytes;
    if (!ok) return 0;
    if (p->depth == p->frameDepth && !atKey) return sj_element_end(p) ? 2 : 0;
    p->skipping = 1;
    return 1;
}

/// Copies a token's bytes, 16 at most: most are a few bytes long, where a
/// call to memcpy costs more than the copy.
SJ_HOT void sj_copy_short(unsigned char *to, const unsigned char *from, size_t length) {
    if (length >= 8) {
        uint64_t head, tail;
        memcpy(&head, from, 8);
        memcpy(&tail, from + length - 8, 8);
        memcpy(to, &head, 8);
        memcpy(to + length - 8, &tail, 8);
    } else if (length >= 4) {
        uint32_t head, tail;
        memcpy(&head, from, 4);
        memcpy(&tail, from + length - 4, 4);
        memcpy(to, &head, 4);
        memcpy(to + length - 4, &tail, 4);
    } else if (length > 0) {
        // 1 to 3 bytes: the first, middle and last cover them, with no loop.
        unsigned char first = from[0], middle = from[length >> 1], last = from[length - 1];
        to[0] = first;
        to[length >> 1] = middle;
        to[length - 1] = last;
    }
}

/// A longer token's copy, out of line and returning sj_append's result, so
/// that sj_append calls it in tail position: a call in its middle (memcpy)
/// made every callback save and restore registers, long token or not.
static __attribute__((noinline)) int sj_copy_long(unsigned char *to, const unsigned char *from, size_t length) {
    memcpy(to, from, length);
    return 1;
}

static inline void sj_copy(unsigned char *to, const unsigned char *from, size_t length) {
    if (length > 16) memcpy(to, from, length);
    else sj_copy_short(to, from, length);
}

/// sj_append's general case: an element limit, a full token buffer or arena.
static __attribute__((noinline)) int sj_append_slow(sj_parser *p, uint8_t kind, uint64_t position,
                                                   const unsigned char *bytes, size_t length) {
    if (p->maxElementBytes && position + length - p->currentPosition > p->maxElementBytes)
        return sj_oversized(p, kind == SJ_KEY && p->depth == p->frameDepth);
    if (p->tokenCount == p->tokenCapacity) {
        if (p->tokenCount >= SJ_NO_TOKEN) return sj_fail(p, SJ_ERROR_TOO_LARGE, position);
        if (!sj_grow((void **)&p->tokens, &p->tokenCapacity, p->tokenCount + 1, sizeof(sj_token)))
            return sj_fail(p, SJ_ERROR_MEMORY, position);
    }
    sj_token *t = &p->tokens[p->tokenCount++];
    t->word = ((uint64_t)kind << 56) | (position & SJ_POSITION_MASK);
    if (bytes) {
        if (p->arenaCapacity - p->arenaCount < length) {
            if (p->arenaCount + length > UINT32_MAX) return sj_fail(p, SJ_ERROR_TOO_LARGE, position);
            if (!sj_grow((void **)&p->arena, &p->arenaCapacity, p->arenaCount + length, 1))
                return sj_fail(p, SJ_ERROR_MEMORY, position);
        }
        sj_copy(p->arena + p->arenaCount, bytes, length);
        t->a = (uint32_t)p->arenaCount;
        t->b = (uint32_t)length;
        p->arenaCount += length;
    } else {
        t->a = 0;
        t->b = 0;
    }
    return 1;
}

/// Appends a token (and its bytes) to the tape. The usual case, with room
/// and no element limit, calls nothing, so that the callbacks it is inlined
/// into need no registers saved (their prologues were a fifth of their cost).
SJ_HOT int sj_append(sj_parser *p, uint8_t kind, uint64_t position,
                     const unsigned char *bytes, size_t length) {
    if (SJ_UNLIKELY(p->maxElementBytes || p->tokenCount == p->tokenCapacity ||
                    (bytes && p->arenaCapacity - p->arenaCount < length)))
        return sj_append_slow(p, kind, position, bytes, length);
    sj_token *t = &p->tokens[p->tokenCount++];
    t->word = ((uint64_t)kind << 56) | (position & SJ_POSITION_MASK);
    if (bytes) {
        size_t offset = p->arenaCount;
        p->arenaCount = offset + length;
        t->a = (uint32_t)offset;
        t->b = (uint32_t)length;
        if (length > 16) return sj_copy_long(p->arena + offset, bytes, length);
        sj_copy_short(p->arena + offset, bytes, length);
    } else {
        t->a = 0;
        t->b = 0;
    }
    return 1;
}

// MARK: - Outside the target: following the key path

enum { SJ_SKIP = 0, SJ_RECORD = 1, SJ_OPEN_TARGET = 2, SJ_OPEN_PATH = 3, SJ_STOP = -1 };

/// Whether `length` bytes at `a` and `b` are equal: inline, since keys are
/// short and a call to memcmp per candidate cost more than the comparison.
static inline int sj_bytes_equal(const unsigned char *a, const unsigned char *b, size_t length) {
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) return 0;
    }
    for (; i < length; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static inline int sj_key_matches(const sj_parser *p, const unsigned char *key, size_t length) {
    size_t index = p->pathDepth - 1;
    return p->pathLengths[index] == length && sj_bytes_equal(p->pathKeys[index], key, length);
}

/// A value begins outside the recorded region: decides what it is.
/// SJ_MODE_ROOTS: appends an element of one SJ_MARK token.
static int sj_mark(sj_parser *p, int what, size_t keys, uint64_t position) {
    sj_element_begin(p, position);
    if (!sj_append(p, SJ_MARK, position, NULL, 0)) return 0;
    p->tokens[p->tokenCount - 1].a = (uint32_t)what;
    p->tokens[p->tokenCount - 1].b = (uint32_t)keys;
    return sj_element_end(p);
}

/// SJ_MODE_ROOTS: a top-level value ended.
static int sj_root_end(sj_parser *p) {
    return sj_mark(p, SJ_MARK_ROOT_END, 0, sj_end(p));
}

/// SJ_MODE_ROOTS: the value met is recorded whole, as one element.
static int sj_record_whole(sj_parser *p, size_t keys, uint64_t position) {
    if (!sj_mark(p, SJ_MARK_WHOLE, keys, position)) return SJ_STOP;
    p->inTarget = 1;
    p->wholeTarget = 1;
    p->frameDepth = p->depth;
    return SJ_RECORD;
}

/// SJ_MODE_ROOTS: the target (an array or object at the end of the path) opens.
static int sj_open_roots_target(sj_parser *p, uint8_t kind, uint64_t position) {
    if (kind != SJ_ARRAY && kind != SJ_OBJECT) return sj_record_whole(p, p->pathCount, position);
    if (!sj_mark(p, kind == SJ_ARRAY ? SJ_MARK_ARRAY : SJ_MARK_OBJECT, p->pathCount, position)) return SJ_STOP;
    p->mode = kind == SJ_ARRAY ? SJ_MODE_ARRAY : SJ_MODE_MEMBERS;
    return SJ_OPEN_TARGET;
}

/// SJ_MODE_EVENTS: one token as an element of its own.
static int sj_event(sj_parser *p, uint8_t kind, uint64_t position, const unsigned char *bytes, size_t length) {
    sj_element_begin(p, position);
    if (!sj_append(p, kind, position, bytes, length)) return 0;
    return sj_element_end(p);
}

static int sj_outside_value(sj_parser *p, uint8_t kind, uint64_t position) {
    if (p->recordsEvents) return sj_event(p, kind, position, NULL, 0) ? SJ_SKIP : SJ_STOP;  // an opening
    if (p->followsRoots && p->depth == 0) {  // a new top-level value: follow the path again
        p->expect = 1;
        p->pathDepth = 0;
        p->targetDone = 0;
    }
    if (!p->expect) return SJ_SKIP;
    p->expect = 0;
    p->errorKind = kind;
    if (p->pathDepth < p->pathCount) {
        if (kind != SJ_OBJECT) {
            if (p->followsRoots) return sj_record_whole(p, p->pathDepth, position);
            sj_fail(p, SJ_ERROR_PATH_NOT_OBJECT, position);
            return SJ_STOP;
        }
        return SJ_OPEN_PATH;
    }
    if (p->followsRoots) return sj_open_roots_target(p, kind, position);
    // This value is the target.
    int wanted = p->mode == SJ_MODE_MEMBERS ? SJ_OBJECT : SJ_ARRAY;
    if (kind == wanted) return SJ_OPEN_TARGET;
    if (p->mode == SJ_MODE_DOCUMENT) {
        // A root that is not an array is decoded as one element.
        p->inTarget = 1;
        p->frameDepth = 0;
        return SJ_RECORD;
    }
    sj_fail(p, SJ_ERROR_NOT_ARRAY, position);
    return SJ_STOP;
}

// MARK: - Callbacks

SJ_HOT int sj_scalar(sj_parser *p, uint8_t kind, uint64_t position,
                            const unsigned char *bytes, size_t length) {
    if (p->skipMember) {  // inside a member the projection leaves out
        if (p->depth == p->memberDepth) p->skipMember = 0;
        return 1;
    }
    if (p->depth) p->frames[p->depth - 1].count++;
    if (p->skipping && p->depth == p->frameDepth) {  // the value of an oversized member's key
        p->skipping = 0;
        return sj_element_end(p);
    }
    if (!sj_recording(p)) {
        if (p->recordsEvents) return sj_event(p, kind, position, bytes, length);
        int action = sj_outside_value(p, kind, position);
        if (action == SJ_STOP) return 0;
        if (action != SJ_RECORD) return 1;
    }
    int startsElement = p->depth == p->frameDepth;
    if (startsElement && p->mode != SJ_MODE_MEMBERS) sj_element_begin(p, position);
    int appended = sj_append(p, kind, position, bytes, length);
    if (appended != 1) return appended != 0;  // failed, or an oversized element already ended
    return startsElement ? sj_element_end(p) : 1;
}

/// sj_scalar out of line, for the busiest callbacks' unusual cases: called
/// in tail position, it leaves their fast paths without a stack frame.
static __attribute__((noinline)) int sj_scalar_general(sj_parser *p, uint8_t kind, uint64_t position,
                                                      const unsigned char *bytes, size_t length) {
    return sj_scalar(p, kind, position, bytes, length);
}

static int sj_on_null(void *ctx) {
    sj_parser *p = (sj_parser *)ctx;
    p->boundary = sj_end(p);
    p->boundarySeparated = p->depth > 0;
    return sj_scalar(p, SJ_NULL, p->boundary - 4, NULL, 0);
}

static int sj_on_boolean(void *ctx, int value) {
    sj_parser *p = (sj_parser *)ctx;
    p->boundary = sj_end(p);
    p->boundarySeparated = p->depth > 0;
    return value ? sj_scalar(p, SJ_TRUE, p->boundary - 4, NULL, 0)
                 : sj_scalar(p, SJ_FALSE, p->boundary - 5, NULL, 0);
}

// The three busiest callbacks have a fast path that calls nothing but in
// tail position, so that it saves no registers (prologues and epilogues were
// a fifth of the callbacks' instructions), and a general one for the rest:
// bytes yajl copied, tokens past a limit, anything outside the usual case.

static __attribute__((noinline)) int sj_on_number_general(sj_parser *p, const unsigned char *text, size_t length) {
    p->boundary = sj_end(p);
    p->boundarySeparated = p->depth > 0;
    uint64_t position = p->boundary - length;
    if (length > p->maxNumberLength) return sj_fail(p, SJ_ERROR_NUMBER_LENGTH, position);
    return sj_scalar(p, SJ_NUMBER, position, text, length);
}

static int sj_on_number(void *ctx, const char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *bytes = (const unsigned char *)text;
    // yajl points into the chunk (a number across chunks reaches yajl whole,
    // see tape_feed.h), and has just lexed it: it ends where yajl stopped.
    size_t depth = p->depth;
    if (SJ_UNLIKELY(!(bytes >= p->chunk && bytes + length <= p->chunk + p->chunkLength) ||
                    length > p->maxNumberLength))
        return sj_on_number_general(p, bytes, length);
    uint64_t position = p->chunkBase + (uint64_t)(bytes - p->chunk);
    p->boundary = position + length;
    p->boundarySeparated = depth > 0;
    if (p->skipMember) {  // inside a member the projection leaves out
        if (depth == p->memberDepth) p->skipMember = 0;
        return 1;
    }
    if (SJ_UNLIKELY(p->skipping | !p->inTarget || depth <= p->frameDepth))
        return sj_scalar_general(p, SJ_NUMBER, position, bytes, length);
    p->frames[depth - 1].count++;
    return sj_append(p, SJ_NUMBER, position, bytes, length);
}

static __attribute__((noinline)) int sj_on_string_general(sj_parser *p, const unsigned char *text, size_t length) {
    uint64_t position = sj_string_position(p, text);
    p->boundary = text > p->chunk && text <= p->chunk + p->chunkLength
        ? p->chunkBase + (uint64_t)(text - p->chunk) + length + 1 : sj_end(p);
    p->boundarySeparated = p->depth > 0;
    if (length > p->maxStringLength) return sj_fail(p, SJ_ERROR_STRING_LENGTH, position);
    // An empty string still gets a (non-NULL) arena reference.
    return sj_scalar(p, SJ_STRING, position, text ? text : (const unsigned char *)"", length);
}

static int sj_on_string(void *ctx, const unsigned char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *chunk = p->chunk;
    size_t depth = p->depth;
    // In the chunk: a pointer just past the opening quote.
    if (SJ_UNLIKELY(!(text > chunk && text <= chunk + p->chunkLength) || length > p->maxStringLength))
        return sj_on_string_general(p, text, length);
    uint64_t offset = p->chunkBase + (uint64_t)(text - chunk);
    p->boundary = offset + length + 1;
    p->boundarySeparated = depth > 0;
    if (p->skipMember) {  // inside a member the projection leaves out
        if (depth == p->memberDepth) p->skipMember = 0;
        return 1;
    }
    if (SJ_UNLIKELY(p->skipping | !p->inTarget || depth <= p->frameDepth))
        return sj_scalar_general(p, SJ_STRING, offset - 1, text, length);
    p->frames[depth - 1].count++;
    return sj_append(p, SJ_STRING, offset - 1, text, length);
}

/// Whether the projection drops the member whose key is `key`: a member of
/// an element that is an object, with a key not in the list.
static inline uint64_t sj_key_bit(const unsigned char *key, size_t length) {
    return (uint64_t)1 << ((length * 7 + (length ? key[0] : 0)) & 63);
}

static inline int sj_projected_out(const sj_parser *p, const unsigned char *key, size_t length) {
    if (!p->projecting || p->depth != p->frameDepth + 1 || p->mode == SJ_MODE_MEMBERS || p->wholeTarget)
        return 0;
    if (!(p->memberBits & sj_key_bit(key, length))) return 1;
    for (size_t i = 0; i < p->memberCount; i++)
        if (p->memberLengths[i] == length && sj_bytes_equal(p->memberKeys[i], key, length))
            return 0;
    return 1;
}

static __attribute__((noinline)) int sj_on_key_general(sj_parser *p, const unsigned char *text, size_t length) {
    uint64_t position = sj_string_position(p, text);
    p->boundary = text > p->chunk && text <= p->chunk + p->chunkLength
        ? p->chunkBase + (uint64_t)(text - p->chunk) + length + 1 : sj_end(p);
    p->boundarySeparated = 1;
    if (length > p->maxStringLength) return sj_fail(p, SJ_ERROR_STRING_LENGTH, position);
    if (p->skipMember) return 1;
    if (!text) text = (const unsigned char *)"";
    if (sj_recording(p)) {
        if (sj_projected_out(p, text, length)) {
            p->skipMember = 1;
            p->memberDepth = p->depth;
            return 1;
        }
        if (p->depth == p->frameDepth) sj_element_begin(p, position);  // SJ_MODE_MEMBERS
        return sj_append(p, SJ_KEY, position, text, length);
    }
    if (p->recordsEvents) return sj_event(p, SJ_KEY, position, text, length);
    if (p->depth == p->pathDepth && p->pathDepth > 0 && !p->targetDone)
        p->expect = sj_key_matches(p, text, length);
    return 1;
}

/// sj_on_key's fast path when projecting (jsonstream): out of line, so
/// that the search of the listed keys leaves the usual path without a frame.
static __attribute__((noinline)) int sj_on_key_projecting(sj_parser *p, const unsigned char *text, size_t length,
                                                         uint64_t offset) {
    if (sj_projected_out(p, text, length)) {
        p->skipMember = 1;
        p->memberDepth = p->depth;
        return 1;
    }
    return sj_append(p, SJ_KEY, offset - 1, text, length);
}

static int sj_on_key(void *ctx, const unsigned char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *chunk = p->chunk;
    if (SJ_UNLIKELY(!(text > chunk && text <= chunk + p->chunkLength) || length > p->maxStringLength))
        return sj_on_key_general(p, text, length);
    uint64_t offset = p->chunkBase + (uint64_t)(text - chunk);
    p->boundary = offset + length + 1;
    p->boundarySeparated = 1;
    if (p->skipMember) return 1;
    if (SJ_UNLIKELY(p->skipping | !p->inTarget || p->depth <= p->frameDepth))
        return sj_on_key_general(p, text, length);
    if (SJ_UNLIKELY(p->projecting)) return sj_on_key_projecting(p, text, length, offset);
    return sj_append(p, SJ_KEY, offset - 1, text, length);
}

static inline int sj_open(sj_parser *p, uint8_t kind) {
    uint64_t position = sj_end(p) - 1;
    p->boundary = position + 1;
    p->boundarySeparated = 0;
    if (p->depth >= p->maxDepth) return sj_fail(p, SJ_ERROR_DEPTH, position);
    if (p->skipMember) {
        if (p->depth == p->frameCapacity &&
            !sj_grow((void **)&p->frames, &p->frameCapacity, p->depth + 1, sizeof(sj_frame)))
            return sj_fail(p, SJ_ERROR_MEMORY, position);
        p->frames[p->depth].token = SJ_NO_TOKEN;
        p->frames[p->depth].count = 0;
        p->depth++;
        return 1;
    }
    if (p->depth) p->frames[p->depth - 1].count++;
    uint32_t token = SJ_NO_TOKEN;
    int record = sj_recording(p);
    if (!record) {
        int action = sj_outside_value(p, kind, position);
        if (action == SJ_STOP) return 0;
        if (action == SJ_RECORD) record = 1;
        else if (action == SJ_OPEN_TARGET) { p->inTarget = 1; p->frameDepth = p->depth + 1; }
        else if (action == SJ_OPEN_PATH) p->pathDepth = p->depth + 1;
    }
    if (record) {
        if (p->depth == p->frameDepth && p->mode != SJ_MODE_MEMBERS) sj_element_begin(p, position);
        token = (uint32_t)p->tokenCount;
        if (!sj_append(p, kind, position, NULL, 0)) return 0;
        if (p->skipping) token = SJ_NO_TOKEN;  // it made the element oversized
    }
    if (p->depth == p->frameCapacity &&
        !sj_grow((void **)&p->frames, &p->frameCapacity, p->depth + 1, sizeof(sj_frame)))
        return sj_fail(p, SJ_ERROR_MEMORY, position);
    p->frames[p->depth].token = token;
    p->frames[p->depth].count = 0;
    p->depth++;
    return 1;
}

static inline int sj_close(sj_parser *p) {
    sj_frame frame = p->frames[--p->depth];
    p->boundary = sj_end(p);
    p->boundarySeparated = p->depth > 0;
    if (p->skipMember) {
        if (p->depth == p->memberDepth) p->skipMember = 0;
        return 1;
    }
    if (frame.token != SJ_NO_TOKEN) {
        sj_token *t = &p->tokens[frame.token];
        t->a = (uint32_t)(p->tokenCount - frame.token - 1);
        t->b = frame.count;
        if (p->maxElementBytes && sj_end(p) - p->currentPosition > p->maxElementBytes)
            return sj_oversized(p, 0) != 0;
        return p->depth == p->frameDepth ? sj_element_end(p) : 1;
    }
    if (p->skipping && p->depth == p->frameDepth) {
        p->skipping = 0;
        return sj_element_end(p);
    }
    if (p->recordsEvents) return sj_mark(p, SJ_MARK_END, 0, sj_end(p) - 1);
    int ok = 1;
    if (p->inTarget && p->depth + 1 == p->frameDepth) {
        p->inTarget = 0;
        p->targetDone = 1;
        if (p->followsRoots) {
            p->mode = SJ_MODE_ROOTS;
            ok = sj_mark(p, SJ_MARK_END, p->pathCount, sj_end(p) - 1);
        }
    } else if (p->depth + 1 == p->pathDepth) {
        p->pathDepth--;
        if (p->followsRoots && !p->targetDone) {
            // The object the path reached closed without the next key.
            p->targetDone = 1;
            ok = sj_mark(p, SJ_MARK_MISSING, p->pathDepth, sj_end(p) - 1);
        }
    }
    if (ok && p->followsRoots && p->depth == 0) ok = sj_root_end(p);
    return ok;
}

static int sj_on_start_map(void *ctx) { return sj_open((sj_parser *)ctx, SJ_OBJECT); }
static int sj_on_start_array(void *ctx) { return sj_open((sj_parser *)ctx, SJ_ARRAY); }
static int sj_on_end(void *ctx) { return sj_close((sj_parser *)ctx); }

static const yajl_callbacks sj_callback_table = {
    sj_on_null, sj_on_boolean, NULL, NULL, sj_on_number, sj_on_string,
    sj_on_start_map, sj_on_key, sj_on_end, sj_on_start_array, sj_on_end
};

/// yajl keeps this pointer for the handle's lifetime: the table is static.
static inline const yajl_callbacks *sj_callbacks(void) { return &sj_callback_table; }

#include "tape_feed.h"

// MARK: - Batches

/// Drops the first `count` complete elements from the tape, moving what
/// follows them (later elements and the element in progress) to the front.
/// Returns the number of tokens dropped.
static inline size_t sj_parser_drop_elements(sj_parser *p, size_t count) {
    if (count == 0) return 0;
    sj_element cut = count < p->elementCount ? p->elements[count] : p->completeEnd;
    size_t tokens = p->tokenCount - cut.token;
    size_t bytes = p->arenaCount - cut.arena;
    memmove(p->tokens, p->tokens + cut.token, tokens * sizeof(sj_token));
    memmove(p->arena, p->arena + cut.arena, bytes);
    for (size_t i = 0; i < tokens; i++) {
        uint8_t kind = (uint8_t)(p->tokens[i].word >> 56);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) p->tokens[i].a -= cut.arena;
    }
    for (size_t i = 0; i < p->depth; i++)
        if (p->frames[i].token != SJ_NO_TOKEN) p->frames[i].token -= cut.token;
    size_t kept = p->elementCount - count;
    for (size_t i = 0; i < kept; i++) {
        p->elements[i].token = p->elements[count + i].token - cut.token;
        p->elements[i].arena = p->elements[count + i].arena - cut.arena;
    }
    p->elementCount = kept;
    p->current.token -= cut.token;
    p->current.arena -= cut.arena;
    p->completeEnd.token -= cut.token;
    p->completeEnd.arena -= cut.arena;
    p->tokenCount = tokens;
    p->arenaCount = bytes;
    return cut.token;
}

/// Keeps only the listed members of elements that are objects (see
/// `memberKeys`). The key bytes must outlive the parser.
static inline void sj_parser_project(sj_parser *p, const unsigned char *const *keys,
                                     const size_t *lengths, size_t count) {
    p->memberKeys = keys;
    p->memberLengths = lengths;
    p->memberCount = count;
    p->memberBits = 0;
    for (size_t i = 0; i < count; i++) p->memberBits |= sj_key_bit(keys[i], lengths[i]);
    p->projecting = 1;
}

/// `sj_parser_move_complete` into an empty `to`: the buffers change hands
/// instead of the bytes. Only the element in progress (usually a fraction of
/// a chunk) is copied, into `to`'s old buffers, which `from` keeps.
static int sj_parser_swap_complete(sj_parser *from, sj_parser *to) {
    size_t tokens = from->completeEnd.token;
    size_t bytes = from->completeEnd.arena;
    size_t elements = from->elementCount;
    size_t restTokens = from->tokenCount - tokens;
    size_t restBytes = from->arenaCount - bytes;
    if (to->tokenCapacity < restTokens &&
        !sj_grow((void **)&to->tokens, &to->tokenCapacity, restTokens, sizeof(sj_token)))
        return 0;
    if (to->arenaCapacity < restBytes &&
        !sj_grow((void **)&to->arena, &to->arenaCapacity, restBytes, 1))
        return 0;
    memcpy(to->tokens, from->tokens + tokens, restTokens * sizeof(sj_token));
    memcpy(to->arena, from->arena + bytes, restBytes);
    for (size_t i = 0; i < restTokens; i++) {
        uint8_t kind = (uint8_t)(to->tokens[i].word >> 56);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) to->tokens[i].a -= (uint32_t)bytes;
    }
#define SJ_SWAP(type, field) do { type swap_ = from->field; from->field = to->field; to->field = swap_; } while (0)
    SJ_SWAP(sj_token *, tokens);
    SJ_SWAP(size_t, tokenCapacity);
    SJ_SWAP(unsigned char *, arena);
    SJ_SWAP(size_t, arenaCapacity);
    SJ_SWAP(sj_element *, elements);
    SJ_SWAP(size_t, elementCapacity);
#undef SJ_SWAP
    to->tokenCount = tokens;
    to->arenaCount = bytes;
    to->elementCount = elements;
    to->completedElements += elements;
    to->completeEnd.token = (uint32_t)tokens;
    to->completeEnd.arena = (uint32_t)bytes;
    // `from` keeps the element in progress, now at the front.
    for (size_t i = 0; i < from->depth; i++)
        if (from->frames[i].token != SJ_NO_TOKEN) from->frames[i].token -= (uint32_t)tokens;
    from->tokenCount = restTokens;
    from->arenaCount = restBytes;
    from->elementCount = 0;
    from->current.token -= (uint32_t)tokens;
    from->current.arena -= (uint32_t)bytes;
    from->completeEnd.token = 0;
    from->completeEnd.arena = 0;
    return 1;
}

/// Moves the complete elements of `from` to the end of `to`, a tape that
/// holds only complete elements (a batch handed between threads, or the
/// decoding thread's tape). Returns 0 when memory runs out.
static inline int sj_parser_move_complete(sj_parser *from, sj_parser *to) {
    size_t tokens = from->completeEnd.token;
    size_t bytes = from->completeEnd.arena;
    size_t elements = from->elementCount;
    if (elements == 0) return 1;
    if (to->tokenCount == 0 && to->arenaCount == 0 && to->elementCount == 0)
        return sj_parser_swap_complete(from, to);
    if (to->tokenCount + tokens > UINT32_MAX || to->arenaCount + bytes > UINT32_MAX) return 0;
    if (to->tokenCapacity - to->tokenCount < tokens &&
        !sj_grow((void **)&to->tokens, &to->tokenCapacity, to->tokenCount + tokens, sizeof(sj_token)))
        return 0;
    if (to->arenaCapacity - to->arenaCount < bytes &&
        !sj_grow((void **)&to->arena, &to->arenaCapacity, to->arenaCount + bytes, 1))
        return 0;
    if (to->elementCapacity - to->elementCount < elements &&
        !sj_grow((void **)&to->elements, &to->elementCapacity, to->elementCount + elements, sizeof(sj_element)))
        return 0;
    uint32_t tokenShift = (uint32_t)to->tokenCount, arenaShift = (uint32_t)to->arenaCount;
    sj_token *target = to->tokens + to->tokenCount;
    memcpy(target, from->tokens, tokens * sizeof(sj_token));
    for (size_t i = 0; i < tokens; i++) {
        uint8_t kind = (uint8_t)(target[i].word >> 56);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) target[i].a += arenaShift;
    }
    memcpy(to->arena + to->arenaCount, from->arena, bytes);
    for (size_t i = 0; i < elements; i++) {
        to->elements[to->elementCount + i].token = from->elements[i].token + tokenShift;
        to->elements[to->elementCount + i].arena = from->elements[i].arena + arenaShift;
    }
    to->tokenCount += tokens;
    to->arenaCount += bytes;
    to->elementCount += elements;
    to->completedElements += elements;
    to->completeEnd.token = (uint32_t)to->tokenCount;
    to->completeEnd.arena = (uint32_t)to->arenaCount;
    sj_parser_drop_elements(from, elements);
    return 1;
}

#endif
