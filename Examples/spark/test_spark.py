# SPDX-License-Identifier: Apache-2.0
"""Runs jsonstream_spark.py in Spark's local[2] mode and checks it.

    python test_spark.py --jsonstream BIN --spark-submit BIN --work DIR [--size BYTES]

Crafted inputs (strings full of `},{`, `[`, `\\"` and `\\\\`, a key path with
members either side, JSON Lines, an element larger than a range, a gzip
file, a damaged array) and a generated array of about 1 GiB: the parts,
joined in order, must equal `jsonstream -c [--path P] FILTER INPUT`; a
damaged input must fail the job. On the 1 GiB array, with --partitions 2,
each task's jsonstream must stay under 64 MiB and the job must beat Spark's
own multiLine reader of the same file. Prints a table of times and memory.
Exit 1 on any failure.
"""
import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAILURES = []


def check(condition, what):
    print(("  ok    " if condition else "  FAIL  ") + what)
    if not condition:
        FAILURES.append(what)


def tricky_string(rng):
    parts = ['},{', '[', '\\"', '\\\\', ',', ']', '{', '\\\\\\"', ' ', '\\n', 'é', 'x']
    return '"' + "".join(rng.choice(parts) * rng.randint(1, 6) for _ in range(rng.randint(0, 30))) + '"'


def element(rng, depth=0, huge=False):
    kind = rng.randrange(3 if depth > 2 else 6)
    if kind == 0:
        return tricky_string(rng)
    if kind == 1:
        return rng.choice(["-12.5e3", "0", "123456789012345678901234567890", "1.0"])
    if kind == 2:
        return rng.choice(["true", "false", "null"])
    count = 3000 if huge else rng.randint(0, 4)
    if kind == 3:
        return "[" + ",".join(element(rng, depth + 1) for _ in range(count)) + "]"
    return "{" + ",".join('"k%d%s":%s' % (i, tricky_string(rng)[1:-1], element(rng, depth + 1))
                          for i in range(count)) + "}"


def crafted(work):
    """(name, file, path, partitions, filter) for the crafted inputs."""
    rng = random.Random(45)
    cases = []
    elements = [element(rng) for _ in range(400)]
    with open(os.path.join(work, "tricky.json"), "w") as out:
        out.write("[" + ",".join(elements) + "]")
    cases.append(("tricky strings", "tricky.json", None, 7, "."))
    with open(os.path.join(work, "keypath.json"), "w") as out:
        out.write('{"meta": {"items": [1], "s": "]\\"[,"},\n "items": [\n  ' + ",\n  ".join(elements)
                  + '\n ], "after": [3, {"items": 4}]}\n')
    cases.append(("key path", "keypath.json", ".items", 5, "."))
    with open(os.path.join(work, "object.json"), "w") as out:
        out.write('{"meta": {"items": {}}, "items": {' + ", ".join('"k%d": %s' % (i, e) for i, e in enumerate(elements))
                  + '}, "n": 1}\n')
    cases.append(("an object at a key path", "object.json", ".items", 5, "."))
    with open(os.path.join(work, "lines.jsonl"), "w") as out:
        out.write("\n".join('{"v":%s}' % e for e in elements) + "\n")
    cases.append(("JSON Lines", "lines.jsonl", None, 4, ".v"))
    with open(os.path.join(work, "huge.json"), "w") as out:
        out.write("[" + ",".join(elements[:5] + [element(rng, huge=True)] + elements[5:9]) + "]")
    cases.append(("an element larger than a range", "huge.json", None, 6, "."))
    with open(os.path.join(work, "tricky.json"), "rb") as source, \
            gzip.open(os.path.join(work, "tricky.json.gz"), "wb") as out:
        shutil.copyfileobj(source, out)
    cases.append(("gzip: one piece", "tricky.json.gz", None, 3, "."))
    return cases


# Runs a command and prints, last on stderr, its process tree's peak memory.
MEASURED = ("import resource, subprocess, sys\n"
            "status = subprocess.run(sys.argv[1:]).returncode\n"
            "print('peak-kib=%d' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(status)\n")


