// SPDX-License-Identifier: Apache-2.0
// The checks yajl 2.1 lacks, run over each chunk before yajl sees it:
// unpaired \u surrogate escapes and UTF-8 forms that valid UTF-8 does not
// have. Both are followed across chunk boundaries (sj_checks); the reasons
// are in tape_feed.c's opening comment.
#include "tape_internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// MARK: - Surrogate escapes

static inline int sj_hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/// Follows the escapes in `bytes`. Returns the index of the byte that shows
/// a surrogate escape to be unpaired (escUnit holds its code unit), or
/// SIZE_MAX when there is none.
size_t sj_check_escapes(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base) {
    size_t i = 0;
    while (i < length) {
        unsigned char c = bytes[i];
        switch (p->checks.escState) {
        case SJ_ESC_NONE: {
            const unsigned char *next = memchr(bytes + i, '\\', length - i);
            if (!next) return SIZE_MAX;
            i = (size_t)(next - bytes);
            p->checks.escStart = base + i;
            p->checks.escState = SJ_ESC_BACKSLASH;
            break;
        }
        case SJ_ESC_BACKSLASH:
        case SJ_ESC_AFTER_HIGH_BACKSLASH:
            if (c == 'u') {
                p->checks.escState = p->checks.escState == SJ_ESC_BACKSLASH ? SJ_ESC_HEX : SJ_ESC_LOW_HEX;
                p->checks.escDigits = 0;
                if (p->checks.escState == SJ_ESC_HEX) p->checks.escUnit = 0;
            } else if (p->checks.escState == SJ_ESC_AFTER_HIGH_BACKSLASH) {
                return i;  // a high surrogate, then another escape
            } else {
                p->checks.escState = SJ_ESC_NONE;  // a one-letter escape (yajl checks which)
            }
            break;
        case SJ_ESC_HEX:
        case SJ_ESC_LOW_HEX: {
            int digit = sj_hex(c);
            if (digit < 0) {  // yajl reports it
                p->checks.escState = SJ_ESC_NONE;
                break;
            }
            unsigned int unit = p->checks.escState == SJ_ESC_HEX ? p->checks.escUnit : (p->checks.escUnit >> 16);
            unit = (unit << 4) | (unsigned int)digit;
            if (p->checks.escState == SJ_ESC_HEX) p->checks.escUnit = unit;
            else p->checks.escUnit = (p->checks.escUnit & 0xFFFF) | (unit << 16);
            if (++p->checks.escDigits < 4) break;
            if (p->checks.escState == SJ_ESC_LOW_HEX) {
                if (unit < 0xDC00 || unit > 0xDFFF) return i;  // not a low surrogate
                p->checks.escState = SJ_ESC_NONE;
            } else if (unit >= 0xD800 && unit <= 0xDBFF) {
                p->checks.escState = SJ_ESC_AFTER_HIGH;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                return i;  // a low surrogate on its own
            } else {
                p->checks.escState = SJ_ESC_NONE;
            }
            break;
        }
        case SJ_ESC_AFTER_HIGH:
            if (c != '\\') return i;  // a high surrogate on its own
            p->checks.escState = SJ_ESC_AFTER_HIGH_BACKSLASH;
            break;
        }
        i++;
    }
    return SIZE_MAX;
}

// MARK: - Strict UTF-8

/// Whether `next`, a continuation byte after `lead`, makes the sequence one
/// that valid UTF-8 does not have: the reason, or 0.
static inline int sj_utf8_second_bad(unsigned char lead, unsigned char next) {
    switch (lead) {
    case 0xE0: return next >= 0x80 && next <= 0x9F ? SJ_UTF8_OVERLONG : 0;
    case 0xED: return next >= 0xA0 && next <= 0xBF ? SJ_UTF8_SURROGATE : 0;  // U+D800..U+DFFF
    case 0xF0: return next >= 0x80 && next <= 0x8F ? SJ_UTF8_OVERLONG : 0;
    case 0xF4: return next >= 0x90 && next <= 0xBF ? SJ_UTF8_PAST_MAX : 0;
    default: return 0;
    }
}

/// The lead byte at `i` (0xC0 or more): SIZE_MAX when its form is allowed,
/// else the index of the byte that shows it is not (the reason in utf8Bad).
/// A lead whose next byte decides, as the chunk's last byte, is noted in
/// utf8Lead for the next chunk.
static inline size_t sj_check_lead(sj_parser *p, const unsigned char *bytes, size_t length, size_t i) {
    unsigned char c = bytes[i];
    if (c <= 0xC1) { p->checks.utf8Bad = SJ_UTF8_OVERLONG; return i; }
    if (c >= 0xF5 && c <= 0xF7) { p->checks.utf8Bad = SJ_UTF8_PAST_MAX; return i; }
    if (c == 0xE0 || c == 0xED || c == 0xF0 || c == 0xF4) {
        if (i + 1 == length) { p->checks.utf8Lead = c; return SIZE_MAX; }
        if ((p->checks.utf8Bad = (unsigned char)sj_utf8_second_bad(c, bytes[i + 1]))) return i + 1;
    }
    return SIZE_MAX;
}

/// Returns the index of the first byte in `bytes` that shows a UTF-8 form
/// yajl would accept but valid UTF-8 does not have (the reason in
/// utf8Bad), or SIZE_MAX. Only lead bytes (0xC0 and up) can show one: with
/// SSE2 they are found 16 bytes at a time, otherwise ASCII is skipped eight
/// bytes at a time.
size_t sj_check_utf8(sj_parser *p, const unsigned char *bytes, size_t length) {
    size_t i = 0;
    if (p->checks.utf8Lead && length) {
        unsigned char lead = p->checks.utf8Lead;
        p->checks.utf8Lead = 0;
        if ((p->checks.utf8Bad = (unsigned char)sj_utf8_second_bad(lead, bytes[0]))) return 0;
    }
#if defined(__SSE2__)
    const __m128i top = _mm_set1_epi8((char)0xC0);
    for (; length - i >= 16; i += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
        unsigned leads = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(block, top), top));
        while (leads) {
            size_t bad = sj_check_lead(p, bytes, length, i + (size_t)__builtin_ctz(leads));
            if (bad != SIZE_MAX) return bad;
            leads &= leads - 1;
        }
    }
#endif
    while (i < length) {
        if (length - i >= 8) {
            uint64_t word;
            memcpy(&word, bytes + i, 8);
            if (!(word & 0x8080808080808080ULL)) { i += 8; continue; }
        }
        if (bytes[i] >= 0xC0) {
            size_t bad = sj_check_lead(p, bytes, length, i);
            if (bad != SIZE_MAX) return bad;
        }
        i++;
    }
    return SIZE_MAX;
}
