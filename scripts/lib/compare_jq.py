# SPDX-License-Identifier: Apache-2.0
"""The `jsonstream --jq` part of scripts/compare: jq command lines run
unchanged by jq 1.8.2 and by `jsonstream --jq`, side by side, on the 200 MB
records array and on the same records as `{"meta": ..., "items": [...]}`;
the streamed shapes again at 1 GiB (jsonstream only: jq would need some
10 GB); and jq's `--stream` idiom on a 50 MB array (jq's --stream runs at a
few MB/s). Outputs are compared with cmp against jq 1.8.2's."""
import os

# (key, program, which file, jq options). "array": the records array;
# "doc": {"meta": ..., "items": [records]}.
STREAMED = [
    ("iterate", ".[] | select(.abv > 8) | {name, style}", "array", ["-c"]),
    ("map-add", ".items | map(.abv) | add", "doc", []),
    ("length", ".items | length", "doc", []),
    ("reduce", "reduce .items[] as $x (0; . + $x.ibu)", "doc", []),
    ("max-by", ".items | max_by(.rating) | .id", "doc", []),
    ("first", "first(.items[]) | .id", "doc", []),
    ("last", ".items[-1] | .name", "doc", []),
    ("identity", ".", "array", []),
]
FALLBACK = [
    ("group-by", "group_by(.style) | map(length)", "array", ["-c"]),
    ("sort-by", "sort_by(.id) | map(.id) | add", "array", []),
]
IDIOM = "fromstream(1|truncate_stream(inputs)) | .id"


def rows(Row, args, scratch):
    """The rows: jq and jsonstream for each command at 200 MB, then the 1 GiB
    streamed rows, then the --stream idiom."""
    out = lambda name: os.path.join(scratch, name)  # noqa: E731
    files = {"array": args.file, "doc": args.doc}
    result = []
    for section, commands in (("jq-streamed", STREAMED), ("jq-whole", FALLBACK)):
        for key, program, kind, options in commands:
            path = files[kind]
            size = os.path.getsize(path)
            shown = "%s%s'%s'%s" % (" ".join(options), " " if options else "", program,
                                   " (doc)" if kind == "doc" else "")
            result.append(Row(section, "jq-" + key, "jq 1.8.2 " + shown, [args.jq or "jq-1.8.2"] + options + [program, path],
                              output=out("jq-%s.out" % key), size=size, label="jq 1.8.2"))
            result.append(Row(section, "js-" + key, "jsonstream --jq " + shown,
                              [args.jsonstream, "--jq"] + options + [program, path],
                              output=out("js-%s.out" % key), size=size))
    if args.file_1gib:
        big = {"array": args.file_1gib, "doc": args.doc_1gib}
        for key, program, kind, options in STREAMED:
            path = big[kind]
            result.append(Row("jq-1gib", "js1g-" + key, "jsonstream --jq %s'%s'%s" % (
                " ".join(options) + " " if options else "", program, " (doc)" if kind == "doc" else ""),
                [args.jsonstream, "--jq"] + options + [program, path], output=out("js1g-%s.out" % key),
                size=os.path.getsize(path)))
    size = os.path.getsize(args.file_50mb)
    result.append(Row("jq-stream", "jq-idiom", "jq 1.8.2 -n --stream '%s'" % IDIOM,
                      [args.jq or "jq-1.8.2", "-n", "--stream", IDIOM, args.file_50mb], output=out("jq-idiom.out"),
                      size=size, label="jq 1.8.2"))
    result.append(Row("jq-stream", "js-idiom", "jsonstream --jq -n --stream '%s'" % IDIOM,
                      [args.jsonstream, "--jq", "-n", "--stream", IDIOM, args.file_50mb], output=out("js-idiom.out"),
                      size=size))
    if not args.jq:
        for row in result:
            if row.key.startswith("jq-"):
                row.failed = "jq 1.8.2 is not available (scripts/lib/references.sh)"
    return result


def output_pairs():
    """(jsonstream row, jq row) whose outputs must be identical."""
    keys = [key for key, _, _, _ in STREAMED + FALLBACK] + ["idiom"]
    return [("js-" + key, "jq-" + key) for key in keys]


def sections(args):
    size = "%.0f MB" % (os.path.getsize(args.file) / 1e6)
    return [
        ("jq-streamed", "jq command lines, %s: streamed by `--jq` (wall time; outputs compared with cmp)" % size,
         None, "verify"),
        ("jq-whole", "jq command lines, %s: built whole by `--jq`, as by jq" % size, None, "verify"),
        ("jq-1gib", "jq command lines streamed by `--jq`, 1 GiB (jq would need some 10 GB)", None, None),
        ("jq-stream", "jq's --stream idiom, %.0f MB array" % (os.path.getsize(args.file_50mb) / 1e6), None, None),
    ]


def targets(by_key, line, have, missing, args):
    """The issue's targets for --jq, as PASS/FAIL lines."""
    def factor(key):
        return by_key["jq-" + key].median / by_key["js-" + key].median

    keys = [key for key, _, _, _ in STREAMED]
    label = "--jq streamed shapes >= 5x jq 1.8.2 at 200 MB, identical output"
    pairs = [name for key in keys for name in ("jq-" + key, "js-" + key)]
    if have(*pairs):
        worst = min(keys, key=factor)
        identical = all(by_key["js-" + key].check.startswith("identical") for key in keys)
        line(label, factor(worst) >= 5 and identical, "slowest %s %.1fx; %s" % (
            worst, factor(worst), ", ".join("%s %.1fx" % (key, factor(key)) for key in keys)))
    else:
        missing(label, *pairs)

    label = "--jq streamed shapes peak < 64 MiB at 1 GiB"
    if not args.file_1gib:
        line(label, True, "skipped (SKIP_1GIB=1)")
    elif have(*["js1g-" + key for key in keys]):
        peaks = {key: by_key["js1g-" + key].peak for key in keys}
        line(label, max(peaks.values()) < 64, ", ".join("%s %.1f" % item for item in peaks.items()))
    else:
        missing(label, *["js1g-" + key for key in keys])

    label = "--jq built whole: no more memory than jq 1.8.2, no slower"
    fallback = [key for key, _, _, _ in FALLBACK]
    if have(*["%s-%s" % (side, key) for key in fallback for side in ("jq", "js")]):
        ok = all(by_key["js-" + key].peak <= by_key["jq-" + key].peak and factor(key) >= 1 for key in fallback)
        line(label, ok, ", ".join("%s %.1fx, %.0f vs %.0f MiB" % (
            key, factor(key), by_key["js-" + key].peak, by_key["jq-" + key].peak) for key in fallback))
    else:
        missing(label, *fallback)

    label = "--stream idiom >= 50x jq 1.8.2 --stream"
    if have("jq-idiom", "js-idiom"):
        line(label, factor("idiom") >= 50, "%.1fx" % factor("idiom"))
    else:
        missing(label, "jq-idiom", "js-idiom")
