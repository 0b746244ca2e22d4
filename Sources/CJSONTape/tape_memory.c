// SPDX-License-Identifier: Apache-2.0
// The tape's memory: the parser's life cycle, growth, the slow path of
// appending a token, and moving complete elements between tapes.
#include "tape_internal.h"

// MARK: - Growth (slow paths)

int sj_grow(void **buffer, size_t *capacity, size_t needed, size_t itemSize) {
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
// write on one side then evicts the line from the other core, and yajl's
// handle, lexer and buffers are written on every token. So the parser's state and everything yajl allocates get whole cache lines
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

// MARK: - Life cycle

sj_parser *sj_parser_create(int mode, const unsigned char *const *pathKeys,
                            const size_t *pathLengths, size_t pathCount) {
    sj_parser *p = sj_lines_malloc(NULL, sizeof(sj_parser));
    if (!p) return NULL;
    memset(p, 0, sizeof(sj_parser));
    p->framing.mode = mode;
    p->framing.pathKeys = pathKeys;
    p->framing.pathLengths = pathLengths;
    p->framing.pathCount = pathCount;
    p->pending.pendingStart = SJ_NO_POSITION;
    p->location.notedStart = SJ_NO_POSITION;
    // Start with room on the tape: the arena pointer is never NULL, even
    // when every string is empty.
    if (!sj_grow((void **)&p->tape.tokens, &p->tape.tokenCapacity, 1024, sizeof(sj_token)) ||
        !sj_grow((void **)&p->tape.arena, &p->tape.arenaCapacity, 16384, 1)) {
        sj_parser_destroy(p);
        return NULL;
    }
    p->framing.followsRoots = mode == SJ_MODE_ROOTS;
    p->framing.recordsEvents = mode == SJ_MODE_EVENTS;
    if (mode == SJ_MODE_LINES) {
        p->framing.inTarget = 1;
        p->framing.frameDepth = 0;
    } else {
        p->framing.expect = 1;
    }
    return p;
}

void sj_parser_destroy(sj_parser *p) {
    if (!p) return;
    if (p->yajl) yajl_free(p->yajl);
    free(p->tape.tokens);
    free(p->tape.arena);
    free(p->tape.elements);
    free(p->framing.frames);
    free(p->pending.held);
    sj_lines_free(NULL, p);
}

yajl_handle sj_parser_open(sj_parser *p) {
    if (p->yajl) yajl_free(p->yajl);
    p->yajl = sj_yajl_alloc(&sj_callback_table, p);
    return p->yajl;
}

// MARK: - Appending, the slow paths

/// The element in progress passed maxElementBytes: forget what was recorded
/// of it (keeping an object member's key), leave a marker in its place, and
/// parse the rest of it without recording. The stream goes on after it.
/// Returns 2 when the element ended here (a scalar), 1 when the rest is skipped.
int sj_oversized(sj_parser *p, int atKey) {
    size_t keep = p->tape.current.token, arena = p->tape.current.arena;
    if (p->framing.mode == SJ_MODE_MEMBERS && p->tape.tokenCount > keep) {
        arena = p->tape.tokens[keep].a + p->tape.tokens[keep].b;
        keep += 1;
    }
    p->tape.tokenCount = keep;
    p->tape.arenaCount = arena;
    for (size_t i = p->framing.frameDepth; i < p->framing.depth; i++) p->framing.frames[i].token = SJ_NO_TOKEN;
    uint64_t maxBytes = p->limits.maxElementBytes;
    p->limits.maxElementBytes = 0;
    int ok = sj_append(p, SJ_OVERSIZED, p->tape.currentPosition, NULL, 0);
    p->limits.maxElementBytes = maxBytes;
    if (!ok) return 0;
    if (p->framing.depth == p->framing.frameDepth && !atKey) return sj_element_end(p) ? 2 : 0;
    p->framing.skipping = 1;
    return 1;
}

/// A longer token's copy, out of line and returning sj_append's result, so
/// that sj_append calls it in tail position: a call in its middle (memcpy)
/// made every callback save and restore registers, long token or not.
__attribute__((noinline)) int sj_copy_long(unsigned char *to, const unsigned char *from, size_t length) {
    memcpy(to, from, length);
    return 1;
}

static inline void sj_copy(unsigned char *to, const unsigned char *from, size_t length) {
    if (length > 16) memcpy(to, from, length);
    else sj_copy_short(to, from, length);
}

/// sj_append's general case: an element limit, a full token buffer or arena.
__attribute__((noinline)) int sj_append_slow(sj_parser *p, uint8_t kind, uint64_t position,
                                            const unsigned char *bytes, size_t length) {
    if (p->limits.maxElementBytes && position + length - p->tape.currentPosition > p->limits.maxElementBytes)
        return sj_oversized(p, kind == SJ_KEY && p->framing.depth == p->framing.frameDepth);
    if (p->tape.tokenCount == p->tape.tokenCapacity) {
        if (p->tape.tokenCount >= SJ_NO_TOKEN) return sj_fail(p, SJ_ERROR_TOO_LARGE, position);
        if (!sj_grow((void **)&p->tape.tokens, &p->tape.tokenCapacity, p->tape.tokenCount + 1, sizeof(sj_token)))
            return sj_fail(p, SJ_ERROR_MEMORY, position);
    }
    sj_token *t = &p->tape.tokens[p->tape.tokenCount++];
    t->word = ((uint64_t)kind << 56) | (position & SJ_POSITION_MASK);
    if (bytes) {
        if (p->tape.arenaCapacity - p->tape.arenaCount < length) {
            if (p->tape.arenaCount + length > UINT32_MAX) return sj_fail(p, SJ_ERROR_TOO_LARGE, position);
            if (!sj_grow((void **)&p->tape.arena, &p->tape.arenaCapacity, p->tape.arenaCount + length, 1))
                return sj_fail(p, SJ_ERROR_MEMORY, position);
        }
        sj_copy(p->tape.arena + p->tape.arenaCount, bytes, length);
        t->a = (uint32_t)p->tape.arenaCount;
        t->b = (uint32_t)length;
        p->tape.arenaCount += length;
    } else {
        t->a = 0;
        t->b = 0;
    }
    return 1;
}

// MARK: - Batches

/// Drops the first `count` complete elements from the tape, moving what
/// follows them (later elements and the element in progress) to the front.
/// Returns the number of tokens dropped.
size_t sj_parser_drop_elements(sj_parser *p, size_t count) {
    if (count == 0) return 0;
    sj_element cut = count < p->tape.elementCount ? p->tape.elements[count] : p->tape.completeEnd;
    size_t tokens = p->tape.tokenCount - cut.token;
    size_t bytes = p->tape.arenaCount - cut.arena;
    memmove(p->tape.tokens, p->tape.tokens + cut.token, tokens * sizeof(sj_token));
    memmove(p->tape.arena, p->tape.arena + cut.arena, bytes);
    for (size_t i = 0; i < tokens; i++) {
        uint32_t kind = sj_token_kind(p->tape.tokens[i]);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) p->tape.tokens[i].a -= cut.arena;
    }
    for (size_t i = 0; i < p->framing.depth; i++)
        if (p->framing.frames[i].token != SJ_NO_TOKEN) p->framing.frames[i].token -= cut.token;
    size_t kept = p->tape.elementCount - count;
    for (size_t i = 0; i < kept; i++) {
        p->tape.elements[i].token = p->tape.elements[count + i].token - cut.token;
        p->tape.elements[i].arena = p->tape.elements[count + i].arena - cut.arena;
        p->tape.elements[i].end = p->tape.elements[count + i].end;
    }
    p->tape.elementCount = kept;
    p->tape.current.token -= cut.token;
    p->tape.current.arena -= cut.arena;
    p->tape.completeEnd.token -= cut.token;
    p->tape.completeEnd.arena -= cut.arena;
    p->tape.tokenCount = tokens;
    p->tape.arenaCount = bytes;
    return cut.token;
}

