// SPDX-License-Identifier: Apache-2.0
// Decimal to binary floating point: the Eisel-Lemire method. A decimal
// w × 10^q (w of up to 19 digits) is multiplied by a 128-bit truncation of
// 10^q's binary mantissa (powers_of_ten.c); the top 54 bits of the product
// give the double, rounded to nearest even, unless the truncated bits could
// change the rounding. Then the answer is "don't know" and the caller uses a
// slower exact parser: that happens for a tiny share of inputs (exact
// halfway cases, subnormals, overflow), never for ordinary data.
#include "CJSONTape.h"
#include "number_internal.h"
#include <string.h>

/// The 128-bit product of two 64-bit integers, as its high and low halves.
static inline void sj_multiply(uint64_t a, uint64_t b, uint64_t *high, uint64_t *low) {
    __uint128_t product = (__uint128_t)a * b;
    *high = (uint64_t)(product >> 64);
    *low = (uint64_t)product;
}

bool sj_decimal_to_double(uint64_t digits, int64_t exponent10, bool negative, double *result) {
    if (digits == 0) {
        *result = negative ? -0.0 : 0.0;
        return true;
    }
    if (exponent10 < SJ_POWERS_MIN_EXPONENT || exponent10 > SJ_POWERS_MAX_EXPONENT) return false;
    const uint64_t *power = sj_powers_of_ten[exponent10 - SJ_POWERS_MIN_EXPONENT];

    // The digits with their top bit set, and the biased binary exponent that
    // goes with that: floor(q × log2(10)) (217706 / 2^16 ≈ log2(10), exact
    // for the table's range) + 64 for the product's width + 1023 bias.
    int leading = __builtin_clzll(digits);
    uint64_t w = digits << leading;
    uint64_t exponent2 = (uint64_t)(((217706 * exponent10) >> 16) + 64 + 1023 - leading);

    uint64_t high, low;
    sj_multiply(w, power[1], &high, &low);
    // The 9 bits below the 55 that matter are all ones and the low half could
    // carry: take the power's next 64 bits into account.
    if ((high & 0x1FF) == 0x1FF && low + w < w) {
        uint64_t nextHigh, nextLow;
        sj_multiply(w, power[0], &nextHigh, &nextLow);
        uint64_t mergedHigh = high, mergedLow = low + nextHigh;
        if (mergedLow < low) mergedHigh++;
        // Still all ones, and the rest of the power could carry: undecided.
        if ((mergedHigh & 0x1FF) == 0x1FF && mergedLow + 1 == 0 && nextLow + w < w) return false;
        high = mergedHigh;
        low = mergedLow;
    }

    // Keep 54 bits (one more than a double holds, for rounding).
    uint64_t topBit = high >> 63;
    uint64_t mantissa = high >> (topBit + 9);
    exponent2 -= 1 ^ topBit;

    // Exactly halfway between two doubles as far as these bits tell: undecided.
    if (low == 0 && (high & 0x1FF) == 0 && (mantissa & 3) == 1) return false;

    mantissa += mantissa & 1;  // round half to even
    mantissa >>= 1;
    if (mantissa >> 53) {  // rounding carried into a new bit
        mantissa >>= 1;
        exponent2 += 1;
    }
    // Subnormal (exponent 0 or below, wrapped) or infinite: left to the caller.
    if (exponent2 - 1 >= 0x7FF - 1) return false;

    uint64_t bits = exponent2 << 52 | (mantissa & ((UINT64_C(1) << 52) - 1));
    if (negative) bits |= UINT64_C(1) << 63;
    memcpy(result, &bits, sizeof bits);
    return true;
}
