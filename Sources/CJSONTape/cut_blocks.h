// SPDX-License-Identifier: Apache-2.0
// The cut-point scan's block arithmetic, shared by the scan (cut_scan.c) and
// the tally of a byte range (cut_tally.c): each 64-byte block as bits, its
// escapes and strings resolved. See cut_scan.c for the rules it follows.
#ifndef SJ_CUT_BLOCKS_H
#define SJ_CUT_BLOCKS_H
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

/// The escaped bytes of a block of `length` bytes (64, or fewer for the
/// tail), given whether its first byte is escaped (`*escaped`, 0 or 1),
/// which becomes whether the byte after the block is.
static inline uint64_t sj_block_escapes(const sj_cut_bits *bits, uint64_t *escaped, size_t length) {
    // Most blocks have no backslash: skip the run arithmetic there.
    if (!(bits->backslash | *escaped)) return 0;
    uint64_t carry = *escaped;
    uint64_t bytes = sj_escaped(bits->backslash, &carry);
    *escaped = length == 64 ? carry : (bytes >> length) & 1;
    return bytes;
}

/// Resolves a block of `length` bytes (64, or fewer for the tail, whose bits
/// past its end are 0): the bytes that count, and `state`'s string and escape
/// carried to the block's end. The depth and newlines are left to the caller.
static inline sj_cut_block sj_resolve(sj_cut_state *state, const sj_cut_bits *bits, size_t length) {
    uint64_t escaped = sj_block_escapes(bits, &state->escaped, length);
    uint64_t inside = sj_prefix_xor(bits->quote & ~escaped) ^ state->in_string;
    // Past a tail's end there are no quotes: bit 63 is the string's state
    // after the last byte in both cases.
    state->in_string = 0 - (inside >> 63);
    uint64_t counts = ~(inside | escaped);
    sj_cut_block block = {bits->open & counts, bits->close & counts,
                          bits->separator & counts, bits->lf};
    return block;
}

#if defined(SJ_CUT_SCAN_DISPATCH)
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

#endif
