// SPDX-License-Identifier: Apache-2.0
// String escaping for the encoder and jq's compact output: the bytes of a
// JSON string's content, escaped as Foundation's JSONEncoder escapes them
// (or with DEL escaped too, as jq does), 16 bytes at a time
// (SSE2) or 8 at a time elsewhere. The encoder's writers use it
// (`_JSONOutput+Scalars.swift`), and so does `jsonstream -c` writing a value
// from the tape (`_JQWriter+Tape.swift`).
#include "CJSONTape.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Writes the escape for `byte` (one that needs one) at `to`: `\"`, `\\`,
/// `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\u00xx`. Returns its length.
static inline size_t sj_write_escape(unsigned char *to, unsigned char byte) {
    static const char hex[] = "0123456789abcdef";
    unsigned char letter;
    switch (byte) {
    case '"': letter = '"'; break;
    case '\\': letter = '\\'; break;
    case '/': letter = '/'; break;
    case '\b': letter = 'b'; break;
    case '\f': letter = 'f'; break;
    case '\n': letter = 'n'; break;
    case '\r': letter = 'r'; break;
    case '\t': letter = 't'; break;
    default:
        to[0] = '\\';
        to[1] = 'u';
        to[2] = '0';
        to[3] = '0';
        to[4] = (unsigned char)hex[byte >> 4];
        to[5] = (unsigned char)hex[byte & 15];
        return 6;
    }
    to[0] = '\\';
    to[1] = letter;
    return 2;
}

/// Writes `source[0..<length]` escaped (no quotes) at `to` and returns the
/// number of bytes written. `to` needs room for `6 * length + 16` bytes:
/// clean runs are stored 16 (or 8) bytes at a time, past what they keep.
/// Reads nothing past `source + length`.
size_t sj_write_escaped(unsigned char *to, const unsigned char *source, size_t length,
                        int flags) {
    unsigned char *d = to;
    size_t i = 0;
    const int slashes = flags & SJ_ESCAPE_SLASHES, del = flags & SJ_ESCAPE_DEL;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i slash = _mm_set1_epi8('/'), control = _mm_set1_epi8(0x1F);
    const __m128i delByte = _mm_set1_epi8(0x7F);
    while (length - i >= 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(const void *)(source + i));
        __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash));
        // A byte at most 0x1F is its own maximum with 0x1F.
        hits = _mm_or_si128(hits, _mm_cmpeq_epi8(_mm_max_epu8(block, control), control));
        if (slashes) hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, slash));
        if (del) hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, delByte));
        _mm_storeu_si128((__m128i *)(void *)d, block);
        unsigned mask = (unsigned)_mm_movemask_epi8(hits);
        if (!mask) {
            i += 16;
            d += 16;
            continue;
        }
        unsigned clean = (unsigned)__builtin_ctz(mask);
        d += clean;
        d += sj_write_escape(d, source[i + clean]);
        i += clean + 1;
    }
#endif
    // A word at a time, the last one partial (the bytes past the end read
    // as zero, which count as control characters, masked off): a byte is
    // flagged (its high bit set) when it is below 0x20 or one of the
    // escaped characters. The lowest flag is exact (borrows run upward).
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (i < length) {
        size_t rest = length - i;
        uint64_t word = 0, valid = ~(uint64_t)0;
        size_t take = 8;
        if (rest >= 8) {
            memcpy(&word, source + i, 8);
        } else {
            if (rest >= 4) {
                uint32_t low, high;
                memcpy(&low, source + i, 4);
                memcpy(&high, source + length - 4, 4);
                word = (uint64_t)low | ((uint64_t)high << ((rest - 4) * 8));
            } else {
                word = (uint64_t)source[i] | ((uint64_t)source[i + (rest >> 1)] << ((rest >> 1) * 8)) |
                       ((uint64_t)source[length - 1] << ((rest - 1) * 8));
            }
            valid = ((uint64_t)1 << (rest * 8)) - 1;
            take = rest;
        }
        uint64_t found = (word - ones * 0x20) & ~word & highs;
        uint64_t q = word ^ (ones * 0x22), b = word ^ (ones * 0x5C);
        found |= ((q - ones) & ~q & highs) | ((b - ones) & ~b & highs);
        if (slashes) {
            uint64_t s = word ^ (ones * 0x2F);
            found |= (s - ones) & ~s & highs;
        }
        if (del) {
            uint64_t x = word ^ (ones * 0x7F);
            found |= (x - ones) & ~x & highs;
        }
        found &= valid;
        memcpy(d, &word, 8);
        if (!found) {
            i += take;
            d += take;
            continue;
        }
        unsigned clean = (unsigned)__builtin_ctzll(found) >> 3;
        d += clean;
        d += sj_write_escape(d, source[i + clean]);
        i += clean + 1;
    }
    return (size_t)(d - to);
}
