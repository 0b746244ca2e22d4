# SPDX-License-Identifier: Apache-2.0
"""One huge JSON array (or JSON Lines file) filtered across Spark's workers.

    spark-submit Examples/spark/jsonstream_spark.py [--path P] --partitions N \\
        FILTER INPUT OUTPUT_DIR

Spark's own JSON reader cannot split one array: with multiLine it reads the
whole file in one task and builds it in memory. This job cuts INPUT into N
pieces at exact element boundaries with jsonstream, and each Spark task runs
`jsonstream -c --piece PIECE FILTER INPUT` on its own piece, reading only its
byte range. The results are written as Spark text parts,
OUTPUT_DIR/part-00000 ... in piece order; joined in order they are exactly
`jsonstream -c [--path P] FILTER INPUT`.

Three stages, as a plan of pieces has them:
  1. the driver plans the ranges (`--plan-ranges`: reads the file's start only);
  2. each task scans its range (`--scan-piece`), the driver joins the scans
     (`--join-pieces`: reads nothing);
  3. each task filters its piece (`--piece`), streaming its results to Spark.

INPUT must be a path every worker can read (a local file in local mode, a
shared file system on a cluster), and jsonstream must be installed on every
worker (or named with --jsonstream). A task whose jsonstream fails fails the
job with its message: nothing is written as if it had succeeded.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

from pyspark import AccumulatorParam
from pyspark.sql import SparkSession


class ListParam(AccumulatorParam):
    """An accumulator of lists: each task adds its report."""

    def zero(self, value):
        return []

    def addInPlace(self, first, second):
        return first + second


def run(command, stdin=None):
    """Runs a step of the plan; its stdout, or an error with its stderr."""
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(command[:2]), done.returncode, done.stderr.strip()))
    if done.stderr:
        sys.stderr.write(done.stderr)
    return done.stdout


def scan_task(jsonstream, source):
    """Stage 2: each task scans its own range."""
    def scan(lines):
        for line in lines:
            yield run([jsonstream, "--scan-piece", line, source]).strip()
    return scan


def peak_kib(text):
    """The peak memory `jsonstream --stats` reports on its last line, in KiB."""
    match = re.search(r"peak memory ([0-9.]+) (KiB|MiB|GiB)", text)
    if not match:
        return None
    return int(float(match.group(1)) * {"KiB": 1, "MiB": 1024, "GiB": 1024 * 1024}[match.group(2)])


def own_peak_kib():
    """This process's own peak resident memory (VmHWM), in KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def filter_task(jsonstream, arguments, source, reports):
    """Stage 3: each task runs the filter on its own piece, streaming its lines."""
    def filter_piece(index, pieces):
        for piece in pieces:
            started = time.monotonic()
            command = [jsonstream, "-c", "--stats", "--piece", piece] + arguments + [source]
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for line in process.stdout:
                yield line.rstrip(b"\n").decode("utf-8")
            errors = process.stderr.read().decode("utf-8", "replace")
            status = process.wait()
            if status != 0:
                raise RuntimeError("jsonstream exited %d on piece %d: %s" % (status, index, errors.strip()))
            described = json.loads(piece)
            reports.add([{"piece": index, "seconds": round(time.monotonic() - started, 3),
                          "bytes": described["end"] - described["start"],
                          "jsonstream_kib": peak_kib(errors), "python_worker_kib": own_peak_kib()}])
    return filter_piece


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", help="the key path of the array to cut (.items)")
    parser.add_argument("--partitions", type=int, required=True, help="pieces, one Spark task each")
    parser.add_argument("--jsonstream", default="jsonstream", help="the jsonstream binary on the workers")
    parser.add_argument("--report", help="write the tasks' times and peak memory here (JSON)")
    parser.add_argument("filter")
    parser.add_argument("input")
    parser.add_argument("output_dir")
    options = parser.parse_args()
    source = os.path.abspath(options.input)
    path = ["--path", options.path] if options.path else []

    spark = SparkSession.builder.appName("jsonstream pieces").getOrCreate()
    context = spark.sparkContext
    started = time.monotonic()

    # 1. The ranges, from the file's start.
    ranges = run([options.jsonstream, "--plan-ranges", str(options.partitions)] + path + [source]).splitlines()
    # 2. Each range scanned by a task, the scans joined here.
    if json.loads(ranges[0])["shape"] == "whole":
        pieces = ranges  # read whole as the first piece: nothing to scan
    else:
        scanned = context.parallelize(ranges, len(ranges)).mapPartitions(scan_task(options.jsonstream, source))
        pieces = run([options.jsonstream, "--join-pieces"], stdin="\n".join(scanned.collect()) + "\n").splitlines()
    planned = time.monotonic()
    # 3. Each piece filtered by a task; part-NNNNN is piece NNNNN's results.
    reports = context.accumulator([], ListParam())
    results = context.parallelize(pieces, len(pieces)).mapPartitionsWithIndex(
        filter_task(options.jsonstream, path + [options.filter], source, reports))
    results.saveAsTextFile(options.output_dir)
    finished = time.monotonic()

    summary = {"pieces": len(pieces), "plan_seconds": round(planned - started, 3),
               "filter_seconds": round(finished - planned, 3), "total_seconds": round(finished - started, 3),
               "tasks": sorted(reports.value, key=lambda report: report["piece"])}
    print("jsonstream_spark: %d pieces, planned in %.2f s, filtered in %.2f s" %
          (len(pieces), summary["plan_seconds"], summary["filter_seconds"]), file=sys.stderr)
    for task in summary["tasks"]:
        print("  piece %(piece)d: %(bytes)d bytes, %(seconds).2f s, jsonstream peak %(jsonstream_kib)d KiB, "
              "Python worker peak %(python_worker_kib)d KiB" % task, file=sys.stderr)
    if options.report:
        with open(options.report, "w") as report:
            json.dump(summary, report, indent=2)
    spark.stop()


if __name__ == "__main__":
    main()
