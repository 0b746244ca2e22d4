// SPDX-License-Identifier: Apache-2.0
// The cut-point scanner: finds where a large input can be cut between
// elements (a ',' of the root array, a line break between top-level values)
// without parsing it, so that pieces can be parsed on several threads.
//
// It works 64 bytes at a time, as simdjson's first stage does: each block
// becomes one bit per byte for quotes, backslashes, openings, closings, the
// separator and LF; backslash runs give the escaped bytes, the unescaped
// quotes give (by a prefix XOR) the bytes inside strings, and the depth moves
// by popcounts. What is carried between blocks and calls (an escape pending,
// a string open, the depth) lives in `sj_cut_scan`.
//
// The rules, byte by byte, that the blocks reproduce exactly:
//   - every LF is counted;
//   - a byte after an unescaped backslash is escaped, and does nothing else;
//   - an unescaped backslash escapes the next byte (inside strings or not:
//     outside them the input is malformed anyway, and not knowing strings
//     keeps the escapes independent of the quotes);
//   - an unescaped quote opens or closes a string;
//   - outside strings, [ and { add one to the depth, ] and } take one off.
//
// The classifier uses SSE2 on x86_64 (its baseline) and NEON on aarch64;
// elsewhere, or when SJ_CUT_SCAN_PORTABLE is defined (to test it), a loop.
//
// x86_64's baseline has no POPCNT instruction, and counting bits without it
// costs a third of the time: where the compiler can build a function for
// POPCNT, the CPU is asked once whether it has it, and the scans run the
// build that fits.
#include "cut_blocks.h"

// MARK: - Scanning

/// The first separator of `block` at which the depth, `depth` at the block's
/// start, equals `target`: its offset, or 64 when there is none.
static inline unsigned sj_first_cut(const sj_cut_block *block, int64_t depth, int64_t target) {
    uint64_t rest = block->separator;
    while (rest) {
        uint64_t before = (rest & (0 - rest)) - 1;
        int64_t here = depth + sj_popcount(block->open & before) - sj_popcount(block->close & before);
        if (here == target) return (unsigned)__builtin_ctzll(rest);
        rest &= rest - 1;
    }
    return 64;
}

/// The first closing byte of `block` after which the depth, `depth` at the
/// block's start, is below `floor`: its offset, or 64 when there is none.
static inline unsigned sj_first_below(const sj_cut_block *block, int64_t depth, int64_t floor) {
    uint64_t rest = block->close;
    while (rest) {
        // The bits up to and including this one (all of them for bit 63).
        uint64_t through = ((rest & (0 - rest)) << 1) - 1;
        int64_t here = depth + sj_popcount(block->open & through) - sj_popcount(block->close & through);
        if (here < floor) return (unsigned)__builtin_ctzll(rest);
        rest &= rest - 1;
    }
    return 64;
}

/// Where a block's depth may fall below the floor, which takes as many
/// closings as the distance to it: the offset of the closing that does, or 64.
static inline unsigned sj_below_floor(const sj_cut_state *state, const sj_cut_block *block, int closes) {
    if (state->depth - closes >= state->floor) return 64;
    return sj_first_below(block, state->depth, state->floor);
}

/// Stops the scan just after the closing byte at `at`, below the floor.
static inline unsigned sj_close_at(sj_cut_state *state, const sj_cut_block *block, unsigned at) {
    uint64_t through = (2ull << at) - 1;
    state->newlines += (uint64_t)sj_popcount(block->lf & through);
    state->depth += sj_popcount(block->open & through) - sj_popcount(block->close & through);
    state->in_string = 0;
    state->escaped = 0;
    state->closed = 1;
    return at;
}

/// Scans one resolved block for a cut, updating `state` to the byte after it
/// when there is one (and returning its offset), else to the block's end
/// (and returning 64). A closing below the floor before any cut stops it
/// there (`closed`, its offset returned).
static inline unsigned sj_scan_block(sj_cut_state *state, const sj_cut_block *block,
                                     int64_t target) {
    int opens = sj_popcount(block->open), closes = sj_popcount(block->close);
    unsigned below = sj_below_floor(state, block, closes);
    if (block->separator) {
        // The depth moves one step per opening or closing: the target is out
        // of reach when it is further than the block has of them that way.
        int reachable = target >= state->depth - closes && target <= state->depth + opens;
        unsigned at = reachable ? sj_first_cut(block, state->depth, target) : 64;
        if (at < below) {
            // The separator is no bracket, quote or backslash: after it the
            // depth is the target's, outside strings, nothing escaped.
            uint64_t through = (2ull << at) - 1;
            state->newlines += (uint64_t)sj_popcount(block->lf & through);
            state->depth = target;
            state->in_string = 0;
            state->escaped = 0;
            return at;
        }
    }
    if (below < 64) return sj_close_at(state, block, below);
    state->depth += opens - closes;
    state->newlines += (uint64_t)sj_popcount(block->lf);
    return 64;
}

