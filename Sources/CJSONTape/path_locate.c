// SPDX-License-Identifier: Apache-2.0
// Finding where the array at a key path begins, so that a splitter can cut
// that array's elements as it cuts a root array's. yajl parses the input up
// to there with callbacks that follow the path, and the parse is cancelled
// at the array's `[`: yajl then reports the bytes it consumed, through that
// bracket.
//
// Only the first way down the path counts: the root must be an object, and
// each key of the path a member of the object before it, whose value is an
// object (an array for the last key). Anything else — a value of another
// kind on the way, an object on the path that closes without the key, a
// syntax error, the input's end — ends the search with SJ_LOCATE_NONE: the
// input is then read without cutting, by a parser that reports what it is.
#include "tape_internal.h"

struct sj_path_locator {
    yajl_handle yajl;
    const unsigned char *const *keys;
    const size_t *lengths;
    size_t count;
    /// Containers open.
    size_t depth;
    /// Keys of the path matched by the objects open: the last of them is at
    /// depth `matched + 1`.
    size_t matched;
    /// The last key read at depth `matched + 1` is the path's next key, so
    /// the value that follows is on the path.
    int onPath;
    /// An object at the path is found too (SJ_LOCATE_FOUND_OBJECT).
    int acceptsObjects;
    int result;
};

/// A value begins: on the path or not.
static int sj_locate_value(sj_path_locator *l, int opensObject, int opensArray) {
    if (l->depth == 0 && !opensObject) {
        l->result = SJ_LOCATE_NONE;  // the root is not an object
        return 0;
    }
    if (l->onPath) {
        l->onPath = 0;
        int last = l->matched + 1 == l->count;
        if (last && (opensArray || (opensObject && l->acceptsObjects))) {
            l->result = opensArray ? SJ_LOCATE_FOUND : SJ_LOCATE_FOUND_OBJECT;
            return 0;
        }
        if (last || !opensObject) {
            l->result = SJ_LOCATE_NONE;
            return 0;
        }
        l->matched += 1;
    }
    if (opensObject || opensArray) l->depth += 1;
    return 1;
}

static int sj_locate_null(void *ctx) { return sj_locate_value(ctx, 0, 0); }
static int sj_locate_boolean(void *ctx, int value) { (void)value; return sj_locate_value(ctx, 0, 0); }
static int sj_locate_number(void *ctx, const char *text, size_t length) {
    (void)text; (void)length;
    return sj_locate_value(ctx, 0, 0);
}
static int sj_locate_string(void *ctx, const unsigned char *text, size_t length) {
    (void)text; (void)length;
    return sj_locate_value(ctx, 0, 0);
}
static int sj_locate_start_map(void *ctx) { return sj_locate_value(ctx, 1, 0); }
static int sj_locate_start_array(void *ctx) { return sj_locate_value(ctx, 0, 1); }

static int sj_locate_key(void *ctx, const unsigned char *key, size_t length) {
    sj_path_locator *l = ctx;
    l->onPath = l->depth == l->matched + 1 && length == l->lengths[l->matched]
        && memcmp(key, l->keys[l->matched], length) == 0;
    return 1;
}

static int sj_locate_end(void *ctx) {
    sj_path_locator *l = ctx;
    if (l->depth == l->matched + 1) {
        l->result = SJ_LOCATE_NONE;  // an object on the path closed without the key
        return 0;
    }
    l->depth -= 1;
    return 1;
}

static const yajl_callbacks sj_locate_callbacks = {
    sj_locate_null, sj_locate_boolean, NULL, NULL, sj_locate_number, sj_locate_string,
    sj_locate_start_map, sj_locate_key, sj_locate_end, sj_locate_start_array, sj_locate_end,
};

sj_path_locator *sj_path_locator_create(const unsigned char *const *keys, const size_t *lengths,
                                        size_t count, int allowsComments) {
    if (count == 0) return NULL;
    sj_path_locator *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->keys = keys;
    l->lengths = lengths;
    l->count = count;
    l->result = SJ_LOCATE_MORE;
    l->yajl = yajl_alloc(&sj_locate_callbacks, NULL, l);
    if (!l->yajl) {
        free(l);
        return NULL;
    }
    yajl_config(l->yajl, yajl_allow_comments, allowsComments ? 1 : 0);
    return l;
}

int sj_path_locator_feed(sj_path_locator *l, const uint8_t *bytes, size_t length, size_t *consumed) {
    if (l->result != SJ_LOCATE_MORE) return l->result;
    yajl_status status = yajl_parse(l->yajl, bytes, length);
    if (status == yajl_status_client_canceled
        && (l->result == SJ_LOCATE_FOUND || l->result == SJ_LOCATE_FOUND_OBJECT)) {
        *consumed = yajl_get_bytes_consumed(l->yajl);
    } else if (status != yajl_status_ok) {
        l->result = SJ_LOCATE_NONE;
    }
    return l->result;
}

void sj_path_locator_accept_objects(sj_path_locator *l) {
    l->acceptsObjects = 1;
}

void sj_path_locator_free(sj_path_locator *l) {
    if (!l) return;
    yajl_free(l->yajl);
    free(l);
}
