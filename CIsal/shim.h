// SPDX-License-Identifier: Apache-2.0
// ISA-L's inflate, for gzip input: StreamingJSON/Decompression/
// _Decompressor+Gzip.swift is the only file that calls it.
#include <isa-l/igzip_lib.h>
