// SPDX-License-Identifier: Apache-2.0
// yajl's callbacks: each token recorded on the tape, or skipped when it is
// outside the target or left out by the projection; and, for values outside
// the recorded region, following the key path to the target, the marks of
// SJ_MODE_ROOTS and the one-token elements of SJ_MODE_EVENTS. One file, so
// that the compiler can inline all of it into the callbacks.
#include "tape_internal.h"

// MARK: - Outside the target

/// SJ_MODE_ROOTS and SJ_MODE_EVENTS: appends an element of one SJ_MARK token.
int sj_mark(sj_parser *p, int what, size_t keys, uint64_t position) {
    sj_element_begin(p, position);
    if (!sj_append(p, SJ_MARK, position, NULL, 0)) return 0;
    p->tape.tokens[p->tape.tokenCount - 1].a = (uint32_t)what;
    p->tape.tokens[p->tape.tokenCount - 1].b = (uint32_t)keys;
    return sj_element_end(p);
}

/// SJ_MODE_ROOTS: a top-level value ended. The mark carries where it
/// started and whether a key along the path was repeated in it, for a
/// reader that must then read it again whole.
int sj_root_end(sj_parser *p) {
    return sj_mark(p, SJ_MARK_ROOT_END, (size_t)p->framing.repeatedPathKey, p->framing.rootStart);
}

/// SJ_MODE_ROOTS: the value met is recorded whole, as one element.
static int sj_record_whole(sj_parser *p, size_t keys, uint64_t position) {
    if (!sj_mark(p, SJ_MARK_WHOLE, keys, position)) return SJ_STOP;
    p->framing.inTarget = 1;
    p->framing.wholeTarget = 1;
    p->framing.frameDepth = p->framing.depth;
    return SJ_RECORD;
}

/// SJ_MODE_ROOTS: the target (an array or object at the end of the path) opens.
static int sj_open_roots_target(sj_parser *p, uint8_t kind, uint64_t position) {
    if (kind != SJ_ARRAY && kind != SJ_OBJECT) return sj_record_whole(p, p->framing.pathCount, position);
    if (!sj_mark(p, kind == SJ_ARRAY ? SJ_MARK_ARRAY : SJ_MARK_OBJECT, p->framing.pathCount, position)) return SJ_STOP;
    p->framing.mode = kind == SJ_ARRAY ? SJ_MODE_ARRAY : SJ_MODE_MEMBERS;
    return SJ_OPEN_TARGET;
}

/// SJ_MODE_EVENTS: one token as an element of its own.
int sj_event(sj_parser *p, uint8_t kind, uint64_t position, const unsigned char *bytes, size_t length) {
    sj_element_begin(p, position);
    if (!sj_append(p, kind, position, bytes, length)) return 0;
    return sj_element_end(p);
}

/// A value begins outside the recorded region: decides what it is.
int sj_outside_value(sj_parser *p, uint8_t kind, uint64_t position) {
    if (p->framing.recordsEvents) return sj_event(p, kind, position, NULL, 0) ? SJ_SKIP : SJ_STOP;  // an opening
    if (p->framing.followsRoots && p->framing.depth == 0) {  // a new top-level value: follow the path again
        p->framing.expect = 1;
        p->framing.pathDepth = 0;
        p->framing.targetDone = 0;
        p->framing.rootStart = position;
        p->framing.pathKeysMet = 0;
        p->framing.repeatedPathKey = 0;
    }
    if (!p->framing.expect) return SJ_SKIP;
    p->framing.expect = 0;
    p->location.errorKind = kind;
    if (p->framing.pathDepth < p->framing.pathCount) {
        if (kind != SJ_OBJECT) {
            if (p->framing.followsRoots) return sj_record_whole(p, p->framing.pathDepth, position);
            sj_fail(p, SJ_ERROR_PATH_NOT_OBJECT, position);
            return SJ_STOP;
        }
        return SJ_OPEN_PATH;
    }
    if (p->framing.followsRoots) return sj_open_roots_target(p, kind, position);
    // This value is the target.
    int wanted = p->framing.mode == SJ_MODE_MEMBERS ? SJ_OBJECT : SJ_ARRAY;
    if (kind == wanted) return SJ_OPEN_TARGET;
    if (p->framing.mode == SJ_MODE_DOCUMENT) {
        // A root that is not an array is decoded as one element.
        p->framing.inTarget = 1;
        p->framing.frameDepth = 0;
        return SJ_RECORD;
    }
    sj_fail(p, SJ_ERROR_NOT_ARRAY, position);
    return SJ_STOP;
}

