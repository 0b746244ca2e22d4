# SPDX-License-Identifier: Apache-2.0
"""The benchmark table of scripts/compare (which installs, generates and builds
what this needs, then runs it): every contender a separate process, measured
by measure.py (wall seconds, peak RSS of the child), all of them interleaved
RUNS times (A B C ... A B C ...), medians. Prints Markdown tables, then the
targets as PASS/FAIL lines. With `--only shapes` (scripts/compare-shapes): the
records decode rows and the shapes (compare_shapes.py) alone, no targets.

Exit status: 0 when every command ran and every output matched, whatever the
targets say (it is a report); 1 when a command failed, a record count
differed or an output differed from its reference."""
import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import CommandFailed, measure, parse_fields  # noqa: E402
import compare_jq  # noqa: E402
import compare_shapes  # noqa: E402

FILTER = "select(.abv > 8) | {name, style}"
IJSON_FILTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ijson_filter.py")


class Row:
    """One contender. timing "wall": the process's wall time, MB/s of `size`
    input bytes. timing "bench": the seconds streamingjson-bench times itself
    (the encode alone, the decoding of the documents alone), MB/s of the bytes
    it reports (out_bytes, or document_bytes x rounds). `writes`: a file the
    command writes, removed before each run, untimed, as a redirected
    `output` is truncated before the clock starts (replacing the previous
    round's file would otherwise free its pages inside the timed run)."""

    def __init__(self, section, key, name, command, stdin=None, output=None, timing="wall", size=None,
                 writes=None, label=None):
        self.section, self.key, self.name, self.command = section, key, name, command
        self.stdin, self.output, self.timing, self.size = stdin, output, timing, size
        self.writes = writes
        # How the checks of other rows name this one ("identical to jq 1.8.2").
        self.label = label or name.split(" ")[0]
        self.seconds, self.bytes, self.peaks, self.fields = [], [], [], []
        self.failed = None
        # A baseline twin whose build lacks the row's mode or option.
        self.absent = False
        self.check = ""

    def record(self, seconds, peak, out):
        fields = parse_fields(out)
        if self.timing == "bench":
            seconds = float(fields["seconds"])
            if "out_bytes" in fields:
                moved = int(fields["out_bytes"])
            else:
                moved = int(fields["document_bytes"]) * int(fields["rounds"])
        else:
            moved = self.size
        self.seconds.append(seconds)
        self.bytes.append(moved)
        self.peaks.append(peak)
        self.fields.append(fields)

    @property
    def ok(self):
        return self.failed is None and bool(self.seconds)

    @property
    def median(self):
        return statistics.median(self.seconds)

    @property
    def mbps(self):
        return statistics.median(self.bytes) / 1e6 / self.median

    @property
    def peak(self):
        return max(self.peaks)

    def field(self, name):
        return self.fields[-1].get(name) if self.fields else None


