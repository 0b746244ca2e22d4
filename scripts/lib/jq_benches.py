# SPDX-License-Identifier: Apache-2.0
"""jaq's evaluator benchmarks (Benchmarks/jaq-benches, see its README) for
scripts/compare-jq, which installs and builds what this needs, then runs it.

Each program runs as jaq's bench.sh runs it: `echo N | IMPL "PROGRAM | length"`
(jsonstream: `echo N | jsonstream --input lines "PROGRAM | length"`), one
process per run, killed after the timeout (10 s). The time of a run is the
child's user + system CPU time (wait4's rusage; bench.sh takes user time);
a program's is the median of its rounds (3), interleaved over the
implementations (program by program: A B C D A B C D ...). As in bench.sh,
the first timeout ends an implementation's rounds of that program; so does an
error (a nonzero exit) or an output that is not jq 1.8.2's ("wrong").

Prints a Markdown table (program, N, seconds per implementation, jsonstream
over jq 1.8.2), the geometric mean of that ratio over the programs that both
finished, then PASS/FAIL lines for the targets: geometric mean <= 1.0, no
program above 3x jq 1.8.2, every program finished by jsonstream with jq
1.8.2's output. Exit status 0 whatever the targets say (it is a report);
2 for a usage error."""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHES = os.path.join(ROOT, "Benchmarks", "jaq-benches")
GEOMEAN_TARGET = 1.0
WORST_TARGET = 3.0


class Outcome:
    """One implementation on one program: the seconds of each finished round,
    or why it stopped ("timeout", "error", "wrong") and a detail line."""

    def __init__(self):
        self.seconds, self.failed, self.detail, self.output = [], None, "", None

    @property
    def ok(self):
        return self.failed is None and bool(self.seconds)

    @property
    def median(self):
        return statistics.median(self.seconds)

    def cell(self):
        return "%.3f" % self.median if self.ok else (self.failed or "-")


def run_once(argv, n, timeout, scratch):
    """(cpu seconds or None, status, stdout, stderr's first line); status is
    "ok", "timeout" or "error"."""
    stdin_path = os.path.join(scratch, "stdin")
    with open(stdin_path, "w") as f:
        f.write("%d\n" % n)
    out_path, err_path = os.path.join(scratch, "stdout"), os.path.join(scratch, "stderr")
    with open(stdin_path, "rb") as stdin, open(out_path, "wb") as out, open(err_path, "wb") as err:
        process = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=err)
        deadline = time.monotonic() + timeout
        # wait4 with WNOHANG, polled: the rusage of a child that is reaped
        # here, and a kill at the deadline.
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                os.wait4(process.pid, 0)
                process.returncode = -9  # reaped here; keeps Popen from waiting again
                return None, "timeout", "", "killed after %g s" % timeout
            time.sleep(0.002)
    process.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        stdout = f.read().decode(errors="replace")
    with open(err_path, "rb") as f:
        stderr = f.read().decode(errors="replace").strip()
    cpu = usage.ru_utime + usage.ru_stime
    if process.returncode != 0:
        first = next((line for line in stderr.splitlines() if line.strip()), "")
        return cpu, "error", stdout, "exit %d%s" % (process.returncode, (": " + first) if first else "")
    return cpu, "ok", stdout, ""


