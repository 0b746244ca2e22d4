#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The fault matrix: jsonstream run into each fault a real run meets, and
what it did about it, as a table. A row passes when the fault ends in a
clear error, a documented exit status and no silent loss: every element the
fault did not touch comes out, and a run that could not read everything
never exits 0.

    scripts/lib/fault_matrix.py JSONSTREAM [--seed N] [--rounds N]
"""
import argparse
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True

ROWS = []


def row(fault, status, expected, lost, ok, note=""):
    ROWS.append((fault, status, expected, lost, "survived" if ok else "FAILED", note))


def records(count, seed):
    rng = random.Random(seed)
    out = []
    for index in range(count):
        out.append({
            "id": index,
            "name": "Beer \"%d\" ünï 🍺 %s" % (index, rng.choice(["a,b", "}{", "[x]", "\\", "plain"])),
            "abv": round(rng.uniform(3, 12), 2),
            "tags": [rng.choice(["hoppy", "dry", "sour"]) for _ in range(rng.randrange(4))],
            "brewery": {"city": rng.choice(["Zürich", "東京", "Québec"]), "since": 1900 + rng.randrange(120)},
            "note": rng.choice([None, "Line one\nLine two", "Tab\there", "comma, and \"quotes\""]),
        })
    return out


def array_text(items):
    """A root array, one element per line, and each element's byte range."""
    parts, ranges, offset = [b"[\n"], [], 2
    for index, item in enumerate(items):
        text = json.dumps(item, ensure_ascii=False).encode()
        separator = b",\n" if index + 1 < len(items) else b"\n"
        ranges.append((offset, offset + len(text) + len(separator)))
        parts += [text, separator]
        offset += len(text) + len(separator)
    parts.append(b"]\n")
    return b"".join(parts), ranges


def lines_text(items):
    parts, ranges, offset = [], [], 0
    for item in items:
        text = json.dumps(item, ensure_ascii=False).encode() + b"\n"
        ranges.append((offset, offset + len(text)))
        parts.append(text)
        offset += len(text)
    return b"".join(parts), ranges


def default_signals():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run(jsonstream, args, stdin=None, **kwargs):
    return subprocess.run([jsonstream] + args, stdin=stdin, capture_output=True, **kwargs)


