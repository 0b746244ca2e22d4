# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts: installs the system packages they need when missing.
# Debian/Ubuntu: apt-get (as root, or through sudo); macOS: Homebrew.
# Usage: ensure_packages deb-package... (Homebrew names are mapped below)
#
# libyajl-dev stands for all the C libraries the StreamingJSON target links:
# yajl and the decompressors (ISA-L for gzip, zstd, bzip2, xz).

ensure_packages() {
    local missing=()
    local pkg requested=()
    for pkg in "$@"; do
        requested+=("$pkg")
        [ "$pkg" = libyajl-dev ] && requested+=(libisal-dev libzstd-dev libbz2-dev liblzma-dev)
    done
    for pkg in "${requested[@]}"; do
        case "$pkg" in
            libyajl-dev) pkg-config --exists yajl 2>/dev/null || missing+=("$pkg") ;;
            libisal-dev) pkg-config --exists libisal 2>/dev/null || missing+=("$pkg") ;;
            libzstd-dev) pkg-config --exists libzstd 2>/dev/null || missing+=("$pkg") ;;
            liblzma-dev) pkg-config --exists liblzma 2>/dev/null || missing+=("$pkg") ;;
            # No pkg-config file; macOS has it in the SDK.
            libbz2-dev) [ "$(uname -s)" = Darwin ] || [ -f /usr/include/bzlib.h ] || missing+=("$pkg") ;;
            libonig-dev) pkg-config --exists oniguruma 2>/dev/null || missing+=("$pkg") ;;
            yajl-tools) command -v json_verify >/dev/null 2>&1 || missing+=("$pkg") ;;
            python3-venv) python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=("$pkg") ;;
            man-db) command -v man >/dev/null 2>&1 || missing+=(man-db) ;;
            prlimit) command -v prlimit >/dev/null 2>&1 || missing+=(util-linux) ;;
            dpkg-shlibdeps) command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev) ;;
            build-essential) { command -v cc && command -v make; } >/dev/null 2>&1 || missing+=("$pkg") ;;
            *) command -v "$pkg" >/dev/null 2>&1 || missing+=("$pkg") ;;
        esac
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    if [ "$(uname -s)" = Darwin ]; then
        local brew_names=()
        for pkg in "${missing[@]}"; do
            case "$pkg" in
                libyajl-dev|yajl-tools) brew_names+=(yajl) ;;
                libonig-dev) brew_names+=(oniguruma) ;;
                libisal-dev) brew_names+=(isa-l) ;;
                libzstd-dev) brew_names+=(zstd) ;;
                liblzma-dev) brew_names+=(xz) ;;
                python3-venv) brew_names+=(python3) ;;
                build-essential) echo "Missing a C compiler or make: xcode-select --install" >&2; return 1 ;;
                *) brew_names+=("$pkg") ;;
            esac
        done
        if command -v brew >/dev/null 2>&1; then
            brew install "${brew_names[@]}"
        else
            echo "Missing: ${brew_names[*]}. Install Homebrew, then: brew install ${brew_names[*]}" >&2
            return 1
        fi
    elif [ "$(id -u)" = 0 ]; then
        echo "Installing ${missing[*]} ..." >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        echo "Installing ${missing[*]} ..." >&2
        sudo apt-get update -qq >/dev/null
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "Missing packages. Run:  sudo apt-get install -y ${missing[*]}" >&2
        return 1
    fi
}
