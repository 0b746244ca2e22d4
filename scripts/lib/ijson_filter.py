# SPDX-License-Identifier: Apache-2.0
"""jq's `.[] | select(.abv > 8) | {name, style}` in Python with ijson on its
yajl2_c backend (the C extension over yajl), for scripts/compare:

    python ijson_filter.py FILE > OUT

Prints each result as jq -c does: compact, non-ASCII as is. Fails, rather than
falling back to a pure-Python backend, when yajl2_c is not available."""
import json
import sys

try:
    import ijson
    backend = ijson.get_backend("yajl2_c")
except Exception as error:  # ImportError, or ijson's own error for a missing backend
    sys.exit("ijson's yajl2_c backend is not available (%s: %s); not falling back to the python backend"
             % (type(error).__name__, error))


def main(path):
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    write = sys.stdout.write
    with open(path, "rb") as f:
        # Numbers that are not integers come as Decimal. Not use_float=True:
        # with it yajl2_c takes yajl's integer callback, which fails with
        # "integer overflow" on the records' serials past Int64.max.
        for item in backend.items(f, "item"):
            abv = item.get("abv")  # every record has a number here; jq's null > 8 is false
            if abv is not None and abv > 8:
                write(dumps({"name": item.get("name"), "style": item.get("style")}))
                write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ijson_filter.py FILE")
    main(sys.argv[1])
