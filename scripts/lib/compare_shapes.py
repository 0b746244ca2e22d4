# SPDX-License-Identifier: Apache-2.0
"""The "shapes" part of scripts/compare (and all of scripts/compare-shapes):
the streamed typed decode on datasets of real-world shapes, written by
scripts/generate-shapes.py, side by side with Foundation's JSONDecoder and
yajl's json_verify (the parsing ceiling). Per dataset: json_verify (`-s` for
JSON Lines), `streamingjson-bench shape-stream` and `shape-foundation`. The
two decodes must read the same number of elements and the same digest (a
sum over a few fields of each, see Sources/StreamingJSONBench/Shapes.swift);
otherwise the streamed row fails. Then a summary table: each dataset,
the records array of the decode table included, and geometric means."""
import math
import os

# (shape, what it is, JSON Lines?)
SHAPES = [
    ("twitter", "twitter.json's statuses repeated into a root array (model `Status`)", False),
    ("citm", "citm_catalog.json's events repeated into `{\"events\": {id: event}}`, the object's values "
             "streamed (`CitmEvent`; Foundation: `[String: CitmEvent]`)", False),
    ("canada", "canada.json's polygon rings repeated into a root array (`[[Double]]`)", False),
    ("github", "GitHub-like events, JSON Lines (`GitHubEvent`; Foundation: one line at a time)", True),
    ("logs", "structured log events, JSON Lines (`LogEvent`; Foundation: one line at a time)", True),
]


def files(args):
    """{shape: path} from the --shape NAME=PATH arguments, in SHAPES' order."""
    given = dict(item.split("=", 1) for item in args.shape)
    unknown = set(given) - {shape for shape, _, _ in SHAPES}
    if unknown:
        raise SystemExit("unknown shape(s): %s" % ", ".join(sorted(unknown)))
    return {shape: given[shape] for shape, _, _ in SHAPES if shape in given}


def rows(Row, args):
    """Three rows per dataset: json_verify, streamed, Foundation."""
    result = []
    for shape, _, lines in SHAPES:
        path = files(args).get(shape)
        if not path:
            continue
        size, section = os.path.getsize(path), "shape-" + shape
        verify = ["json_verify", "-q", "-s"] if lines else ["json_verify", "-q"]
        result += [
            Row(section, "verify-" + shape, "yajl %s (ceiling)" % " ".join(verify), verify, stdin=path, size=size),
            Row(section, "shape-stream-" + shape, "StreamingJSONDecoder elements(of:) streamed",
                [args.bench, "shape-stream", shape, path], size=size),
            Row(section, "shape-foundation-" + shape, "Foundation JSONDecoder" + (", line by line" if lines else ""),
                [args.bench, "shape-foundation", shape, path], size=size),
        ]
    return result


def sections(args):
    """(section, title, reference row, ceiling row) of each dataset's table."""
    return [("shape-" + shape, "Decode, %s, %.0f MB: %s (wall time of the whole process)" % (
        shape, os.path.getsize(path) / 1e6, dict((s, what) for s, what, _ in SHAPES)[shape]),
        "shape-foundation-" + shape, "verify-" + shape) for shape, path in files(args).items()]


def check(by_key, problems):
    """The streamed decode must read what Foundation reads: the same elements,
    the same digest. A difference fails the streamed row."""
    for shape, _, _ in SHAPES:
        ours, foundation = by_key.get("shape-stream-" + shape), by_key.get("shape-foundation-" + shape)
        if "verify-" + shape in by_key:
            by_key["verify-" + shape].check = "parse only"
        if ours is None or foundation is None:
            continue
        for row in (ours, foundation):
            if row.ok:
                row.check = "%s elements" % format(int(row.field("records")), ",")
        if not (ours.ok and foundation.ok):
            continue
        counts = (int(ours.field("records")), int(foundation.field("records")))
        digests = (ours.field("digest"), foundation.field("digest"))
        if counts[0] != counts[1] or digests[0] != digests[1]:
            ours.failed = "%d elements, digest %s; Foundation read %d, digest %s (DIFFERENT)" % (
                counts[0], digests[0], counts[1], digests[1])
            problems.append("%s (%s): %s" % (ours.name, shape, ours.failed))
        else:
            ours.check += ", as Foundation (same digest)"


def summary(by_key):
    """Every dataset's streamed decode in one table, with geometric means;
    nothing when no shape was measured."""
    if not any(key.startswith("shape-stream-") for key in by_key):
        return []
    datasets = [("records", "verify", "stream", "foundation")] + [
        (shape, "verify-" + shape, "shape-stream-" + shape, "shape-foundation-" + shape) for shape, _, _ in SHAPES]
    lines = ["### Streamed typed decode, every dataset", "",
             "| dataset | json_verify MB/s | streamed MB/s | % of json_verify | Foundation MB/s | x Foundation |",
             "|---|---:|---:|---:|---:|---:|"]
    percents, factors = [], []
    for name, verify_key, stream_key, foundation_key in datasets:
        verify, ours, foundation = (by_key.get(key) for key in (verify_key, stream_key, foundation_key))
        if ours is None:
            continue
        if not (ours.ok and verify is not None and verify.ok):
            lines.append("| %s | | FAILED | | | |" % name)
            continue
        percent = 100 * ours.mbps / verify.mbps
        percents.append(percent)
        factor = foundation.median / ours.median if foundation is not None and foundation.ok else None
        if factor is not None:
            factors.append(factor)
        lines.append("| %s | %.1f | %.1f | %.0f%% | %s | %s |" % (
            name, verify.mbps, ours.mbps, percent, "%.1f" % foundation.mbps if factor else "FAILED",
            "%.1fx" % factor if factor else "-"))

    def geometric_mean(values):
        return math.exp(sum(math.log(value) for value in values) / len(values))

    lines.append("| **geometric mean** (%d datasets) | | | **%s** | | **%s** |" % (
        len(percents), "%.0f%%" % geometric_mean(percents) if percents else "-",
        "%.1fx" % geometric_mean(factors) if factors else "-"))
    return lines + ["", "A dataset whose streamed row failed is left out of the means."]
