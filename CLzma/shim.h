// SPDX-License-Identifier: Apache-2.0
// liblzma, for xz input: StreamingJSON/Decompression/_Decompressor+XZ.swift is the
// only file that calls it.
#include <lzma.h>
