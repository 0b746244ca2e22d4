#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the public symbols declared in this package's sources that have no
doc comment of their own, from the symbol graphs that
`swift package generate-documentation` extracts.

A symbol that only inherits its documentation from a protocol requirement in
another module (`==`, `init(from:)`, `makeIterator()`…) counts as
undocumented: say what it does here. Exits 1 when any is found.

Usage: undocumented.py SYMBOLS.json...
"""
import json
import sys

missing = []
for path in sys.argv[1:]:
    graph = json.load(open(path, encoding="utf-8"))
    module = graph["module"]["name"]
    for symbol in graph["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if "/Sources/" not in uri:
            continue  # declared elsewhere: synthesized, or inherited from the standard library
        comment = symbol.get("docComment")
        if comment is not None and comment.get("module", module) == module:
            continue
        where = uri.split("/Sources/", 1)[1] + ":" + str(symbol["location"]["position"]["line"] + 1)
        missing.append("%s: %s %s" % (where, symbol["kind"]["displayName"].lower(), ".".join(symbol["pathComponents"])))

for line in sorted(set(missing)):
    print("undocumented: Sources/" + line)
sys.exit(1 if missing else 0)
