// SPDX-License-Identifier: Apache-2.0
// Outside the recorded region: following the key path to the target, the
// marks of SJ_MODE_ROOTS, and the one-token elements of SJ_MODE_EVENTS.
#include "tape_internal.h"

/// SJ_MODE_ROOTS and SJ_MODE_EVENTS: appends an element of one SJ_MARK token.
int sj_mark(sj_parser *p, int what, size_t keys, uint64_t position) {
    sj_element_begin(p, position);
    if (!sj_append(p, SJ_MARK, position, NULL, 0)) return 0;
    p->tape.tokens[p->tape.tokenCount - 1].a = (uint32_t)what;
    p->tape.tokens[p->tape.tokenCount - 1].b = (uint32_t)keys;
    return sj_element_end(p);
}

/// SJ_MODE_ROOTS: a top-level value ended.
int sj_root_end(sj_parser *p) {
    return sj_mark(p, SJ_MARK_ROOT_END, 0, sj_end(p));
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