// MARK: - Callbacks

SJ_HOT int sj_scalar(sj_parser *p, uint8_t kind, uint64_t position,
                            const unsigned char *bytes, size_t length) {
    if (p->projection.skipMember) {  // inside a member the projection leaves out
        if (p->framing.depth == p->projection.memberDepth) p->projection.skipMember = 0;
        return 1;
    }
    if (p->framing.depth) p->framing.frames[p->framing.depth - 1].count++;
    if (p->framing.skipping && p->framing.depth == p->framing.frameDepth) {  // the value of an oversized member's key
        p->framing.skipping = 0;
        return sj_element_end(p);
    }
    if (!sj_recording(p)) {
        if (p->framing.recordsEvents) return sj_event(p, kind, position, bytes, length);
        int action = sj_outside_value(p, kind, position);
        if (action == SJ_STOP) return 0;
        if (action != SJ_RECORD) return 1;
    }
    int startsElement = p->framing.depth == p->framing.frameDepth;
    if (startsElement && p->framing.mode != SJ_MODE_MEMBERS) sj_element_begin(p, position);
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
    p->location.boundary = sj_end(p);
    p->location.boundarySeparated = p->framing.depth > 0;
    return sj_scalar(p, SJ_NULL, p->location.boundary - 4, NULL, 0);
}

static int sj_on_boolean(void *ctx, int value) {
    sj_parser *p = (sj_parser *)ctx;
    p->location.boundary = sj_end(p);
    p->location.boundarySeparated = p->framing.depth > 0;
    return value ? sj_scalar(p, SJ_TRUE, p->location.boundary - 4, NULL, 0)
                 : sj_scalar(p, SJ_FALSE, p->location.boundary - 5, NULL, 0);
}

// The three busiest callbacks have a fast path that calls nothing but in
// tail position, so that it saves no registers , and a general one for the rest:
// bytes yajl copied, tokens past a limit, anything outside the usual case.

static __attribute__((noinline)) int sj_on_number_general(sj_parser *p, const unsigned char *text, size_t length) {
    p->location.boundary = sj_end(p);
    p->location.boundarySeparated = p->framing.depth > 0;
    uint64_t position = p->location.boundary - length;
    if (length > p->limits.maxNumberLength) return sj_fail(p, SJ_ERROR_NUMBER_LENGTH, position);
    return sj_scalar(p, SJ_NUMBER, position, text, length);
}

static int sj_on_number(void *ctx, const char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *bytes = (const unsigned char *)text;
    // yajl points into the chunk (a number across chunks reaches yajl whole,
    // see tape_feed.h), and has just lexed it: it ends where yajl stopped.
    size_t depth = p->framing.depth;
    if (SJ_UNLIKELY(!(bytes >= p->input.chunk && bytes + length <= p->input.chunk + p->input.chunkLength) ||
                    length > p->limits.maxNumberLength))
        return sj_on_number_general(p, bytes, length);
    uint64_t position = p->input.chunkBase + (uint64_t)(bytes - p->input.chunk);
    p->location.boundary = position + length;
    p->location.boundarySeparated = depth > 0;
    if (p->projection.skipMember) {  // inside a member the projection leaves out
        if (depth == p->projection.memberDepth) p->projection.skipMember = 0;
        return 1;
    }
    if (SJ_UNLIKELY(p->framing.skipping | !p->framing.inTarget || depth <= p->framing.frameDepth))
        return sj_scalar_general(p, SJ_NUMBER, position, bytes, length);
    p->framing.frames[depth - 1].count++;
    return sj_append(p, SJ_NUMBER, position, bytes, length);
}

