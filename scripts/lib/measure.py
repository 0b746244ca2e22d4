# SPDX-License-Identifier: Apache-2.0
"""Runs commands and measures them: wall-clock seconds and the peak resident
memory of the child (from wait4's rusage), so that every contender is
measured the same way, whatever language it is written in."""
import os
import resource
import statistics
import subprocess
import sys
import time


class CommandFailed(SystemExit):
    """A measured command exited nonzero. A SystemExit, so that a script that
    does not catch it stops with the message, as before; scripts/compare
    catches it, fails that row and goes on with the others."""

    def __init__(self, message, command, status=None):
        super().__init__(message)
        self.command = command
        self.status = status  # the exit status


def parse_fields(out):
    """The key=value fields that streamingjson-bench prints, as a dict."""
    return dict(part.split("=", 1) for part in (out or "").split() if "=" in part)


def measure(command, stdin_path=None, stdout_path=None):
    """Returns (seconds, peak_rss_mib, stdout) for one run of `command`.

    With `stdout_path`, the output goes to that file and `stdout` is None.
    Use it for large outputs: a child's peak is counted from its fork, when
    it still shares this Python's resident pages, so outputs held here would
    inflate the peaks of the commands measured after them."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    stdout = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    try:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
        # stdout is read to its end before stderr: the measured commands
        # write little to stderr (a full stderr pipe would block them).
        out = process.stdout.read() if not stdout_path else None
        err = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
    finally:
        if stdin_path:
            stdin.close()
        if stdout_path:
            stdout.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise CommandFailed("command failed (%d): %s\n%s" % (code, " ".join(command), err.decode(errors="replace")),
                            command, status=code)
    peak = usage.ru_maxrss / 1024 if sys.platform != "darwin" else usage.ru_maxrss / 1048576
    return seconds, peak, out.decode(errors="replace") if out is not None else None


def compare(contenders, runs, size_bytes, log=sys.stderr, output_dir=None):
    """Runs each contender `runs` times, interleaved (A B C A B C ...), and
    returns {name: {"seconds": median, "mbps": ..., "peak_mib": max, "out": last}}.
    With `output_dir`, each contender's output goes to a file there instead
    (see `measure`), named in "out_path"; "out" is then None."""
    samples = {name: [] for name, _, _ in contenders}
    peaks = {name: [] for name, _, _ in contenders}
    outputs = {}
    paths = {}
    for run in range(runs):
        for index, (name, command, stdin_path) in enumerate(contenders):
            if output_dir:
                paths[name] = os.path.join(output_dir, "%d.out" % index)
            seconds, peak, out = measure(command, stdin_path, paths.get(name))
            samples[name].append(seconds)
            peaks[name].append(peak)
            outputs[name] = out
            print("  run %d  %-34s %7.2f s  %7.1f MiB" % (run + 1, name, seconds, peak), file=log, flush=True)
    results = {}
    for name, _, _ in contenders:
        median = statistics.median(samples[name])
        results[name] = {"seconds": median, "mbps": size_bytes / 1e6 / median,
                         "peak_mib": max(peaks[name]), "out": outputs[name], "out_path": paths.get(name),
                         "samples": samples[name]}
    return results
