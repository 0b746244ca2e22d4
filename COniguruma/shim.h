// Oniguruma, jq's regular-expression engine: JSONFilter's test, match,
// capture, sub and gsub use it so that patterns mean what they mean in jq.
#include <oniguruma.h>