static inline sj_cut_state sj_cut_load(const sj_cut_scan *scan) {
    sj_cut_state state = {scan->depth, 0 - (scan->in_string & 1), scan->escaped & 1, scan->newlines,
                          scan->floor, scan->closed};
    return state;
}

static inline void sj_cut_store(sj_cut_scan *scan, const sj_cut_state *state) {
    scan->depth = state->depth;
    scan->in_string = state->in_string & 1;
    scan->escaped = state->escaped;
    scan->newlines = state->newlines;
    scan->closed = state->closed;
}

/// Advances `state` over one resolved block; 1 when it closed there.
static inline int sj_advance_block(sj_cut_state *state, const sj_cut_block *block) {
    int closes = sj_popcount(block->close);
    unsigned below = sj_below_floor(state, block, closes);
    if (below < 64) {
        sj_close_at(state, block, below);
        return 1;
    }
    state->depth += sj_popcount(block->open) - closes;
    state->newlines += (uint64_t)sj_popcount(block->lf);
    return 0;
}

/// sj_cut_scan_advance, inlined into each build.
static inline __attribute__((always_inline))
void sj_advance(sj_cut_scan *scan, const uint8_t *bytes, size_t length) {
    sj_cut_state state = sj_cut_load(scan);
    if (state.closed) return;
    size_t i = 0;
    for (; length - i >= 64; i += 64) {
        // '\n' as the separator: the same comparison as the LF's, done once.
        sj_cut_bits bits = sj_classify(bytes + i, '\n');
        sj_cut_block block = sj_resolve(&state, &bits, 64);
        if (sj_advance_block(&state, &block)) break;
    }
    if (i < length && !state.closed) {
        sj_cut_bits bits = sj_classify_tail(bytes + i, length - i, '\n');
        sj_cut_block block = sj_resolve(&state, &bits, length - i);
        sj_advance_block(&state, &block);
    }
    sj_cut_store(scan, &state);
}

/// sj_cut_scan_find for one separator, inlined into each build.
static inline __attribute__((always_inline))
size_t sj_find_one(sj_cut_scan *scan, const uint8_t *bytes, size_t length, uint8_t separator,
                   int64_t depth) {
    sj_cut_state state = sj_cut_load(scan);
    if (state.closed) return 0;
    size_t i = 0;
    for (; length - i >= 64; i += 64) {
        sj_cut_bits bits = sj_classify(bytes + i, separator);
        sj_cut_block block = sj_resolve(&state, &bits, 64);
        unsigned at = sj_scan_block(&state, &block, depth);
        if (at < 64) {
            sj_cut_store(scan, &state);
            return i + at + 1;
        }
    }
    if (i < length) {
        sj_cut_bits bits = sj_classify_tail(bytes + i, length - i, separator);
        sj_cut_block block = sj_resolve(&state, &bits, length - i);
        unsigned at = sj_scan_block(&state, &block, depth);
        if (at < 64) {
            sj_cut_store(scan, &state);
            return i + at + 1;
        }
    }
    sj_cut_store(scan, &state);
    return length;
}

/// sj_cut_scan_find, with '\n' made a constant where it is the separator so
/// that its comparison and the LF's are one.
static inline __attribute__((always_inline))
size_t sj_find(sj_cut_scan *scan, const uint8_t *bytes, size_t length, uint8_t separator,
               int64_t depth) {
    if (separator == '\n') return sj_find_one(scan, bytes, length, '\n', depth);
    return sj_find_one(scan, bytes, length, separator, depth);
}

#if defined(SJ_CUT_SCAN_DISPATCH)
// The builds for CPUs with POPCNT: the same code, the popcounts one instruction.
__attribute__((target("popcnt")))
static void sj_advance_popcnt(sj_cut_scan *scan, const uint8_t *bytes, size_t length) {
    sj_advance(scan, bytes, length);
}

__attribute__((target("popcnt")))
static size_t sj_find_popcnt(sj_cut_scan *scan, const uint8_t *bytes, size_t length,
                             uint8_t separator, int64_t depth) {
    return sj_find(scan, bytes, length, separator, depth);
}

#endif

void sj_cut_scan_advance(sj_cut_scan *scan, const uint8_t *bytes, size_t length) {
#if defined(SJ_CUT_SCAN_DISPATCH)
    if (sj_has_popcnt()) {
        sj_advance_popcnt(scan, bytes, length);
        return;
    }
#endif
    sj_advance(scan, bytes, length);
}

size_t sj_cut_scan_find(sj_cut_scan *scan, const uint8_t *bytes, size_t length,
                        uint8_t separator, int64_t depth) {
#if defined(SJ_CUT_SCAN_DISPATCH)
    if (sj_has_popcnt()) return sj_find_popcnt(scan, bytes, length, separator, depth);
#endif
    return sj_find(scan, bytes, length, separator, depth);
}
