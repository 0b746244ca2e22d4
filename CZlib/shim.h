// SPDX-License-Identifier: Apache-2.0
// zlib, for gzip input: StreamingJSON/Parsing/_Decompressor+Gzip.swift is
// the only file that calls it.
#include <zlib.h>
