// SPDX-License-Identifier: Apache-2.0
// Whether a recorded value's input text can be copied for jq's compact
// output (_JQWriter+Verbatim.swift says why the length decides it): one
// pass over its tokens, adding up what each writes, with the two checks
// that make the text differ from the writing whatever its length.
//
// An object's keys are checked with a hash set of token indices, on the
// stack for up to 32 keys, on the heap beyond: linear probing in a table of
// at least twice as many slots as keys. Key text is compared only
// when two keys fall on the same slot, so a record's keys cost a hash and a
// probe each, not a comparison with every key before them.
#include "CJSONTape.h"
#include "tape_internal.h"
#include <stdlib.h>
#include <string.h>

enum { SJ_SMALL_BITS = 6 };  // up to 32 keys: 64 slots on the stack

/// A hash of a key's bytes, for a table of 2^(64 - shift) slots. Keys of up
/// to eight bytes are read in at most two loads that cover every byte;
/// longer ones eight bytes at a time. The slot is the top of a product, which
/// every bit of the word reaches.
static inline size_t sj_key_slot(const unsigned char *key, uint32_t length, unsigned shift) {
    uint64_t word;
    if (length > 8) {
        uint64_t chunk;
        word = 0;
        for (uint32_t at = 0; at + 8 < length; at += 8) {
            memcpy(&chunk, key + at, 8);
            word = (word ^ chunk) * 0xFF51AFD7ED558CCDull;
        }
        memcpy(&chunk, key + length - 8, 8);
        word ^= chunk;
    } else if (length >= 4) {
        uint32_t first, last;
        memcpy(&first, key, 4);
        memcpy(&last, key + length - 4, 4);
        word = (uint64_t)first << 32 | last;
    } else if (length > 0) {
        word = (uint64_t)key[0] << 16 | (uint64_t)key[length / 2] << 8 | key[length - 1];
    } else {
        word = 0;
    }
    word ^= length;
    word ^= word >> 32;
    return (size_t)((word * 0x9E3779B97F4A7C15ull) >> shift);
}

/// Inserts the key at `tokens[object + offset]` into `slots` (2^bits of
/// them, holding offsets from the object, SJ_NO_TOKEN when free): 1 when
/// it was not there, 0 when an equal key was, -1 when the probes of the
/// whole object passed `*budget`.
static inline int sj_insert_key(uint32_t *slots, unsigned bits, const sj_token *tokens, const unsigned char *arena,
                                size_t object, uint32_t offset, size_t *budget) {
    sj_token key = tokens[object + offset];
    size_t mask = ((size_t)1 << bits) - 1;
    size_t slot = sj_key_slot(arena + key.a, key.b, 64 - bits);
    while (slots[slot] != SJ_NO_TOKEN) {
        sj_token other = tokens[object + slots[slot]];
        if (other.b == key.b && sj_bytes_equal(arena + other.a, arena + key.a, key.b)) return 0;
        if (*budget == 0) return -1;
        --*budget;
        slot = (slot + 1) & mask;
    }
    slots[slot] = offset;
    return 1;
}

static int sj_keys_distinct_in(uint32_t *slots, unsigned bits, const sj_token *tokens, const unsigned char *arena,
                               size_t object) {
    memset(slots, 0xFF, ((size_t)1 << bits) * sizeof *slots);
    uint32_t count = tokens[object].b;
    // Keys made to share slots (the hash has no secret) would make the check
    // quadratic; past a few probes a key on average, it gives up, and the
    // caller builds the object through JSONObject, whose index is seeded.
    size_t budget = 4 * (size_t)count + 64;
    uint32_t offset = 1;  // an element's tokens are fewer than 2^32 (SJ_ERROR_TOO_LARGE)
    for (uint32_t member = 0; member < count; member++) {
        if (sj_insert_key(slots, bits, tokens, arena, object, offset, &budget) != 1) return 0;
        offset += 1 + (uint32_t)sj_token_size(tokens[object + offset + 1]);
    }
    return 1;
}

int sj_object_keys_distinct(const sj_token *tokens, const unsigned char *arena, size_t object) {
    uint32_t count = tokens[object].b;
    if (count < 2) return 1;
    unsigned bits = 3;
    while (((size_t)1 << bits) < 2 * (size_t)count) bits++;
    if (bits <= SJ_SMALL_BITS) {
        uint32_t slots[1 << SJ_SMALL_BITS];
        return sj_keys_distinct_in(slots, bits, tokens, arena, object);
    }
    uint32_t *slots = malloc(((size_t)1 << bits) * sizeof *slots);
    if (!slots) return 0;
    int distinct = sj_keys_distinct_in(slots, bits, tokens, arena, object);
    free(slots);
    return distinct;
}

int sj_number_not_canonical(const unsigned char *text, size_t length) {
    if (length == 0) return 0;
    for (size_t at = 0; at < length; at++)
        if ((text[at] | 0x20) == 'e') return 1;
    if (text[0] == '-') { text++; length--; }
    return length > 8 && memcmp(text, "0.000000", 8) == 0;
}

int64_t sj_verbatim_length(const sj_token *tokens, const unsigned char *arena, size_t index) {
    size_t end = index + sj_token_size(tokens[index]);
    uint64_t length = 0;
    for (size_t cursor = index; cursor < end; cursor++) {
        sj_token token = tokens[cursor];
        switch (sj_token_kind(token)) {
        case SJ_NULL:
        case SJ_TRUE: length += 4; break;
        case SJ_FALSE: length += 5; break;
        case SJ_NUMBER:
            if (sj_number_not_canonical(arena + token.a, token.b)) return -1;
            length += token.b;
            break;
        case SJ_STRING: length += (uint64_t)token.b + 2; break;
        case SJ_KEY: length += (uint64_t)token.b + 3; break;  // quotes and colon
        case SJ_ARRAY: length += token.b == 0 ? 2 : (uint64_t)token.b + 1; break;  // brackets and commas
        case SJ_OBJECT:
            if (!sj_object_keys_distinct(tokens, arena, cursor)) return -1;
            length += token.b == 0 ? 2 : (uint64_t)token.b + 1;
            break;
        default: return -1;
        }
    }
    return (int64_t)length;
}
