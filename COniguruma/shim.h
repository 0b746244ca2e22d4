// SPDX-License-Identifier: Apache-2.0
// Oniguruma, jq's regular-expression engine: JSONFilter's test, match,
// capture, sub and gsub use it so that patterns mean what they mean in jq.
#include <oniguruma.h>
// JSONFilter's other C need: knowing when its evaluator nears the stack's end.
#include "stack_guard.h"