def run_text(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
        return (result.stdout or result.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "?"


def load():
    try:
        return "%.2f" % os.getloadavg()[0]
    except OSError:
        return "?"


def machine_line(args):
    model = "?"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        model = platform.processor() or "?"
    yajl = run_text(["pkg-config", "--modversion", "yajl"])
    swift = run_text(["swift", "--version"]).replace("Swift version ", "")
    ijson = run_text([args.ijson_python, "-c", "import ijson; print(ijson.__version__)"]) if args.ijson_python else "n/a"
    version = lambda binary: run_text([binary, "--version"]).split(" (")[0] if binary else "n/a"  # noqa: E731
    jqs = "; ".join([version(args.jq), version(args.jaq), version(args.gojq)]
                    + (["%s (Debian)" % version(args.jq16)] if args.jq16 else []))
    python = run_text([args.ijson_python, "-c", "import platform; print(platform.python_version())"]) \
        if args.ijson_python else "?"
    # The jq implementations and ijson are not run by --only shapes.
    tools = "%s; ijson %s (yajl2_c), Python %s; " % (jqs, ijson, python) if args.only == "all" else ""
    return ("Machine: %d cores (nproc), %s; %s %s; Swift %s; yajl %s; %s%s. "
            "%d run%s of each contender, interleaved; medians; peak = largest peak RSS of the process. "
            "Load average (1 min) %s at the start, %s at the end: other work on the machine slows the "
            "two-thread contenders most." % (
                os.cpu_count() or 0, model, platform.system(), platform.release(), swift, yajl, tools,
                datetime.date.today().isoformat(), args.runs, "" if args.runs == 1 else "s", args.load_start, load()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--file", required=True, help="the 200 MB records array")
    parser.add_argument("--file-1gib", default="", help="the 1 GiB records array; empty to skip")
    parser.add_argument("--only", choices=["all", "shapes"], default="all",
                        help="shapes: the records decode rows and the shapes only")
    parser.add_argument("--shape", action="append", default=[], metavar="NAME=PATH",
                        help="a dataset of scripts/generate-shapes.py (repeat for each); none: no shapes section")
    parser.add_argument("--doc", default="", help="the 200 MB records as {\"meta\": ..., \"items\": [...]}")
    parser.add_argument("--doc-1gib", default="", help="the same at 1 GiB; empty to skip")
    parser.add_argument("--file-50mb", default="", help="a 50 MB records array, for jq's --stream")
    parser.add_argument("--bench", required=True)
    parser.add_argument("--jsonstream", required=True)
    parser.add_argument("--jq", default="", help="jq 1.8.2, the reference of the filter table; empty if there is none")
    parser.add_argument("--jaq", default="", help="jaq 3.1; empty if there is none")
    parser.add_argument("--gojq", default="", help="gojq; empty if there is none")
    parser.add_argument("--jq16", default="", help="Debian's jq 1.6, an extra row; empty to leave it out")
    parser.add_argument("--ijson-python", default="", help="a python with ijson's yajl2_c; empty if there is none")
    parser.add_argument("--ijson-problem", default="")
    parser.add_argument("--twitter", default="")
    parser.add_argument("--twitter-rounds", type=int, default=300)
    parser.add_argument("--scratch", required=True, help="a directory for the outputs (emptied afterwards)")
    parser.add_argument("--out", default="")
    parser.add_argument("--baseline-bin", default="",
                        help="a directory with another build's streamingjson-bench and jsonstream: each of our rows "
                             "runs with both, interleaved, and a table compares them")
    args = parser.parse_args()
    if args.only == "all" and not (args.doc and args.file_50mb and args.twitter):
        parser.error("--doc, --file-50mb and --twitter are required unless --only shapes")

    args.load_start = load()
    scratch = tempfile.mkdtemp(prefix="compare-", dir=args.scratch)
    try:
        return report(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def build_rows(args, scratch):
    bench, size = args.bench, os.path.getsize(args.file)
    path = args.file
    out = lambda name: os.path.join(scratch, name)  # noqa: E731
    ijson = [args.ijson_python, IJSON_FILTER] if args.ijson_python else None
    rows = [
        Row("decode", "verify", "yajl json_verify -q (ceiling)", ["json_verify", "-q"], stdin=path, size=size),
        Row("decode", "stream", "StreamingJSONDecoder elements(of:) streamed", [bench, "stream", path], size=size),
        Row("decode", "stream-snake", "elements(of:) streamed, .convertFromSnakeCase (no CodingKeys)",
            [bench, "stream-snake", path], size=size),
        Row("decode", "whole", "StreamingJSONDecoder decode([Record].self)", [bench, "whole", path], size=size),
        Row("decode", "foundation", "Foundation JSONDecoder [Record]", [bench, "foundation", path], size=size),
    ]
    if args.only == "shapes":
        rows = [row for row in rows if row.key != "whole"] + compare_shapes.rows(Row, args)
        return with_baseline_twins(args, rows) if args.baseline_bin else rows
    rows += compare_shapes.rows(Row, args) + [
        Row("encode", "encode", "StreamingJSONEncoder().encode(records)", [bench, "encode", path], timing="bench"),
        Row("encode", "writer", "JSONStreamWriter, every record to a file",
            [bench, "encode-writer", path, out("writer.json")], timing="bench", writes=out("writer.json")),
        Row("encode", "encode-foundation", "Foundation JSONEncoder().encode(records)", [bench, "encode-foundation", path],
            timing="bench"),

        Row("transform", "transform", "elements(of:) -> price *= 1.1 -> JSONStreamWriter",
            [bench, "transform", path, out("transform.json")], size=size, writes=out("transform.json")),
        Row("transform", "transform-foundation", "JSONDecoder [Record] -> price *= 1.1 -> JSONEncoder",
            [bench, "transform-foundation", path, out("transform-foundation.json")], size=size,
            writes=out("transform-foundation.json")),

        Row("twitter", "twitter", "StreamingJSONDecoder().decode(Status.self, from:)",
            [bench, "twitter-docs", args.twitter, str(args.twitter_rounds)], timing="bench"),
        Row("twitter", "twitter-foundation", "Foundation JSONDecoder().decode(Status.self, from:)",
            [bench, "twitter-docs-foundation", args.twitter, str(args.twitter_rounds)], timing="bench"),

        Row("filter", "jq", "jq 1.8.2 -c '.[] | F'", [args.jq or "jq-1.8.2", "-c", ".[] | " + FILTER, path],
            output=out("jq.out"), size=size, label="jq 1.8.2"),
        Row("filter", "jaq", "jaq 3.1 -c '.[] | F'", [args.jaq or "jaq", "-c", ".[] | " + FILTER, path],
            output=out("jaq.out"), size=size),
        Row("filter", "gojq", "gojq -c '.[] | F'", [args.gojq or "gojq", "-c", ".[] | " + FILTER, path],
            output=out("gojq.out"), size=size),
    ]
    if args.jq16:
        rows.append(Row("filter", "jq16", "jq 1.6 (Debian) -c '.[] | F'", [args.jq16, "-c", ".[] | " + FILTER, path],
                        output=out("jq16.out"), size=size))
    rows += [
        Row("filter", "jsonstream", "jsonstream 'F'", [args.jsonstream, FILTER, path], output=out("jsonstream.out"),
            size=size),
        Row("filter", "jsonstream-t1", "jsonstream --threads 1 'F'", [args.jsonstream, "--threads", "1", FILTER, path],
            output=out("jsonstream-t1.out"), size=size),
        Row("filter", "ijson", "Python ijson yajl2_c items() + F", (ijson or ["ijson"]) + [path],
            output=out("ijson.out"), size=size),
    ]
    if args.file_1gib:
        big, big_size = args.file_1gib, os.path.getsize(args.file_1gib)
        rows += [
            Row("1gib", "verify-1g", "yajl json_verify -q (ceiling)", ["json_verify", "-q"], stdin=big, size=big_size),
            Row("1gib", "stream-1g", "StreamingJSONDecoder elements(of:) streamed", [bench, "stream", big],
                size=big_size),
            Row("1gib", "transform-1g", "elements(of:) -> price *= 1.1 -> JSONStreamWriter",
                [bench, "transform", big, out("transform-1g.json")], size=big_size,
                writes=out("transform-1g.json")),
            Row("1gib", "jsonstream-1g", "jsonstream 'F'", [args.jsonstream, FILTER, big],
                output=out("jsonstream-1g.out"), size=big_size),
            Row("1gib", "ijson-1g", "Python ijson yajl2_c items() + F", (ijson or ["ijson"]) + [big],
                output=out("ijson-1g.out"), size=big_size),
        ]
    rows += compare_jq.rows(Row, args, scratch)
    if args.baseline_bin:
        rows = with_baseline_twins(args, rows)
    if not args.ijson_python:
        for row in rows:
            if row.key.startswith("ijson"):
                row.failed = args.ijson_problem or "ijson's yajl2_c backend is not available"
    for key, binary, what in (("jq", args.jq, "jq 1.8.2"), ("jaq", args.jaq, "jaq 3.1"), ("gojq", args.gojq, "gojq")):
        if not binary:
            next(row for row in rows if row.key == key).failed = "%s is not available (scripts/lib/references.sh)" % what
    return rows


BASELINE = "@baseline"


def with_baseline_twins(args, rows):
    """After each row that runs our build, the same row with the baseline's binary."""
    ours = {args.bench: os.path.join(args.baseline_bin, "streamingjson-bench"),
            args.jsonstream: os.path.join(args.baseline_bin, "jsonstream")}
    result = []
    for row in rows:
        result.append(row)
        if row.command[0] not in ours:
            continue
        rename = {path: path + ".baseline" for path in (row.output, row.writes) if path}
        command = [ours[row.command[0]]] + [rename.get(part, part) for part in row.command[1:]]
        result.append(Row(row.section, row.key + BASELINE, row.name + " [baseline]", command, stdin=row.stdin,
                          output=rename.get(row.output), timing=row.timing, size=row.size,
                          writes=rename.get(row.writes)))
    return result


def baseline_table(by_key, problems):
    """Each of our rows against the same row with the baseline build."""
    lines = ["### This build against the baseline (same run, interleaved)", "",
             "| row | baseline s | this build s | change | output |", "|---|---:|---:|---:|---|"]
    for key, twin in by_key.items():
        if not key.endswith(BASELINE):
            continue
        row = by_key[key[:-len(BASELINE)]]
        if not (row.ok and twin.ok):
            status = "not in the baseline" if twin.absent else "FAILED"
            lines.append("| %s | %s | | | |" % (row.name.replace("|", "\\|"), status))
            continue
        same = "-"
        if row.output and twin.output:
            same = "identical" if subprocess.run(["cmp", "-s", row.output, twin.output]).returncode == 0 \
                else "DIFFERENT"
            if same == "DIFFERENT":
                problems.append("%s: output differs from the baseline's" % row.name)
        lines.append("| %s%s | %.3f | %.3f | %+.1f%% | %s |" % (
            row.name.replace("|", "\\|"), " (1 GiB)" if row.section == "1gib" else "", twin.median, row.median,
            100 * (row.median / twin.median - 1), same))
    return lines


def report(args, scratch):
    rows = build_rows(args, scratch)
    by_key = {row.key: row for row in rows}
    problems = []
    for row in rows:
        if row.failed:
            problems.append("%s: %s" % (row.name, row.failed))
            print("FAILED %s: %s" % (row.name, row.failed), file=sys.stderr)

    print("# %s (%.0f MB)%s; %d runs each, interleaved" % (
        args.file, os.path.getsize(args.file) / 1e6,
        " and %s (%.0f MB)" % (args.file_1gib, os.path.getsize(args.file_1gib) / 1e6) if args.file_1gib else "",
        args.runs), file=sys.stderr)
    for run in range(args.runs):
        for row in rows:
            if row.failed:
                continue
            try:
                if row.writes and os.path.exists(row.writes):
                    os.remove(row.writes)
                # Untimed: the previous contender's output goes to disk now,
                # not in the background during this one.
                os.sync()
                seconds, peak, out = measure(row.command, row.stdin, row.output)
                row.record(seconds, peak, out)
            except (CommandFailed, OSError, KeyError, ValueError) as error:
                row.failed = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                if row.key.endswith(BASELINE) and not row.seconds and getattr(error, "status", None) == 2:
                    # A usage error on its first run: a mode or option newer
                    # than the baseline build, not a failure of this one.
                    row.failed = "not in the baseline build (its usage error: a newer mode or option)"
                    row.absent = True
                    print("  %s: not in the baseline build" % row.name, file=sys.stderr, flush=True)
                    continue
                problems.append("%s: %s" % (row.name, str(error).strip()))
                print("FAILED %s: %s" % (row.name, error), file=sys.stderr, flush=True)
                continue
            print("  run %d  %-52s %7.2f s  %8.1f MB/s  %7.1f MiB" % (
                run + 1, row.name + (" (1 GiB)" if row.section == "1gib" else ""), row.seconds[-1],
                row.bytes[-1] / 1e6 / row.seconds[-1], peak), file=sys.stderr, flush=True)

    check_outputs(args, by_key, problems)

    lines = [machine_line(args), ""]
    lines += tables(args, rows, by_key)
    if args.baseline_bin:
        lines += baseline_table(by_key, problems) + [""]
    if args.only == "all":
        lines += [""] + targets(args, by_key)
    if problems:
        lines += ["", "Problems:"] + ["- " + problem.splitlines()[0] for problem in problems]
    text = "\n".join(lines)
    print()
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
        print("\n(written to %s)" % args.out, file=sys.stderr)
    return 1 if problems else 0


def count_records(args, path):
    """Decodes a written array with the streaming decoder (untimed): its record count."""
    _, _, out = measure([args.bench, "stream", path])
    return int(parse_fields(out)["records"])


def line_count(path):
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def check_outputs(args, by_key, problems):
    """Record counts, written files read back, filter outputs compared with cmp."""
    print("# checking the outputs", file=sys.stderr)

    def compare_counts(keys, reference):
        expected = None
        for key in keys:
            row = by_key.get(key)
            if row is None or not row.ok:
                continue
            count = int(row.field("records"))
            expected = count if expected is None else expected
            row.check = "%s records" % format(count, ",")
            if count != expected:
                row.check += " (DIFFERENT from %s)" % format(expected, ",")
                problems.append("%s: %d records, %s had %d" % (row.name, count, reference, expected))
        return expected

    records = compare_counts(["stream", "whole", "foundation", "encode", "writer", "encode-foundation",
                              "transform", "transform-foundation"], "the streamed decode")
    compare_counts(["stream-1g", "transform-1g"], "the streamed decode")
    by_key["verify"].check = "parse only"
    if "verify-1g" in by_key:
        by_key["verify-1g"].check = "parse only"

    # The written files, read back: well-formed, every record there.
    for key in ("writer", "transform", "transform-foundation", "transform-1g"):
        row = by_key.get(key)
        if row is None or not row.ok:
            continue
        try:
            written = count_records(args, row.command[-1])
        except (CommandFailed, OSError, KeyError, ValueError) as error:
            row.check += "; output UNREADABLE"
            problems.append("%s: output unreadable: %s" % (row.name, str(error).strip()))
            continue
        expected = int(row.field("records"))
        if written == expected:
            row.check += "; written file reads back"
        else:
            row.check += "; file has %s (DIFFERENT)" % format(written, ",")
            problems.append("%s: wrote %d records, %d expected" % (row.name, written, expected))

    compare_shapes.check(by_key, problems)
    for row in (by_key.get("twitter"), by_key.get("twitter-foundation")):
        if row is not None and row.ok:
            row.check = "%s docs/s; %s docs x %s rounds" % (
                format(round(float(row.field("docs_per_s"))), ","), row.field("documents"), row.field("rounds"))

    def compare_files(keys, reference_key):
        reference = by_key.get(reference_key)
        if reference is None or not reference.ok:
            return
        reference.check = "reference, %s lines" % format(line_count(reference.output), ",")
        for key in keys:
            row = by_key.get(key)
            if row is None or not row.ok or row is reference:
                continue
            same = subprocess.run(["cmp", "-s", reference.output, row.output]).returncode == 0
            row.check = "identical to %s (cmp)" % reference.label if same else \
                "DIFFERENT from %s" % reference.label
            if not same:
                problems.append("%s: output differs from %s's" % (row.name, reference.name))

    compare_files(["jaq", "gojq", "jq16", "jsonstream", "jsonstream-t1", "ijson"], "jq")
    compare_files(["ijson-1g"], "jsonstream-1g")
    for ours, reference in compare_jq.output_pairs():
        compare_files([ours], reference)


def sections(args):
    """(section, title, reference row, ceiling row) in the order of the tables."""
    size = "%.0f MB" % (os.path.getsize(args.file) / 1e6)
    big = "%.2f GiB" % (os.path.getsize(args.file_1gib) / 2**30) if args.file_1gib else ""
    decode = [("decode", "Decode, %s records array (wall time of the whole process)" % size, "foundation", "verify")]
    if args.only == "shapes":
        return decode + compare_shapes.sections(args)
    return decode + compare_shapes.sections(args) + [
        ("encode", "Encode the same records (decoded first, untimed; time of the encode alone; MB/s of the output)",
         "encode-foundation", "verify"),
        ("transform", "Read-transform-write, %s: every record read, price *= 1.1, written to a file (wall time)" % size,
         "transform-foundation", "verify"),
        ("twitter", "Small documents: twitter.json's statuses, each its own document, one reused decoder "
                    "(time of the decoding alone)", "twitter-foundation", None),
        ("filter", "Filter, %s: F = `%s` (wall time; outputs compared with cmp)" % (size, FILTER), "jq", "verify"),
        ("1gib", "Streaming only, %s records array (wall time; Foundation, jq, jaq and gojq would need 5-30x the "
                 "file in memory)" % big, None, "verify-1g"),
    ] + compare_jq.sections(args)


def tables(args, rows, by_key):
    lines = []
    for section, title, reference_key, ceiling_key in sections(args):
        members = [row for row in rows if row.section == section]
        if not members:
            continue
        reference = by_key.get(reference_key) if reference_key else None
        ceiling = by_key.get(ceiling_key) if ceiling_key else None
        times = "x jq 1.8.2" if section == "filter" or section.startswith("jq-") else "x Foundation"
        if section.startswith("jq-"):
            # Each jsonstream row against the jq row just before it.
            reference = None
        lines += ["### " + title, ""]
        lines.append("| contender | seconds | MB/s | %% of json_verify | %s | peak MiB | check |" % times)
        lines.append("|---|---:|---:|---:|---:|---:|---|")
        for row in members:
            name = row.name.replace("|", "\\|")
            if not row.ok:
                status, reason = ("-", row.failed) if row.absent else ("FAILED", row.failed or "no run")
                lines.append("| %s | %s | | | | | %s |" % (name, status, reason.replace("|", "\\|")))
                continue
            percent = "%.0f%%" % (100 * row.mbps / ceiling.mbps) if ceiling is not None and ceiling.ok else "-"
            pair = by_key.get("jq-" + row.key[3:]) if section.startswith("jq-") and row.key.startswith("js-") else None
            if pair is not None and pair.ok:
                factor = "%.1fx" % (pair.median / row.median)
            else:
                factor = "%.1fx" % (reference.median / row.median) if reference is not None and reference.ok else "-"
            lines.append("| %s | %.2f | %.1f | %s | %s | %.1f | %s |" % (
                name, row.median, row.mbps, percent, factor, row.peak, row.check))
        lines.append("")
    summary = compare_shapes.summary(by_key)
    lines += summary + [""] if summary else []
    if args.only == "shapes":
        lines.append("Seconds: medians of the whole process (start-up, reading). \"x Foundation\": Foundation's "
                     "seconds over the row's. \"% of json_verify\": the row's MB/s over json_verify's on the same "
                     "file.")
        return lines
    rounds = by_key["twitter"].field("rounds") or args.twitter_rounds
    lines.append("Seconds: medians. Decode (records and shapes), transform, filter and 1 GiB rows: the whole process "
                 "(start-up, reading, writing); encode rows: the encode alone, the same decoded records for all three; "
                 "twitter rows: %s rounds over the documents. \"x\": the reference's seconds over the row's, for the "
                 "same work. \"%% of json_verify\": the row's MB/s over json_verify's on the same file (for encode "
                 "rows, MB/s of the output). "
                 "The encode peaks include the decoded records (held before the clock starts)." % rounds)
    return lines


def targets(args, by_key):
    lines = ["Targets:"]

    def line(label, ok, detail):
        lines.append("%s %s: %s" % ("PASS" if ok else "FAIL", label, detail))

    def have(*keys):
        return all(key in by_key and by_key[key].ok for key in keys)

    def missing(label, *keys):
        failed = [by_key[key].name for key in keys if key in by_key and not by_key[key].ok]
        lines.append("FAIL %s: not measured (%s failed)" % (label, ", ".join(failed) or "skipped"))

    def speedup(key, reference):
        return by_key[reference].median / by_key[key].median

    label = "streamed typed decode >= 60% of json_verify and >= 8x Foundation"
    if have("stream", "verify", "foundation"):
        percent = 100 * by_key["stream"].mbps / by_key["verify"].mbps
        factor = speedup("stream", "foundation")
        line(label, percent >= 60 and factor >= 8, "%.0f%% of json_verify, %.1fx Foundation" % (percent, factor))
    else:
        missing(label, "stream", "verify", "foundation")

    label = ".convertFromSnakeCase >= 85% of the same records with CodingKeys"
    if have("stream", "stream-snake"):
        ratio = 100 * speedup("stream-snake", "stream")
        line(label, ratio >= 85, "%.0f%%" % ratio)
    else:
        missing(label, "stream", "stream-snake")

    label = "jsonstream >= 8x jq 1.8.2 and >= 4x jaq, faster than gojq, identical output"
    if have("jsonstream", "jq", "jaq", "gojq"):
        jq, jaq, gojq = (speedup("jsonstream", key) for key in ("jq", "jaq", "gojq"))
        identical = by_key["jsonstream"].check.startswith("identical")
        line(label, jq >= 8 and jaq >= 4 and gojq > 1 and identical,
             "%.1fx jq 1.8.2, %.1fx jaq, %.1fx gojq; output %s" % (
                 jq, jaq, gojq, "identical" if identical else "DIFFERENT"))
    else:
        missing(label, "jsonstream", "jq", "jaq", "gojq")

    label = "jsonstream on all cores >= 1.7x --threads 1, and at least as fast as json_verify"
    if have("jsonstream", "jsonstream-t1", "verify"):
        threads = speedup("jsonstream", "jsonstream-t1")
        verify = speedup("jsonstream", "verify")
        line(label, threads >= 1.7 and verify >= 1.0,
             "%.2fx --threads 1 (%d cores), %.2fx json_verify's speed" % (threads, os.cpu_count() or 1, verify))
    else:
        missing(label, "jsonstream", "jsonstream-t1", "verify")

    label = "JSONStreamWriter >= 10x JSONEncoder"
    if have("writer", "encode-foundation"):
        factor = speedup("writer", "encode-foundation")
        line(label, factor >= 10, "%.1fx (StreamingJSONEncoder.encode: %s)" % (
            factor, "%.1fx" % speedup("encode", "encode-foundation") if have("encode") else "failed"))
    else:
        missing(label, "writer", "encode-foundation")

    label = "read-transform-write >= 10x Foundation"
    if have("transform", "transform-foundation"):
        factor = speedup("transform", "transform-foundation")
        line(label, factor >= 10, "%.1fx" % factor)
    else:
        missing(label, "transform", "transform-foundation")

    label = "twitter documents >= 1.0x Foundation"
    if have("twitter", "twitter-foundation"):
        factor = speedup("twitter", "twitter-foundation")
        line(label, factor >= 1.0, "%.2fx" % factor)
    else:
        missing(label, "twitter", "twitter-foundation")

    label = "streaming peaks < 32 MiB at 1 GiB"
    if not args.file_1gib:
        lines.append("SKIP %s: SKIP_1GIB=1" % label)
    else:
        ours = ["stream-1g", "transform-1g", "jsonstream-1g"]
        if have(*ours):
            peaks = {by_key[key].name: by_key[key].peak for key in ours}
            line(label, all(peak < 32 for peak in peaks.values()),
                 ", ".join("%s %.1f MiB" % item for item in peaks.items()))
        else:
            missing(label, *ours)
    compare_jq.targets(by_key, line, have, missing, args)
    return lines


if __name__ == "__main__":
    sys.exit(main())
