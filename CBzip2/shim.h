// SPDX-License-Identifier: Apache-2.0
// libbz2, for bzip2 input: StreamingJSON/Decompression/_Decompressor+Bzip2.swift is
// the only file that calls it.
#include <bzlib.h>