def load_benches():
    benches = []
    with open(os.path.join(BENCHES, "benches.json")) as f:
        for line in f:
            if line.strip():
                entry = json.loads(line)
                with open(os.path.join(BENCHES, "benches", entry["name"] + ".jq")) as program:
                    benches.append((entry["name"], int(entry["n"]), program.read()))
    return benches


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jq", default="", help="jq 1.8.2 (the reference); empty if there is none")
    parser.add_argument("--jaq", default="")
    parser.add_argument("--gojq", default="")
    parser.add_argument("--jsonstream", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--only", default="", help="comma-separated program names (default: all)")
    args = parser.parse_args()

    # (column title, command before the program, binary)
    impls = [("jq 1.8.2", [args.jq], args.jq), ("jaq 3.1", [args.jaq], args.jaq),
             ("gojq", [args.gojq], args.gojq),
             ("jsonstream", [args.jsonstream, "--input", "lines"], args.jsonstream)]
    benches = load_benches()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {name for name, _, _ in benches}
        if unknown:
            parser.error("unknown programs: %s" % ", ".join(sorted(unknown)))
        benches = [bench for bench in benches if bench[0] in wanted]

    print("# jaq's benchmarks: %d programs, %d round%s each, interleaved, timeout %g s; CPU seconds (user + sys)"
          % (len(benches), args.rounds, "" if args.rounds == 1 else "s", args.timeout), file=sys.stderr)
    results = {}
    notes = []
    scratch = tempfile.mkdtemp(prefix="jq-benches-")
    try:
        for name, n, program in benches:
            outcomes = {title: Outcome() for title, _, _ in impls}
            for title, _, binary in impls:
                if not binary:
                    outcomes[title].failed = "n/a"
            text = program.rstrip("\n") + " | length"
            for round_ in range(args.rounds):
                for title, command, _ in impls:
                    outcome = outcomes[title]
                    if outcome.failed:
                        continue
                    try:
                        cpu, status, stdout, detail = run_once(command + [text], n, args.timeout, scratch)
                    except OSError as error:
                        cpu, status, stdout, detail = None, "error", "", str(error)
                    if status == "ok":
                        outcome.output = stdout if outcome.output is None else outcome.output
                        outcome.seconds.append(cpu)
                    else:
                        outcome.failed, outcome.detail = status, detail
                    print("  %-14s %-11s round %d  %s" % (
                        name, title, round_ + 1, "%.3f s" % cpu if status == "ok" else status),
                        file=sys.stderr, flush=True)
            # Every output against jq 1.8.2's (the same number, or numbers).
            reference = outcomes["jq 1.8.2"]
            for title, _, _ in impls[1:]:
                outcome = outcomes[title]
                if reference.ok and outcome.ok and outcome.output != reference.output:
                    outcome.failed = "wrong"
                    outcome.detail = "printed %s where jq 1.8.2 printed %s" % (
                        " ".join(outcome.output.split())[:60], " ".join(reference.output.split())[:60])
            for title, _, _ in impls:
                outcome = outcomes[title]
                if outcome.failed in ("timeout", "error", "wrong"):
                    notes.append("%s, %s: %s%s" % (name, title, outcome.failed,
                                                   (": " + outcome.detail) if outcome.detail else ""))
            results[name] = (n, outcomes)
    finally:
        for leftover in ("stdin", "stdout", "stderr"):
            try:
                os.remove(os.path.join(scratch, leftover))
            except OSError:
                pass
        os.rmdir(scratch)

    report(args, impls, benches, results, notes)
    return 0


def report(args, impls, benches, results, notes):
    titles = [title for title, _, _ in impls]
    lines = ["### jaq's evaluator benchmarks: `echo N | IMPL \"PROGRAM | length\"`, CPU seconds (user + sys), "
             "median of %d, timeout %g s" % (args.rounds, args.timeout), ""]
    lines.append("| program | N | %s | jsonstream / jq 1.8.2 | jsonstream / jaq 3.1 |" % " | ".join(titles))
    lines.append("|---|---:|%s---:|---:|" % ("---:|" * len(titles)))
    ratios, jaq_ratios = {}, {}
    for name, _, _ in benches:
        n, outcomes = results[name]
        ours, jq, jaq = outcomes["jsonstream"], outcomes["jq 1.8.2"], outcomes["jaq 3.1"]
        ratio = jaq_ratio = ""
        if ours.ok and jq.ok:
            # A run under the clock's resolution would divide by zero.
            ratios[name] = max(ours.median, 0.001) / max(jq.median, 0.001)
            ratio = "%.2f" % ratios[name]
        if ours.ok and jaq.ok:
            jaq_ratios[name] = max(ours.median, 0.001) / max(jaq.median, 0.001)
            jaq_ratio = "%.2f" % jaq_ratios[name]
        lines.append("| %s | %d | %s | %s | %s |" % (name, n, " | ".join(outcomes[t].cell() for t in titles), ratio,
                                                     jaq_ratio))
    lines.append("")

    lines.append("Ratios: jsonstream's seconds over the other's (below 1: jsonstream is faster). \"wrong\": "
                 "finished, but not with jq 1.8.2's output; \"n/a\": the implementation is not available.")
    if notes:
        lines += ["", "Did not finish or differed:"] + ["- " + note for note in notes]
    lines.append("")

    unfinished = [name for name, _, _ in benches if not results[name][1]["jsonstream"].ok]
    def geometric_mean(values, other):
        if not values:
            lines.append("Geometric mean of jsonstream / %s: no program finished under both" % other)
            return None
        mean = math.exp(sum(math.log(r) for r in values.values()) / len(values))
        lines.append("Geometric mean of jsonstream / %s over the %d of %d programs both finished: %.2f" % (
            other, len(values), len(benches), mean))
        return mean

    means = [(geometric_mean(values, other), values, other)
             for values, other in ((ratios, "jq 1.8.2"), (jaq_ratios, "jaq 3.1"))]
    lines += ["", "Targets:"]

    def line(ok, label, detail):
        lines.append("%s %s: %s" % ("PASS" if ok else "FAIL", label, detail))

    for mean, values, other in means:
        label = "geometric mean of jsonstream / %s <= %.1f" % (other, GEOMEAN_TARGET)
        if mean is None:
            line(False, label, "not measured")
        else:
            line(mean <= GEOMEAN_TARGET, label, "%.3f over %d program%s" % (
                mean, len(values), "" if len(values) == 1 else "s"))
    label = "no program > %gx jq 1.8.2" % WORST_TARGET
    over = sorted((r, name) for name, r in ratios.items() if r > WORST_TARGET)
    if ratios:
        worst = max((r, name) for name, r in ratios.items())
        line(not over, label, "worst %s %.2fx%s" % (worst[1], worst[0], "; above: " + ", ".join(
            "%s %.1fx" % (name, r) for r, name in reversed(over)) if over else ""))
    else:
        line(False, label, "not measured")
    label = "jsonstream finishes every program with jq 1.8.2's output"
    by_kind = {}
    for name in unfinished:
        by_kind.setdefault(results[name][1]["jsonstream"].failed or "-", []).append(name)
    line(not unfinished, label, "%d of %d%s" % (len(benches) - len(unfinished), len(benches), "".join(
        "; %s: %s" % (kind, ", ".join(names)) for kind, names in sorted(by_kind.items()))))
    print()
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
