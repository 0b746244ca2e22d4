// SPDX-License-Identifier: Apache-2.0
// libzstd, for zstd input: StreamingJSON/Decompression/_Decompressor+Zstd.swift is
// the only file that calls it.
#include <zstd.h>
