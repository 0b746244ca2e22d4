// SPDX-License-Identifier: Apache-2.0
// What the tape recorder's files share: the hot recording helpers, inlined
// into every callback, and the functions one file calls in another.
#ifndef CJSONTAPE_INTERNAL_H
#define CJSONTAPE_INTERNAL_H

#include "CJSONTape.h"
#include <stdlib.h>
#include <string.h>

#define SJ_HOT static inline __attribute__((always_inline))
#define SJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define SJ_UNLIKELY(x) __builtin_expect(!!(x), 0)
/// Shared between the recorder's files, not exported from the library.
#define SJ_INTERNAL __attribute__((visibility("hidden")))

/// What a value met outside the recorded region means (tape_callbacks.c).
enum { SJ_SKIP = 0, SJ_RECORD = 1, SJ_OPEN_TARGET = 2, SJ_OPEN_PATH = 3, SJ_STOP = -1 };

/// Where in a \u escape the last chunk ended (tape_checks.c).
enum { SJ_ESC_NONE, SJ_ESC_BACKSLASH, SJ_ESC_HEX, SJ_ESC_AFTER_HIGH, SJ_ESC_AFTER_HIGH_BACKSLASH, SJ_ESC_LOW_HEX };

// tape_memory.c
SJ_INTERNAL int sj_grow(void **buffer, size_t *capacity, size_t needed, size_t itemSize);
SJ_INTERNAL int sj_append_slow(sj_parser *p, uint8_t kind, uint64_t position,
                               const unsigned char *bytes, size_t length);
SJ_INTERNAL int sj_copy_long(unsigned char *to, const unsigned char *from, size_t length);
SJ_INTERNAL int sj_oversized(sj_parser *p, int atKey);
// tape_callbacks.c
SJ_INTERNAL int sj_mark(sj_parser *p, int what, size_t keys, uint64_t position);
SJ_INTERNAL int sj_root_end(sj_parser *p);
SJ_INTERNAL int sj_event(sj_parser *p, uint8_t kind, uint64_t position, const unsigned char *bytes, size_t length);
SJ_INTERNAL int sj_outside_value(sj_parser *p, uint8_t kind, uint64_t position);
SJ_INTERNAL extern const yajl_callbacks sj_callback_table;
SJ_INTERNAL uint64_t sj_key_bit(const unsigned char *key, size_t length);
// tape_feed.c
SJ_INTERNAL uint64_t sj_scan_token_start(const sj_parser *p, size_t from);
SJ_INTERNAL uint64_t sj_string_position(sj_parser *p, const unsigned char *bytes);
// tape_checks.c
SJ_INTERNAL size_t sj_check_escapes(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base);
SJ_INTERNAL size_t sj_check_utf8(sj_parser *p, const unsigned char *bytes, size_t length);

static inline int sj_fail(sj_parser *p, int error, uint64_t position) {
    if (p->location.error == SJ_OK) { p->location.error = error; p->location.errorPosition = position; }
    return 0;
}

/// Absolute offset of the end of the token yajl just lexed.
static inline uint64_t sj_end(sj_parser *p) {
    return p->input.chunkBase + (uint64_t)yajl_get_bytes_consumed(p->yajl);
}

// MARK: - Recording

static inline int sj_recording(const sj_parser *p) {
    return p->framing.inTarget && p->framing.depth >= p->framing.frameDepth && !p->framing.skipping;
}

static inline void sj_element_begin(sj_parser *p, uint64_t position) {
    p->tape.current.token = (uint32_t)p->tape.tokenCount;
    p->tape.current.arena = (uint32_t)p->tape.arenaCount;
    p->tape.currentPosition = position;
}

static inline int sj_element_end(sj_parser *p) {
    if (p->tape.elementCount == p->tape.elementCapacity &&
        !sj_grow((void **)&p->tape.elements, &p->tape.elementCapacity, p->tape.elementCount + 1, sizeof(sj_element)))
        return sj_fail(p, SJ_ERROR_MEMORY, p->tape.currentPosition);
    p->tape.current.end = p->location.boundary;  // every callback sets it before recording
    p->tape.elements[p->tape.elementCount++] = p->tape.current;
    p->tape.completeEnd.token = (uint32_t)p->tape.tokenCount;
    p->tape.completeEnd.arena = (uint32_t)p->tape.arenaCount;
    p->tape.completedElements++;
    if (SJ_UNLIKELY(p->framing.wholeTarget)) {
        p->framing.wholeTarget = 0;
        p->framing.inTarget = 0;
        p->framing.targetDone = 1;
        if (p->framing.depth == 0) return sj_root_end(p);
    }
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

/// Appends a token (and its bytes) to the tape. The usual case, with room
/// and no element limit, calls nothing, so that the callbacks it is inlined
/// into need no registers saved.
SJ_HOT int sj_append(sj_parser *p, uint8_t kind, uint64_t position,
                     const unsigned char *bytes, size_t length) {
    if (SJ_UNLIKELY(p->limits.maxElementBytes || p->tape.tokenCount == p->tape.tokenCapacity ||
                    (bytes && p->tape.arenaCapacity - p->tape.arenaCount < length)))
        return sj_append_slow(p, kind, position, bytes, length);
    sj_token *t = &p->tape.tokens[p->tape.tokenCount++];
    t->word = ((uint64_t)kind << 56) | (position & SJ_POSITION_MASK);
    if (bytes) {
        size_t offset = p->tape.arenaCount;
        p->tape.arenaCount = offset + length;
        t->a = (uint32_t)offset;
        t->b = (uint32_t)length;
        if (length > 16) return sj_copy_long(p->tape.arena + offset, bytes, length);
        sj_copy_short(p->tape.arena + offset, bytes, length);
    } else {
        t->a = 0;
        t->b = 0;
    }
    return 1;
}

/// A token's kind (SJ_NULL ... SJ_MARK), from the top byte of its word.
static inline uint32_t sj_token_kind(sj_token token) { return (uint32_t)(token.word >> 56); }

/// Tokens the value at `token` occupies, itself included.
static inline size_t sj_token_size(sj_token token) {
    uint32_t kind = sj_token_kind(token);
    return kind == SJ_ARRAY || kind == SJ_OBJECT ? (size_t)token.a + 1 : 1;
}

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


/// Whether `key` is the next key of the path followed.
static inline int sj_key_matches(const sj_parser *p, const unsigned char *key, size_t length) {
    size_t index = p->framing.pathDepth - 1;
    return p->framing.pathLengths[index] == length && sj_bytes_equal(p->framing.pathKeys[index], key, length);
}

#endif
