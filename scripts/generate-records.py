#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a deterministic dump of realistic beer records: a root-level JSON
array (default) or JSON Lines. Same arguments, same bytes, on any machine.

    scripts/generate-records.py --size 200MB --out records.json
    scripts/generate-records.py --size 1GiB --format lines --out records.jsonl

Records mix ints (some past Int64.max, as UInt64), doubles, escaped and
non-ASCII strings, ISO-8601 dates, nulls, nested objects and arrays.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
sys.dont_write_bytecode = True
from xorshift import Random  # noqa: E402

STYLES = ["ipa", "stout", "lager", "pilsner", "porter", "saison", "kolsch", "wheat", "sour", "barleywine"]
WORDS = ["Hoppy", "Trails", "Midnight", "Golden", "Rusty", "Old", "Wild", "Hazy", "Smoked", "Crisp",
         "Imperial", "Double", "Session", "Dark", "Bright", "Copper", "Velvet", "Thunder", "Citrus", "Oak"]
CITIES = [("Zürich", "CH"), ("München", "DE"), ("Portland", "US"), ("Québec", "CA"), ("Kraków", "PL"),
          ("São Paulo", "BR"), ("東京", "JP"), ("Brussels", "BE"), ("Dublin", "IE"), ("Melbourne", "AU")]
TAGS = ["hoppy", "bitter", "malty", "fruity", "sour", "roasty", "smooth", "dry", "sweet", "funky"]
NOTES = ["Pours \"golden\" with a thick head.", "Notes of café & crème brûlée.", "Tab\tseparated\tnotes",
         "Path C:\\beer\\notes", "Line one\nLine two", "Emoji 🍺 and ünïcödé", "Plain description",
         "Slash / and </script>", "Control \u0001 char", "Quote ' and \"double\""]


def record(index, rng):
    city, country = rng.choice(CITIES)
    year = 2000 + rng.below(25)
    created = "%04d-%02d-%02dT%02d:%02d:%02dZ" % (year, 1 + rng.below(12), 1 + rng.below(28),
                                                  rng.below(24), rng.below(60), rng.below(60))
    abv_tenths = 30 + rng.below(100)  # 3.0 .. 12.9
    return {
        "id": index,
        "serial": 9223372036854775807 + rng.below(1 << 62) if rng.below(10) == 0 else rng.below(1 << 40),
        "name": "%s %s %s" % (rng.choice(WORDS), rng.choice(WORDS), rng.choice(STYLES).upper()),
        "brewery": {"id": rng.below(5000), "name": "%s Brewing" % rng.choice(WORDS), "city": city,
                    "country": country},
        "style": rng.choice(STYLES),
        "abv": abv_tenths / 10,
        "ibu": rng.below(120) if rng.below(5) else None,
        "rating": round(1 + rng.below(400) / 100, 2),
        "price": (99 + rng.below(2000)) / 100,
        "created_at": created,
        "tags": [rng.choice(TAGS) for _ in range(rng.below(4))],
        "description": rng.choice(NOTES),
        "available": rng.below(2) == 1,
        "retired_at": None,
        "scores": [rng.below(50) / 10 for _ in range(1 + rng.below(3))],
    }


def parse_size(text):
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?", text.strip(), re.I)
    if not match:
        raise SystemExit("bad size: " + text)
    units = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}
    return int(float(match.group(1)) * units[(match.group(2) or "b").lower()])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="10MB", help="approximate output size (e.g. 200MB, 1GiB)")
    parser.add_argument("--format", choices=["array", "lines"], default="array")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()

    target = parse_size(args.size)
    rng = Random(args.seed)
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    written = 0
    index = 0
    batch = []
    if args.format == "array":
        out.write(b"[\n")
        written += 2
    while written < target:
        line = encoder.encode(record(index, rng)).encode("utf-8")
        if args.format == "array" and index > 0:
            line = b",\n" + line
        elif args.format == "lines":
            line += b"\n"
        batch.append(line)
        written += len(line)
        index += 1
        if len(batch) >= 4096:
            out.write(b"".join(batch))
            batch.clear()
    out.write(b"".join(batch))
    if args.format == "array":
        out.write(b"\n]\n")
    out.flush()
    if out is not sys.stdout.buffer:
        out.close()
    print("%d records, %d bytes" % (index, written), file=sys.stderr)


if __name__ == "__main__":
    main()
