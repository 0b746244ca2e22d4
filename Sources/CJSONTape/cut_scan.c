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
#include "CJSONTape.h"
#include <string.h>
#if defined(SJ_CUT_SCAN_PORTABLE)
#elif defined(__SSE2__)
#define SJ_CUT_SCAN_SSE2 1
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define SJ_CUT_SCAN_NEON 1
#include <arm_neon.h>
#endif
#if defined(__x86_64__) && !defined(__POPCNT__) && (defined(__clang__) || defined(__GNUC__))
#define SJ_CUT_SCAN_DISPATCH 1
#include <cpuid.h>
#include <stdatomic.h>
#endif

/// One 64-byte block as bits, bit k for byte k.
typedef struct sj_cut_bits {
    uint64_t quote, backslash, open, close, separator, lf;
} sj_cut_bits;

/// The scan's state in the form the block code wants: in-string as a whole
/// mask, to be XORed into a block's prefix XOR without a shift.
typedef struct sj_cut_state {
    int64_t depth;
    uint64_t in_string;   // all ones inside a string, else 0
    uint64_t escaped;     // 1 when the block's first byte is escaped
    uint64_t newlines;
    int64_t floor;
    uint64_t closed;
} sj_cut_state;

/// A block's bytes that count, once strings and escapes are known.
typedef struct sj_cut_block {
    uint64_t open, close, separator;   // outside strings, not escaped
    uint64_t lf;                       // every LF
} sj_cut_block;

static inline int sj_popcount(uint64_t bits) {
    return __builtin_popcountll(bits);
}

// MARK: - Classifying

#if defined(SJ_CUT_SCAN_SSE2)
/// The 16 bytes at `p` compared with each character, as six 16-bit masks
/// put in place at bit `shift` of each of `bits`' masks.
static inline void sj_classify16(const uint8_t *p, __m128i separator, unsigned shift,
                                 sj_cut_bits *bits) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    // [ and { differ from each other only in bit 0x20, as do ] and }: one
    // OR folds each pair onto one comparison.
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
    bits->quote |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) << shift;
    bits->backslash |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) << shift;
    bits->open |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{'))) << shift;
    bits->close |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))) << shift;
    bits->separator |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, separator)) << shift;
    bits->lf |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) << shift;
}

/// The 64 bytes at `p` (no alignment needed) as bits.
static inline sj_cut_bits sj_classify(const uint8_t *p, uint8_t separator) {
    sj_cut_bits bits = {0, 0, 0, 0, 0, 0};
    __m128i wanted = _mm_set1_epi8((char)separator);
    sj_classify16(p, wanted, 0, &bits);
    sj_classify16(p + 16, wanted, 16, &bits);
    sj_classify16(p + 32, wanted, 32, &bits);
    sj_classify16(p + 48, wanted, 48, &bits);
    return bits;
}
#elif defined(SJ_CUT_SCAN_NEON)
/// Four comparisons of 16 bytes (each byte 0 or 0xFF) as one 64-bit mask:
/// each byte keeps its bit's weight within its group of 8, and three rounds
/// of pairwise adds sum each group of 8 into one byte.
static inline uint64_t sj_mask64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t weight = vld1q_u8(weights);
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, weight), vandq_u8(b, weight));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, weight), vandq_u8(d, weight));
    uint8x16_t sum = vpaddq_u8(ab, cd);
    sum = vpaddq_u8(sum, sum);
    return vgetq_lane_u64(vreinterpretq_u64_u8(sum), 0);
}

/// The 64 bytes at `p` compared with `c`, as a mask.
#define SJ_NEON_EQ(v, c) sj_mask64(vceqq_u8((v)[0], (c)), vceqq_u8((v)[1], (c)), \
                                   vceqq_u8((v)[2], (c)), vceqq_u8((v)[3], (c)))

/// The 64 bytes at `p` (no alignment needed) as bits.
static inline sj_cut_bits sj_classify(const uint8_t *p, uint8_t separator) {
    uint8x16_t v[4] = {vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)};
    // [ and { differ only in bit 0x20, as do ] and }: one OR folds each pair.
    const uint8x16_t fold = vdupq_n_u8(0x20);
    uint8x16_t folded[4] = {vorrq_u8(v[0], fold), vorrq_u8(v[1], fold),
                            vorrq_u8(v[2], fold), vorrq_u8(v[3], fold)};
    sj_cut_bits bits;
    bits.quote = SJ_NEON_EQ(v, vdupq_n_u8('"'));
    bits.backslash = SJ_NEON_EQ(v, vdupq_n_u8('\\'));
    bits.open = SJ_NEON_EQ(folded, vdupq_n_u8('{'));
    bits.close = SJ_NEON_EQ(folded, vdupq_n_u8('}'));
    bits.separator = SJ_NEON_EQ(v, vdupq_n_u8(separator));
    bits.lf = SJ_NEON_EQ(v, vdupq_n_u8('\n'));
    return bits;
}
#else
/// The 64 bytes at `p` as bits, one byte at a time (no SIMD here).
static inline sj_cut_bits sj_classify(const uint8_t *p, uint8_t separator) {
    sj_cut_bits bits = {0, 0, 0, 0, 0, 0};
    for (unsigned k = 0; k < 64; k++) {
        uint8_t c = p[k];
        uint8_t folded = (uint8_t)(c | 0x20);
        bits.quote |= (uint64_t)(c == '"') << k;
        bits.backslash |= (uint64_t)(c == '\\') << k;
        bits.open |= (uint64_t)(folded == '{') << k;
        bits.close |= (uint64_t)(folded == '}') << k;
        bits.separator |= (uint64_t)(c == separator) << k;
        bits.lf |= (uint64_t)(c == '\n') << k;
    }
    return bits;
}
#endif