static __attribute__((noinline)) int sj_on_string_general(sj_parser *p, const unsigned char *text, size_t length) {
    uint64_t position = sj_string_position(p, text);
    p->location.boundary = text > p->input.chunk && text <= p->input.chunk + p->input.chunkLength
        ? p->input.chunkBase + (uint64_t)(text - p->input.chunk) + length + 1 : sj_end(p);
    p->location.boundarySeparated = p->framing.depth > 0;
    if (length > p->limits.maxStringLength) return sj_fail(p, SJ_ERROR_STRING_LENGTH, position);
    // An empty string still gets a (non-NULL) arena reference.
    return sj_scalar(p, SJ_STRING, position, text ? text : (const unsigned char *)"", length);
}

static int sj_on_string(void *ctx, const unsigned char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *chunk = p->input.chunk;
    size_t depth = p->framing.depth;
    // In the chunk: a pointer just past the opening quote.
    if (SJ_UNLIKELY(!(text > chunk && text <= chunk + p->input.chunkLength) || length > p->limits.maxStringLength))
        return sj_on_string_general(p, text, length);
    uint64_t offset = p->input.chunkBase + (uint64_t)(text - chunk);
    p->location.boundary = offset + length + 1;
    p->location.boundarySeparated = depth > 0;
    if (p->projection.skipMember) {  // inside a member the projection leaves out
        if (depth == p->projection.memberDepth) p->projection.skipMember = 0;
        return 1;
    }
    if (SJ_UNLIKELY(p->framing.skipping | !p->framing.inTarget || depth <= p->framing.frameDepth))
        return sj_scalar_general(p, SJ_STRING, offset - 1, text, length);
    p->framing.frames[depth - 1].count++;
    return sj_append(p, SJ_STRING, offset - 1, text, length);
}

/// Whether the projection drops the member whose key is `key`: a member of
/// an element that is an object, with a key not in the list.
uint64_t sj_key_bit(const unsigned char *key, size_t length) {
    return (uint64_t)1 << ((length * 7 + (length ? key[0] : 0)) & 63);
}

static inline int sj_projected_out(const sj_parser *p, const unsigned char *key, size_t length) {
    if (!p->projection.projecting || p->framing.depth != p->framing.frameDepth + 1 || p->framing.mode == SJ_MODE_MEMBERS || p->framing.wholeTarget)
        return 0;
    if (!(p->projection.memberBits & sj_key_bit(key, length))) return 1;
    for (size_t i = 0; i < p->projection.memberCount; i++)
        if (p->projection.memberLengths[i] == length && sj_bytes_equal(p->projection.memberKeys[i], key, length))
            return 0;
    return 1;
}

/// The key the path takes, in the object open at pathDepth; met twice
/// there, the value the path found may not be the one jq keeps.
static void sj_path_key_met(sj_parser *p) {
    size_t level = p->framing.pathDepth - 1;
    uint64_t bit = level < 64 ? (uint64_t)1 << level : 0;
    if (p->framing.pathKeysMet & bit || !bit) p->framing.repeatedPathKey = 1;
    p->framing.pathKeysMet |= bit;
}

