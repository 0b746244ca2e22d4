// SPDX-License-Identifier: Apache-2.0
// yajl's headers, and non-variadic wrappers for its variadic configuration
// calls (Swift cannot call C variadics). The recorder that turns yajl's
// events into a tape is the C target CJSONTape.
#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_version.h>

/// `yajl_config(handle, option, value)` for the options that take one int.
static inline int cyajl_config(yajl_handle handle, yajl_option option, int value) {
    return yajl_config(handle, option, value);
}

/// `yajl_gen_config(gen, option, value)` for the options that take one int
/// (beautify, validate_utf8, escape_solidus).
static inline int cyajl_gen_config(yajl_gen gen, yajl_gen_option option, int value) {
    return yajl_gen_config(gen, option, value);
}

/// `yajl_gen_config(gen, yajl_gen_indent_string, indent)`.
static inline int cyajl_gen_config_indent(yajl_gen gen, const char *indent) {
    return yajl_gen_config(gen, yajl_gen_indent_string, indent);
}

#endif