/// The last `length` (1 to 63) bytes of the input, copied into a block of
/// their own so that nothing past them is read, as bits. The padding's bits
/// are cleared, whatever the separator, so it is neither separator, quote
/// nor backslash.
static inline sj_cut_bits sj_classify_tail(const uint8_t *p, size_t length, uint8_t separator) {
    uint8_t block[64];
    memset(block, 0, sizeof block);
    memcpy(block, p, length);
    sj_cut_bits bits = sj_classify(block, separator);
    uint64_t valid = (1ull << length) - 1;
    bits.quote &= valid;
    bits.backslash &= valid;
    bits.open &= valid;
    bits.close &= valid;
    bits.separator &= valid;
    bits.lf &= valid;
    return bits;
}

// MARK: - Strings and escapes

/// The bytes escaped by a backslash, given the block's backslashes and
/// whether its first byte is escaped (`*carry`, 0 or 1), which becomes
/// whether the byte after the block is. Bit 64 of the result, so to speak,
/// is in `*carry`; with fewer than 64 bytes it is at the bit after the last.
///
/// A backslash escapes the next byte when it is at an even offset in its run
/// (counted from the run's first unescaped backslash): so a run escapes the
/// byte after it when its length is odd. Adding a run's first bit to the run
/// carries through it to the byte just after it, whose bit parity, against
/// that of the run's start, tells the run's length parity.
static inline uint64_t sj_escaped(uint64_t backslash, uint64_t *carry) {
    const uint64_t even = 0x5555555555555555ull;
    uint64_t escaped_first = *carry;
    // A backslash escaped from the block before starts no run.
    uint64_t runs = backslash & ~escaped_first;
    uint64_t starts = runs & ~(runs << 1);
    uint64_t after_even = (runs + (starts & even)) & ~runs;
    uint64_t after_odd;
    // A run with an odd start that reaches bit 63 has an odd length, so it
    // escapes the next block's first byte: the add's overflow says so.
    *carry = __builtin_add_overflow(runs, starts & ~even, &after_odd) ? 1 : 0;
    after_odd &= ~runs;
    return (after_even & ~even) | (after_odd & even) | escaped_first;
}

/// Each bit the XOR of all bits up to it: 1 from an opening quote up to its
/// closing quote, which is 0. Shifts rather than a carry-less multiply, which
/// x86_64's baseline lacks.
static inline uint64_t sj_prefix_xor(uint64_t bits) {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

/// Resolves a block of `length` bytes (64, or fewer for the tail, whose bits
/// past its end are 0): the bytes that count, and `state`'s string and escape
/// carried to the block's end. The depth and newlines are left to the caller.
static inline sj_cut_block sj_resolve(sj_cut_state *state, const sj_cut_bits *bits, size_t length) {
    uint64_t escaped = 0;
    // Most blocks have no backslash: skip the run arithmetic there.
    if (bits->backslash | state->escaped) {
        uint64_t carry = state->escaped;
        escaped = sj_escaped(bits->backslash, &carry);
        state->escaped = length == 64 ? carry : (escaped >> length) & 1;
    }
    uint64_t inside = sj_prefix_xor(bits->quote & ~escaped) ^ state->in_string;
    // Past a tail's end there are no quotes: bit 63 is the string's state
    // after the last byte in both cases.
    state->in_string = 0 - (inside >> 63);
    uint64_t counts = ~(inside | escaped);
    sj_cut_block block = {bits->open & counts, bits->close & counts,
                          bits->separator & counts, bits->lf};
    return block;
}

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

/// Whether the CPU has POPCNT, asked once: CPUID is slow (a virtual
/// machine may trap it), and a scan may be one call per element. Threads
/// that race to ask store the same answer.
static inline int sj_has_popcnt(void) {
    static _Atomic int known;   // 0: not asked yet, 1: no, 2: yes
    int answer = atomic_load_explicit(&known, memory_order_relaxed);
    if (answer == 0) {
        unsigned eax, ebx, ecx, edx;
        answer = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_POPCNT) ? 2 : 1;
        atomic_store_explicit(&known, answer, memory_order_relaxed);
    }
    return answer == 2;
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
