#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the compressed fixtures of CompressedInputTests: the same records
# array (records(count:) in the tests computes it again) in each format the
# library recognises, and two gzip members one after the other. Needs the
# zstd command (apt-get install zstd) for the .zst file.
import bz2, gzip, lzma, subprocess, os

COUNT = 3000

def records():
    parts = []
    for i in range(COUNT):
        name = format((i * 2654435761) % (1 << 32), 'x')
        parts.append('{"id":%d,"name":"n%s","score":%d}' % (i, name, i % 97))
    return ('[' + ',\n'.join(parts) + ']\n').encode()

here = os.path.dirname(os.path.abspath(__file__))
text = records()
half = text.index(b'\n', len(text) // 2) + 1
with open(os.path.join(here, 'records.json.gz'), 'wb') as f:
    f.write(gzip.compress(text, mtime=0))
with open(os.path.join(here, 'records-two-members.json.gz'), 'wb') as f:
    f.write(gzip.compress(text[:half], mtime=0) + gzip.compress(text[half:], mtime=0))
with open(os.path.join(here, 'records.json.bz2'), 'wb') as f:
    f.write(bz2.compress(text))
with open(os.path.join(here, 'records.json.xz'), 'wb') as f:
    f.write(lzma.compress(text))
zst = subprocess.run(['zstd', '-q', '-c', '-19'], input=text, stdout=subprocess.PIPE, check=True).stdout
with open(os.path.join(here, 'records.json.zst'), 'wb') as f:
    f.write(zst)