def measured(command):
    """(exit status, seconds, stderr, peak KiB of the command's largest process)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", MEASURED] + command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    errors, _, last = done.stderr.rstrip("\n").rpartition("\n")
    peak = int(last.split("=")[1]) if last.startswith("peak-kib=") else None
    return done.returncode, seconds, errors, peak


def run_job(options, work, name, source, path, partitions, filter_text, report=None):
    """Runs the Spark job; (exit status, seconds, parts joined, JVM peak KiB)."""
    output = os.path.join(work, "out-" + name.replace(" ", "-").replace(":", ""))
    shutil.rmtree(output, ignore_errors=True)
    command = [options.spark_submit, "--master", "local[2]", os.path.join(HERE, "jsonstream_spark.py"),
               "--jsonstream", options.jsonstream, "--partitions", str(partitions)]
    command += ["--path", path] if path else []
    command += ["--report", report] if report else []
    command += [filter_text, source, output]
    status, seconds, errors, peak = measured(command)
    if status != 0:
        return status, seconds, None, peak, errors
    parts = sorted(p for p in os.listdir(output) if p.startswith("part-"))
    joined = b"".join(open(os.path.join(output, p), "rb").read() for p in parts)
    return 0, seconds, joined, peak, errors


def single(options, source, path, filter_text):
    command = [options.jsonstream, "-c"] + (["--path", path] if path else []) + [filter_text, source]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True)
    return done.returncode, done.stdout, time.monotonic() - started


def generate(work, size):
    """About `size` bytes of realistic records: a 64 MB dump repeated."""
    big = os.path.join(work, "records-1GiB.json")
    if os.path.exists(big) and os.path.getsize(big) >= size:
        return big
    small = os.path.join(work, "records-64MB.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "generate-records.py"), "--size", "64MB",
                    "--out", small], check=True, stderr=subprocess.DEVNULL)
    body = open(small, "rb").read().strip()[1:-1]
    with open(big, "wb") as out:
        out.write(b"[")
        first = True
        while out.tell() < size:
            out.write(body if first else b",\n" + body)
            first = False
        out.write(b"]\n")
    os.remove(small)
    return big


def test_crafted(options, work):
    print("Crafted inputs")
    for name, file, path, partitions, filter_text in crafted(work):
        source = os.path.join(work, file)
        status, expected, _ = single(options, source, path, filter_text)
        job, seconds, joined, _, errors = run_job(options, work, name, source, path, partitions, filter_text)
        check(status == 0 and job == 0 and joined == expected,
              "%s: %d pieces, parts joined = the single run (%d bytes, %.1f s)%s"
              % (name, partitions, len(expected), seconds, "" if job == 0 else ": " + errors[-400:]))
    damaged = os.path.join(work, "damaged.json")
    with open(damaged, "w") as out:
        out.write("[" + ",\n".join('{"id":%d%s,"s":"a,b"}' % (n, "x" if n == 370 else "") for n in range(500)) + "]")
    status, _, _ = single(options, damaged, None, ".")
    job, _, _, _, errors = run_job(options, work, "damaged", damaged, None, 3, ".")
    check(status != 0 and job != 0 and "jsonstream exited" in errors,
          "damaged array: the single run exits %d, the job fails with jsonstream's message" % status)


def test_large(options, work):
    print("About 1 GiB, --partitions 2, local[2]")
    source = generate(work, options.size)
    size = os.path.getsize(source)
    filter_text = "select(.abv > 8) | {id, name, abv}"
    status, expected, single_seconds = single(options, source, None, filter_text)
    report = os.path.join(work, "report.json")
    job, job_seconds, joined, job_jvm, errors = run_job(options, work, "large", source, None, 2, filter_text, report)
    check(status == 0 and job == 0 and joined == expected,
          "parts joined = the single run (%d results)%s" % (expected.count(b"\n"), "" if job == 0 else errors[-400:]))
    tasks = json.load(open(report))["tasks"] if job == 0 else []
    for task in tasks:
        check(task["jsonstream_kib"] is not None and task["jsonstream_kib"] < 64 * 1024,
              "piece %d: jsonstream peak %.1f MiB < 64 MiB (Spark's Python worker beside it: %.1f MiB)"
              % (task["piece"], (task["jsonstream_kib"] or 0) / 1024, (task["python_worker_kib"] or 0) / 1024))
    output = os.path.join(work, "out-multiline")
    shutil.rmtree(output, ignore_errors=True)
    command = [options.spark_submit, "--master", "local[2]", os.path.join(HERE, "multiline_baseline.py"),
               "--where", "abv > 8", "--select", "id,name,abv", source, output]
    baseline, baseline_seconds, _, baseline_jvm = measured(command)
    rows = sum(open(os.path.join(output, p)).read().count("\n") for p in os.listdir(output)
               if p.startswith("part-")) if baseline == 0 else None
    check(baseline != 0 or job_seconds < baseline_seconds,
          "the job (%.1f s) is faster than Spark's multiLine reader (%.1f s%s)"
          % (job_seconds, baseline_seconds, "" if baseline == 0 else ", which failed"))
    print()
    print("| %-46s | %9s | %s |" % ("run (%.2f GB array, 2 cores)" % (size / 1e9), "seconds", "peak memory"))
    print("|%s|%s|%s|" % ("-" * 48, "-" * 11, "-" * 40))
    print("| %-46s | %9.2f | %s |" % ("jsonstream -c F (one process, 2 threads)", single_seconds, ""))
    for task in tasks:
        print("| %-46s | %9.2f | jsonstream %.1f MiB |" % ("  piece %d task (%d MB)" % (task["piece"], task["bytes"] / 1e6),
                                                          task["seconds"], task["jsonstream_kib"] / 1024))
    print("| %-46s | %9.2f | largest process %.0f MiB (Spark's JVM) |"
          % ("jsonstream_spark.py --partitions 2 (spark-submit)", job_seconds,
             (job_jvm or 0) / 1024))
    print("| %-46s | %9.2f | largest process %.0f MiB (Spark's JVM) |"
          % ("Spark multiLine reader (spark-submit)%s" % ("" if rows is not None else ", failed"),
             baseline_seconds, (baseline_jvm or 0) / 1024))
    if rows is not None:
        check(rows == expected.count(b"\n"), "Spark's reader found the same %d rows" % rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jsonstream", required=True)
    parser.add_argument("--spark-submit", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--size", type=int, default=1 << 30)
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    test_crafted(options, options.work)
    test_large(options, options.work)
    if FAILURES:
        print("\n%d check(s) failed" % len(FAILURES))
        sys.exit(1)
    print("\nAll checks passed")


if __name__ == "__main__":
    main()
