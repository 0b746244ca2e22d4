// SPDX-License-Identifier: Apache-2.0
// The tally of one byte range of an input, for planning pieces that other
// processes read (`JSONPiece`): whether the range starts inside a string is
// not known from its bytes, so both cases are followed at once. Escapes do
// not depend on strings (see cut_scan.c's rules), and a quote flips the
// string state in both cases alike: the bytes inside strings in one case are
// the bytes outside them in the other, quotes aside. One classification per
// block serves both.
//
// For each case the tally keeps the depth, the lowest depth reached and the
// separators met at that depth: whoever knows the depth at the range's start
// learns from these whether an enclosing array closes in the range and how
// many of its elements begin there.
#include "cut_blocks.h"

/// The first closing in `close` after which the depth, `depth` before the
/// block's first bit, is below `lowest`: its offset, or 64.
static inline unsigned sj_first_under(uint64_t open, uint64_t close, int64_t depth, int64_t lowest) {
    uint64_t rest = close;
    while (rest) {
        uint64_t through = ((rest & (0 - rest)) << 1) - 1;
        if (depth + sj_popcount(open & through) - sj_popcount(close & through) < lowest) {
            return (unsigned)__builtin_ctzll(rest);
        }
        rest &= rest - 1;
    }
    return 64;
}

/// Separators in `separator` at which the depth (`depth` before the block's
/// first bit) equals `lowest`.
static inline uint64_t sj_count_at(uint64_t open, uint64_t close, uint64_t separator,
                                   int64_t depth, int64_t lowest) {
    uint64_t count = 0;
    while (separator) {
        uint64_t before = (separator & (0 - separator)) - 1;
        if (depth + sj_popcount(open & before) - sj_popcount(close & before) == lowest) count += 1;
        separator &= separator - 1;
    }
    return count;
}

/// Tallies one block's brackets and separators (outside strings) for one case.
static inline void sj_tally_block(sj_cut_tally *tally, int k, uint64_t open, uint64_t close,
                                  uint64_t separator) {
    int64_t depth = tally->depth[k], lowest = tally->lowest[k];
    uint64_t at = tally->at_lowest[k];
    uint64_t rest = ~0ull;   // the bits not tallied yet
    while (rest) {
        uint64_t o = open & rest, c = close & rest, s = separator & rest;
        unsigned under = depth - sj_popcount(c) < lowest ? sj_first_under(o, c, depth, lowest) : 64;
        // The bits up to and including the closing that sets a new lowest (all when none does).
        uint64_t part = under < 64 ? (((2ull << under) - 1) & rest) : rest;
        if ((s & part) && depth - sj_popcount(c & part) <= lowest) {
            at += sj_count_at(o & part, c & part, s & part, depth, lowest);
        }
        depth += sj_popcount(o & part) - sj_popcount(c & part);
        if (under == 64) break;
        lowest = depth;
        at = 0;
        rest &= ~part;
    }
    tally->depth[k] = depth;
    tally->lowest[k] = lowest;
    tally->at_lowest[k] = at;
}

/// Tallies one classified block of `length` bytes (64, or fewer for the tail).
static inline void sj_tally_bits(sj_cut_tally *tally, const sj_cut_bits *bits, size_t length) {
    uint64_t escaped = sj_block_escapes(bits, &tally->escaped, length);
    uint64_t inside = sj_prefix_xor(bits->quote & ~escaped) ^ (0 - tally->in_string);
    tally->in_string = inside >> 63;
    uint64_t outside = ~(inside | escaped), outside_other = inside & ~escaped & ~bits->quote;
    sj_tally_block(tally, 0, bits->open & outside, bits->close & outside, bits->separator & outside);
    sj_tally_block(tally, 1, bits->open & outside_other, bits->close & outside_other,
                   bits->separator & outside_other);
    if (bits->lf) {
        tally->newlines += (uint64_t)sj_popcount(bits->lf);
        tally->last_newline = tally->tallied + (uint64_t)(64 - __builtin_clzll(bits->lf));
    }
    tally->tallied += length;
}

static inline __attribute__((always_inline))
void sj_tally(sj_cut_tally *tally, const uint8_t *bytes, size_t length, uint8_t separator) {
    size_t i = 0;
    for (; length - i >= 64; i += 64) {
        sj_cut_bits bits = sj_classify(bytes + i, separator);
        sj_tally_bits(tally, &bits, 64);
    }
    if (i < length) {
        sj_cut_bits bits = sj_classify_tail(bytes + i, length - i, separator);
        sj_tally_bits(tally, &bits, length - i);
    }
}

#if defined(SJ_CUT_SCAN_DISPATCH)
__attribute__((target("popcnt")))
static void sj_tally_popcnt(sj_cut_tally *tally, const uint8_t *bytes, size_t length, uint8_t separator) {
    sj_tally(tally, bytes, length, separator);
}
#endif

void sj_cut_scan_tally(sj_cut_tally *tally, const uint8_t *bytes, size_t length, uint8_t separator) {
#if defined(SJ_CUT_SCAN_DISPATCH)
    if (sj_has_popcnt()) {
        sj_tally_popcnt(tally, bytes, length, separator);
        return;
    }
#endif
    sj_tally(tally, bytes, length, separator);
}
