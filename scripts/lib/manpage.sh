# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/man and scripts/check-install.

# require_clean_render PAGE WHO: fails (exit 1, with man's messages) when
# `man -l PAGE` complains about anything on stderr.
require_clean_render() {
    local page=$1 who=$2 problems
    problems=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null || true)
    if [ -n "$problems" ]; then
        echo "$problems" | head >&2
        echo "$who: man reports problems in $page" >&2
        exit 1
    fi
}