static __attribute__((noinline)) int sj_on_key_general(sj_parser *p, const unsigned char *text, size_t length) {
    uint64_t position = sj_string_position(p, text);
    p->location.boundary = text > p->input.chunk && text <= p->input.chunk + p->input.chunkLength
        ? p->input.chunkBase + (uint64_t)(text - p->input.chunk) + length + 1 : sj_end(p);
    p->location.boundarySeparated = 1;
    if (length > p->limits.maxStringLength) return sj_fail(p, SJ_ERROR_STRING_LENGTH, position);
    if (p->projection.skipMember) return 1;
    if (!text) text = (const unsigned char *)"";
    if (sj_recording(p)) {
        if (sj_projected_out(p, text, length)) {
            p->projection.skipMember = 1;
            p->projection.memberDepth = p->framing.depth;
            return 1;
        }
        if (p->framing.depth == p->framing.frameDepth) sj_element_begin(p, position);  // SJ_MODE_MEMBERS
        return sj_append(p, SJ_KEY, position, text, length);
    }
    if (p->framing.recordsEvents) return sj_event(p, SJ_KEY, position, text, length);
    if (p->framing.depth == p->framing.pathDepth && p->framing.pathDepth > 0) {
        int matches = sj_key_matches(p, text, length);
        if (!p->framing.targetDone) p->framing.expect = matches;
        if (matches) sj_path_key_met(p);
    }
    return 1;
}

/// sj_on_key's fast path when projecting (jsonstream): out of line, so
/// that the search of the listed keys leaves the usual path without a frame.
static __attribute__((noinline)) int sj_on_key_projecting(sj_parser *p, const unsigned char *text, size_t length,
                                                         uint64_t offset) {
    if (sj_projected_out(p, text, length)) {
        p->projection.skipMember = 1;
        p->projection.memberDepth = p->framing.depth;
        return 1;
    }
    return sj_append(p, SJ_KEY, offset - 1, text, length);
}

static int sj_on_key(void *ctx, const unsigned char *text, size_t length) {
    sj_parser *p = (sj_parser *)ctx;
    const unsigned char *chunk = p->input.chunk;
    if (SJ_UNLIKELY(!(text > chunk && text <= chunk + p->input.chunkLength) || length > p->limits.maxStringLength))
        return sj_on_key_general(p, text, length);
    uint64_t offset = p->input.chunkBase + (uint64_t)(text - chunk);
    p->location.boundary = offset + length + 1;
    p->location.boundarySeparated = 1;
    if (p->projection.skipMember) return 1;
    if (SJ_UNLIKELY(p->framing.skipping | !p->framing.inTarget || p->framing.depth <= p->framing.frameDepth))
        return sj_on_key_general(p, text, length);
    if (SJ_UNLIKELY(p->projection.projecting)) return sj_on_key_projecting(p, text, length, offset);
    return sj_append(p, SJ_KEY, offset - 1, text, length);
}

static inline int sj_open(sj_parser *p, uint8_t kind) {
    uint64_t position = sj_end(p) - 1;
    p->location.boundary = position + 1;
    p->location.boundarySeparated = 0;
    if (p->framing.depth >= p->limits.maxDepth) return sj_fail(p, SJ_ERROR_DEPTH, position);
    if (p->projection.skipMember) {
        if (p->framing.depth == p->framing.frameCapacity &&
            !sj_grow((void **)&p->framing.frames, &p->framing.frameCapacity, p->framing.depth + 1, sizeof(sj_frame)))
            return sj_fail(p, SJ_ERROR_MEMORY, position);
        p->framing.frames[p->framing.depth].token = SJ_NO_TOKEN;
        p->framing.frames[p->framing.depth].count = 0;
        p->framing.depth++;
        return 1;
    }
    if (p->framing.depth) p->framing.frames[p->framing.depth - 1].count++;
    uint32_t token = SJ_NO_TOKEN;
    int record = sj_recording(p);
    if (!record) {
        int action = sj_outside_value(p, kind, position);
        if (action == SJ_STOP) return 0;
        if (action == SJ_RECORD) record = 1;
        else if (action == SJ_OPEN_TARGET) { p->framing.inTarget = 1; p->framing.frameDepth = p->framing.depth + 1; }
        else if (action == SJ_OPEN_PATH) p->framing.pathDepth = p->framing.depth + 1;
    }
    if (record) {
        if (p->framing.depth == p->framing.frameDepth && p->framing.mode != SJ_MODE_MEMBERS) sj_element_begin(p, position);
        token = (uint32_t)p->tape.tokenCount;
        if (!sj_append(p, kind, position, NULL, 0)) return 0;
        if (p->framing.skipping) token = SJ_NO_TOKEN;  // it made the element oversized
    }
    if (p->framing.depth == p->framing.frameCapacity &&
        !sj_grow((void **)&p->framing.frames, &p->framing.frameCapacity, p->framing.depth + 1, sizeof(sj_frame)))
        return sj_fail(p, SJ_ERROR_MEMORY, position);
    p->framing.frames[p->framing.depth].token = token;
    p->framing.frames[p->framing.depth].count = 0;
    p->framing.depth++;
    return 1;
}