/// `sj_parser_move_complete` into an empty `to`: the buffers change hands
/// instead of the bytes. Only the element in progress (usually a fraction of
/// a chunk) is copied, into `to`'s old buffers, which `from` keeps.
static int sj_parser_swap_complete(sj_parser *from, sj_parser *to) {
    size_t tokens = from->tape.completeEnd.token;
    size_t bytes = from->tape.completeEnd.arena;
    size_t elements = from->tape.elementCount;
    size_t restTokens = from->tape.tokenCount - tokens;
    size_t restBytes = from->tape.arenaCount - bytes;
    if (to->tape.tokenCapacity < restTokens &&
        !sj_grow((void **)&to->tape.tokens, &to->tape.tokenCapacity, restTokens, sizeof(sj_token)))
        return 0;
    if (to->tape.arenaCapacity < restBytes &&
        !sj_grow((void **)&to->tape.arena, &to->tape.arenaCapacity, restBytes, 1))
        return 0;
    memcpy(to->tape.tokens, from->tape.tokens + tokens, restTokens * sizeof(sj_token));
    memcpy(to->tape.arena, from->tape.arena + bytes, restBytes);
    for (size_t i = 0; i < restTokens; i++) {
        uint32_t kind = sj_token_kind(to->tape.tokens[i]);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) to->tape.tokens[i].a -= (uint32_t)bytes;
    }
