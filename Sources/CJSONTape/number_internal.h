// SPDX-License-Identifier: Apache-2.0
// Shared by number.c and the generated powers_of_ten.c.
#ifndef SJ_NUMBER_INTERNAL_H
#define SJ_NUMBER_INTERNAL_H
#include <stdint.h>

#define SJ_POWERS_MIN_EXPONENT (-348)
#define SJ_POWERS_MAX_EXPONENT 347

extern const uint64_t sj_powers_of_ten[SJ_POWERS_MAX_EXPONENT - SJ_POWERS_MIN_EXPONENT + 1][2];

#endif
