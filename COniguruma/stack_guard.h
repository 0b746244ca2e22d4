// SPDX-License-Identifier: Apache-2.0
// How much stack the jq evaluator may still use on this thread. The evaluator
// (JSONFilter/Evaluation/_Evaluator.swift) hands outputs to continuations, so
// its stack grows with the nesting of the program *and* with what a program
// computes: `recurse(f)` twenty thousand levels deep, or a long chain of
// operators whose operands each nest, used to overflow the stack and crash.
// It checks sj_stack_exhausted() on every step and fails with a runtime error.
#ifndef CONIGURUMA_STACK_GUARD_H
#define CONIGURUMA_STACK_GUARD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/// The lowest stack address this thread may reach before the evaluator
/// stops: a quarter of the stack, at most 512 KiB, is left for what runs
/// below it (writers, builtins, the C libraries). Found once per thread.
static inline uintptr_t sj_stack_floor(void) {
    static __thread uintptr_t floor;
    if (floor) return floor;
    uintptr_t low = 0;
    size_t size = 0;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    size = pthread_get_stacksize_np(self);
    low = (uintptr_t)pthread_get_stackaddr_np(self) - size;
#else
    pthread_attr_t attr;
    void *address = NULL;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &address, &size) != 0) size = 0;
        pthread_attr_destroy(&attr);
    }
    low = (uintptr_t)address;
#endif
    if (size == 0) {  // unknown: assume the smallest usual stack, 512 KiB below here
        char here;
        size = 512u << 10;
        low = (uintptr_t)&here - size;
    }
    size_t margin = size / 4 < (512u << 10) ? size / 4 : (512u << 10);
    floor = low + margin;
    return floor;
}

/// Whether the caller's frame is below the floor.
static inline int sj_stack_exhausted(void) {
    char here;
    return (uintptr_t)&here < sj_stack_floor();
}

#endif