#define SJ_SWAP(type, field) do { type swap_ = from->field; from->field = to->field; to->field = swap_; } while (0)
    SJ_SWAP(sj_token *, tape.tokens);
    SJ_SWAP(size_t, tape.tokenCapacity);
    SJ_SWAP(unsigned char *, tape.arena);
    SJ_SWAP(size_t, tape.arenaCapacity);
    SJ_SWAP(sj_element *, tape.elements);
    SJ_SWAP(size_t, tape.elementCapacity);
#undef SJ_SWAP
    to->tape.tokenCount = tokens;
    to->tape.arenaCount = bytes;
    to->tape.elementCount = elements;
    to->tape.completedElements += elements;
    to->tape.completeEnd.token = (uint32_t)tokens;
    to->tape.completeEnd.arena = (uint32_t)bytes;
    // `from` keeps the element in progress, now at the front.
    for (size_t i = 0; i < from->framing.depth; i++)
        if (from->framing.frames[i].token != SJ_NO_TOKEN) from->framing.frames[i].token -= (uint32_t)tokens;
    from->tape.tokenCount = restTokens;
    from->tape.arenaCount = restBytes;
    from->tape.elementCount = 0;
    from->tape.current.token -= (uint32_t)tokens;
    from->tape.current.arena -= (uint32_t)bytes;
    from->tape.completeEnd.token = 0;
    from->tape.completeEnd.arena = 0;
    return 1;
}

/// Moves the complete elements of `from` to the end of `to`, a tape that
/// holds only complete elements (a batch handed between threads, or the
/// decoding thread's tape). Returns 0 when memory runs out.
int sj_parser_move_complete(sj_parser *from, sj_parser *to) {
    size_t tokens = from->tape.completeEnd.token;
    size_t bytes = from->tape.completeEnd.arena;
    size_t elements = from->tape.elementCount;
    if (elements == 0) return 1;
    if (to->tape.tokenCount == 0 && to->tape.arenaCount == 0 && to->tape.elementCount == 0)
        return sj_parser_swap_complete(from, to);
    if (to->tape.tokenCount + tokens > UINT32_MAX || to->tape.arenaCount + bytes > UINT32_MAX) return 0;
    if (to->tape.tokenCapacity - to->tape.tokenCount < tokens &&
        !sj_grow((void **)&to->tape.tokens, &to->tape.tokenCapacity, to->tape.tokenCount + tokens, sizeof(sj_token)))
        return 0;
    if (to->tape.arenaCapacity - to->tape.arenaCount < bytes &&
        !sj_grow((void **)&to->tape.arena, &to->tape.arenaCapacity, to->tape.arenaCount + bytes, 1))
        return 0;
    if (to->tape.elementCapacity - to->tape.elementCount < elements &&
        !sj_grow((void **)&to->tape.elements, &to->tape.elementCapacity, to->tape.elementCount + elements, sizeof(sj_element)))
        return 0;
    uint32_t tokenShift = (uint32_t)to->tape.tokenCount, arenaShift = (uint32_t)to->tape.arenaCount;
    sj_token *target = to->tape.tokens + to->tape.tokenCount;
    memcpy(target, from->tape.tokens, tokens * sizeof(sj_token));
    for (size_t i = 0; i < tokens; i++) {
        uint32_t kind = sj_token_kind(target[i]);
        if (kind == SJ_NUMBER || kind == SJ_STRING || kind == SJ_KEY) target[i].a += arenaShift;
    }
    memcpy(to->tape.arena + to->tape.arenaCount, from->tape.arena, bytes);
    for (size_t i = 0; i < elements; i++) {
        to->tape.elements[to->tape.elementCount + i].token = from->tape.elements[i].token + tokenShift;
        to->tape.elements[to->tape.elementCount + i].arena = from->tape.elements[i].arena + arenaShift;
        to->tape.elements[to->tape.elementCount + i].end = from->tape.elements[i].end;
    }
    to->tape.tokenCount += tokens;
    to->tape.arenaCount += bytes;
    to->tape.elementCount += elements;
    to->tape.completedElements += elements;
    to->tape.completeEnd.token = (uint32_t)to->tape.tokenCount;
    to->tape.completeEnd.arena = (uint32_t)to->tape.arenaCount;
    sj_parser_drop_elements(from, elements);
    return 1;
}