def last_line(stderr):
    lines = [line for line in stderr.decode(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def outputs(stdout):
    return [json.loads(line) for line in stdout.decode().splitlines() if line.strip()]


def is_subsequence(needle, haystack):
    it = iter(haystack)
    return all(any(candidate == wanted for candidate in it) for wanted in needle)


# MARK: Faults


def disk_full(jsonstream, work, text):
    """The output's file system full: RLIMIT_FSIZE stands for it."""
    path = os.path.join(work, "in.json")
    out = os.path.join(work, "out.jsonl")
    with open(out, "wb") as sink:
        result = subprocess.run(["prlimit", "--fsize=65536", jsonstream, "-c", ".", path],
                                stdout=sink, stderr=subprocess.PIPE)
    said = last_line(result.stderr)
    ok = result.returncode == 2 and "Could not write" in said
    row("output disk full (stdout)", result.returncode, 2, "reported", ok, said[:60])
    prefix = os.path.join(work, "full-")
    result = subprocess.run(["prlimit", "--fsize=65536", jsonstream, "--split-lines", "2000", prefix, "-c", ".", path],
                            capture_output=True)
    finals = sorted(name for name in os.listdir(work) if name.startswith("full-") and name.endswith(".jsonl"))
    complete = all(sum(1 for _ in open(os.path.join(work, name), "rb")) == 2000 for name in finals)
    ok = result.returncode == 2 and complete
    row("output disk full (--split-lines)", result.returncode, 2, "none: no short part", ok,
        "%d complete parts" % len(finals))


def closed_pipe(jsonstream, work, text):
    path = os.path.join(work, "in.json")
    result = subprocess.run("'%s' -c . '%s' | head -1; echo \"${PIPESTATUS[0]}\" >&2" % (jsonstream, path),
                            shell=True, executable="/bin/bash", capture_output=True)
    status = int(last_line(result.stderr) or "-1")
    first = result.stdout.decode().splitlines()[0] if result.stdout else ""
    ok = status == 0 and json.loads(first)["id"] == 0
    row("closed pipe (| head -1)", status, 0, "n/a (reader left)", ok, "quiet exit")


def interrupted(jsonstream, work, text, sig, name):
    """A signal mid-write: no part that looks complete but is not."""
    path = os.path.join(work, "in.json")
    prefix = os.path.join(work, "%s-" % name)
    # A slow pipe keeps the run going until the signal comes. (A shell that
    # starts jobs in the background hands them SIGINT ignored: put it back.)
    process = subprocess.Popen([jsonstream, "--split-lines", "500", prefix, "-c", "."],
                               stdin=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    lines = text.split(b"\n")
    process.stdin.write(b"\n".join(lines[:1200]) + b"\n")
    process.stdin.flush()
    deadline = time.time() + 30
    while not os.path.exists(prefix + "00001.jsonl") and time.time() < deadline:
        time.sleep(0.02)
    process.send_signal(sig)
    process.stdin.close()
    status = process.wait()
    finals = sorted(n for n in os.listdir(work) if n.startswith(name + "-") and n.endswith(".jsonl"))
    short = [n for n in finals if sum(1 for _ in open(os.path.join(work, n), "rb")) != 500]
    ok = status == -sig and not short and len(finals) == 2
    row("%s mid-write (--split-lines)" % name.upper(), "signal %d" % -status if status < 0 else status,
        "signal %d" % sig, "none: %d whole parts, the rest .partial" % len(finals), ok)


def killed_then_rerun(jsonstream, work, text, items):
    path = os.path.join(work, "in.jsonl")
    prefix = os.path.join(work, "rerun-")
    process = subprocess.Popen([jsonstream, "--split-lines", "500", prefix, "-c", "."],
                               stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    process.stdin.write(text[: len(text) // 2])
    process.stdin.flush()
    deadline = time.time() + 30
    while not os.path.exists(prefix + "00000.jsonl") and time.time() < deadline:
        time.sleep(0.02)
    process.kill()
    process.wait()
    process.stdin.close()
    result = run(jsonstream, ["--split-lines", "500", prefix, "-c", ".", path])
    finals = sorted(n for n in os.listdir(work) if n.startswith("rerun-") and n.endswith(".jsonl"))
    got = []
    for name in finals:
        with open(os.path.join(work, name), "rb") as part:
            got += outputs(part.read())
    ok = result.returncode == 0 and got == items
    row("SIGKILL, then a rerun", result.returncode, 0, "none: rerun whole" if ok else "parts differ", ok,
        "%d parts" % len(finals))


def truncated_while_read(jsonstream, work, items):
    """The input file cut short while it is being read."""
    path = os.path.join(work, "shrinking.json")
    big = items * 40
    text, _ = array_text(big)
    with open(path, "wb") as out:
        out.write(text)
    process = subprocess.Popen([jsonstream, "--threads", "1", "-c", ".id", path],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Read a little of the output, so that the run is under way, then cut the file.
    process.stdout.read(4096)
    os.truncate(path, len(text) // 3)
    rest, stderr = process.communicate()
    said = last_line(stderr)
    ok = process.returncode == 5 and ("end of input" in said or "cannot be read" in said)
    row("input truncated while read", process.returncode, 5, "reported", ok, said[:60])


def damaged_archives(jsonstream, work, text):
    raw = gzip.compress(text)
    zst = subprocess.run(["zstd", "-q", "-c"], input=text, capture_output=True).stdout
    for kind, suffix, packed, filler in [("gzip", "gz", raw, b"\x00"), ("zstd", "zst", zst, b"\xff")]:
        middle = len(packed) // 2
        for label, data in [("bytes overwritten", packed[:middle] + filler * 64 + packed[middle + 64:]),
                            ("cut short", packed[:middle])]:
            path = os.path.join(work, "damaged.json." + suffix)
            with open(path, "wb") as out:
                out.write(data)
            result = run(jsonstream, ["-c", ".id", path])
            # Garbage inflated from damage may fail as JSON (5) before the
            # archive's own check (2): either is an error that says where.
            ok = result.returncode in (2, 5) and bool(result.stderr)
            row("damaged archive: %s, %s" % (kind, label), result.returncode, "2 or 5", "reported", ok,
                last_line(result.stderr)[:60])


def random_corruption(jsonstream, work, items, kind, rounds, rng):
    """1 to 10 bytes overwritten at random places; every untouched element must come out."""
    text, ranges = array_text(items) if kind == "array" else lines_text(items)
    failures, terminal = 0, 0
    for _ in range(rounds):
        damaged = bytearray(text)
        places = sorted(rng.randrange(ranges[0][0], ranges[-1][1]) for _ in range(rng.randint(1, 10)))
        for place in places:
            damaged[place] = rng.choice(b'"{}[],:\\x\xff ' + bytes([rng.randrange(256)]))
        touched = {index for index, (start, end) in enumerate(ranges) for place in places if start <= place < end}
        if kind == "lines":
            # A line break is the boundary of the lines on both sides of it:
            # damaged, it joins them into one.
            touched |= {index + 1 for index, (start, end) in enumerate(ranges) for place in places if place == end - 1}
        path = os.path.join(work, "corrupt." + ("json" if kind == "array" else "jsonl"))
        with open(path, "wb") as out:
            out.write(damaged)
        result = run(jsonstream, ["--on-error", "skip", "-c", ".", path])
        got = outputs(result.stdout)
        untouched = [item for index, item in enumerate(items) if index not in touched]
        if result.returncode == 0:
            ok = is_subsequence(untouched, got)
        else:
            # Could not go on: not a success, the last line says so, and
            # the untouched elements before the first damage came out.
            terminal += 1
            before = [item for index, item in enumerate(items) if index < min(touched)]
            ok = result.returncode == 5 and "unread" in last_line(result.stderr) or "inside an element" in last_line(result.stderr)
            ok = ok and is_subsequence(before, got)
        failures += 0 if ok else 1
    row("random 1-10 bytes, %s x%d" % (kind, rounds), "0 / 5", "0, or 5 if cut",
        "none" if failures == 0 else "%d rounds lost data" % failures, failures == 0,
        "%d rounds could not go on" % terminal)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("jsonstream")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--rounds", type=int, default=60)
    options = parser.parse_args()
    jsonstream = os.path.abspath(options.jsonstream)
    rng = random.Random(options.seed)
    items = records(3000, options.seed)
    with tempfile.TemporaryDirectory() as work:
        text, _ = array_text(items)
        lines, _ = lines_text(items)
        with open(os.path.join(work, "in.json"), "wb") as out:
            out.write(text)
        with open(os.path.join(work, "in.jsonl"), "wb") as out:
            out.write(lines)
        disk_full(jsonstream, work, text)
        closed_pipe(jsonstream, work, text)
        interrupted(jsonstream, work, lines, signal.SIGINT, "sigint")
        interrupted(jsonstream, work, lines, signal.SIGTERM, "sigterm")
        killed_then_rerun(jsonstream, work, lines, items)
        truncated_while_read(jsonstream, work, items)
        damaged_archives(jsonstream, work, text)
        random_corruption(jsonstream, work, items, "array", options.rounds, rng)
        random_corruption(jsonstream, work, items, "lines", options.rounds, rng)
    widths = [max(len(str(r[i])) for r in ROWS + [("fault", "exit", "expected", "lost", "result", "note")])
              for i in range(6)]
    header = ("fault", "exit", "expected", "lost", "result", "note")
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in ROWS:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")
    failed = [r for r in ROWS if r[4] != "survived"]
    print("\n%d of %d faults survived with nothing lost" % (len(ROWS) - len(failed), len(ROWS)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
