# SPDX-License-Identifier: Apache-2.0
"""jsonstream on every core against --threads 1 and json_verify (scripts/compare-threads)."""

import argparse
import filecmp
import os
import statistics
import subprocess
import time

FILTERS = [
    "select(.abv > 8) | {name, style}",
    ".",
    "select(.active)",
    ".brewery.name",
    "{id, n: (.tags | length), lat: .brewery.location.latitude}",
]

# Piped rows: the flagship filter, and every element written.
PIPE_FILTERS = FILTERS[:2]


def timed(command, stdin=None, stdout=subprocess.DEVNULL):
    start = time.perf_counter()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
        subprocess.run(command, stdin=source, stdout=stdout, check=True)
    return time.perf_counter() - start


def timed_pipe(command, path, stdout=subprocess.DEVNULL):
    """`cat path | command`: the input through a real pipe."""
    start = time.perf_counter()
    cat = subprocess.Popen(["cat", path], stdout=subprocess.PIPE)
    subprocess.run(command, stdin=cat.stdout, stdout=stdout, check=True)
    cat.stdout.close()
    cat.wait()
    return time.perf_counter() - start


def same_through_a_pipe(jsonstream, flt, path, scratch):
    """Whether `cat path | jsonstream F` on every core writes what `jsonstream F path` does."""
    outputs = [os.path.join(scratch, name) for name in ("file.out", "pipe.out")]
    with open(outputs[0], "wb") as sink:
        subprocess.run([jsonstream, "--threads", "1", "-c", flt, path], stdout=sink, check=True)
    with open(outputs[1], "wb") as sink:
        timed_pipe([jsonstream, "-c", flt], path, stdout=sink)
    same = filecmp.cmp(outputs[0], outputs[1], shallow=False)
    for out in outputs:
        os.remove(out)
    return same


def same_output(jsonstream, flt, path, scratch):
    outputs = []
    for threads in ("1", str(os.cpu_count() or 1)):
        out = os.path.join(scratch, "threads-%s.out" % threads)
        with open(out, "wb") as sink:
            subprocess.run([jsonstream, "--threads", threads, "-c", flt, path], stdout=sink, check=True)
        outputs.append(out)
    same = filecmp.cmp(outputs[0], outputs[1], shallow=False)
    for out in outputs:
        os.remove(out)
    return same


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jsonstream", required=True)
    parser.add_argument("--array", required=True)
    parser.add_argument("--lines", required=True)
    parser.add_argument("--scratch", required=True)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    inputs = [("array", args.array, ["json_verify", "-q"]), ("JSON Lines", args.lines, ["json_verify", "-q", "-s"])]
    seconds = {}
    for _ in range(args.runs):
        for name, path, verify in inputs:
            seconds.setdefault((name, "verify"), []).append(timed(verify, stdin=path))
            for flt in FILTERS:
                for threads in (1, cores):
                    command = [args.jsonstream, "--threads", str(threads), "-c", flt, path]
                    seconds.setdefault((name, flt, threads), []).append(timed(command))
            for flt in PIPE_FILTERS:
                for threads in (1, cores):
                    command = [args.jsonstream, "--threads", str(threads), "-c", flt]
                    seconds.setdefault((name, "pipe", flt, threads), []).append(timed_pipe(command, path))
    load = os.getloadavg()[0]
    print("%d cores; %d runs, interleaved; medians; load average (1 min) %.2f at the end" % (cores, args.runs, load))
    print()
    print_table(inputs, FILTERS, seconds, (), cores,
                lambda flt, path: same_output(args.jsonstream, flt, path, args.scratch), with_verify=True)
    print()
    print("Through a pipe, `cat FILE | jsonstream -c F` (same output: as `jsonstream F FILE`'s):")
    print()
    print_table(inputs, PIPE_FILTERS, seconds, ("pipe",), cores,
                lambda flt, path: same_through_a_pipe(args.jsonstream, flt, path, args.scratch), with_verify=False)


def print_table(inputs, filters, seconds, kind, cores, same_output_of, with_verify):
    """One Markdown table: each filter on one thread and on every core, medians."""
    print("| input | filter | --threads 1 | all cores | speed-up | x json_verify's speed | same output |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, path, _ in inputs:
        verify = statistics.median(seconds[(name, "verify")])
        for flt in filters:
            one = statistics.median(seconds[(name,) + kind + (flt, 1)])
            every = statistics.median(seconds[(name,) + kind + (flt, cores)])
            same = "yes" if same_output_of(flt, path) else "NO"
            print("| %s | `%s` | %.2f s | %.2f s | %.2fx | %.2fx | %s |" % (
                name, flt.replace("|", "\\|"), one, every, one / every, verify / every, same))
        if with_verify:
            print("| %s | json_verify | %.2f s | | | 1.00x | |" % (name, verify))

if __name__ == "__main__":
    main()