static inline int sj_close(sj_parser *p) {
    sj_frame frame = p->framing.frames[--p->framing.depth];
    p->location.boundary = sj_end(p);
    p->location.boundarySeparated = p->framing.depth > 0;
    if (p->projection.skipMember) {
        if (p->framing.depth == p->projection.memberDepth) p->projection.skipMember = 0;
        return 1;
    }
    if (frame.token != SJ_NO_TOKEN) {
        sj_token *t = &p->tape.tokens[frame.token];
        t->a = (uint32_t)(p->tape.tokenCount - frame.token - 1);
        t->b = frame.count;
        if (p->limits.maxElementBytes && sj_end(p) - p->tape.currentPosition > p->limits.maxElementBytes)
            return sj_oversized(p, 0) != 0;
        return p->framing.depth == p->framing.frameDepth ? sj_element_end(p) : 1;
    }
    if (p->framing.skipping && p->framing.depth == p->framing.frameDepth) {
        p->framing.skipping = 0;
        return sj_element_end(p);
    }
    if (p->framing.recordsEvents) return sj_mark(p, SJ_MARK_END, 0, sj_end(p) - 1);
    int ok = 1;
    if (p->framing.inTarget && p->framing.depth + 1 == p->framing.frameDepth) {
        p->framing.inTarget = 0;
        p->framing.targetDone = 1;
        if (p->framing.followsRoots) {
            p->framing.mode = SJ_MODE_ROOTS;
            ok = sj_mark(p, SJ_MARK_END, p->framing.pathCount, sj_end(p) - 1);
        }
    } else if (p->framing.depth + 1 == p->framing.pathDepth) {
        p->framing.pathDepth--;
        if (p->framing.pathDepth < 64) p->framing.pathKeysMet &= ~((uint64_t)1 << p->framing.pathDepth);
        if (p->framing.followsRoots && !p->framing.targetDone) {
            // The object the path reached closed without the next key.
            p->framing.targetDone = 1;
            ok = sj_mark(p, SJ_MARK_MISSING, p->framing.pathDepth, sj_end(p) - 1);
        }
    }
    if (ok && p->framing.followsRoots && p->framing.depth == 0) ok = sj_root_end(p);
    return ok;
}

static int sj_on_start_map(void *ctx) { return sj_open((sj_parser *)ctx, SJ_OBJECT); }
static int sj_on_start_array(void *ctx) { return sj_open((sj_parser *)ctx, SJ_ARRAY); }
static int sj_on_end(void *ctx) { return sj_close((sj_parser *)ctx); }

const yajl_callbacks sj_callback_table = {
    sj_on_null, sj_on_boolean, NULL, NULL, sj_on_number, sj_on_string,
    sj_on_start_map, sj_on_key, sj_on_end, sj_on_start_array, sj_on_end
};

// MARK: - Projection

/// Keeps only the listed members of elements that are objects (see
/// `memberKeys`). The key bytes must outlive the parser.
void sj_parser_project(sj_parser *p, const unsigned char *const *keys,
                       const size_t *lengths, size_t count) {
    p->projection.memberKeys = keys;
    p->projection.memberLengths = lengths;
    p->projection.memberCount = count;
    p->projection.memberBits = 0;
    for (size_t i = 0; i < count; i++) p->projection.memberBits |= sj_key_bit(keys[i], lengths[i]);
    p->projection.projecting = 1;
}
