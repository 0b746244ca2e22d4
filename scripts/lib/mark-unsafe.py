#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Applies the compiler's strict-memory-safety fix-its (SE-0458) to the
package's sources: marks each unsafe expression and for-in loop `unsafe`.

With `.strictMemorySafety()` on a target, the compiler warns about every use
of an unsafe construct that is not marked, with a fix-it that inserts the
mark (printed under the caret with `-Xswiftc -diagnostic-style=llvm`; the
default style prints none), so this works from the warning's position:

  file:line:col: warning: expression uses unsafe constructs but is not marked with 'unsafe'
      `unsafe ` goes in at `col`, before the expression; but when that is
      the name of an `if let x`/`guard let x` shorthand, it becomes
      `let x = unsafe x` (the fix-it Swift 6.3 prints for a parameter; for
      a local variable it prints `let unsafe x`, which does not parse);
  file:line:col: warning: for-in loop uses unsafe constructs but is not marked with 'unsafe'
      `col` is the `for`: `for x in` becomes `for unsafe x in`, after any
      `try` and `await` and before `case` (the fix-it Swift 6.3 prints for
      `for case let` puts it after `case`, which does not parse).

Each unique site is marked once, from the rightmost column of a line leftwards
so that the columns of the others stay valid. Only files under Sources/ are
edited. Columns are UTF-8 bytes, as the compiler counts them. Arguments
aligned under a bracket that a mark moves are moved with it. A marked line
longer than 125 characters (the sources keep to about 120) is listed, to
wrap by hand. The other warnings want a decision and are left alone:
`has storage involving unsafe types` wants `@safe` (the type encapsulates
its unsafe storage behind a safe interface) or `@unsafe` (its interface is
about raw memory; then its uses become sites to mark), and a
`@preconcurrency import` wants `@unsafe` in front of it.

One pass over a build log:

    swift build 2>&1 | python3 scripts/lib/mark-unsafe.py

The compiler reports only for the files it compiles, and a marked expression
can contain another that then surfaces (a closure inside it), so to mark
everything run it in a loop: it touches the Swift files under Sources/, builds
with the arguments given, applies, and repeats until nothing is left to mark
(after merging a branch that moved code, say):

    python3 scripts/lib/mark-unsafe.py --build --target StreamingJSON
    python3 scripts/lib/mark-unsafe.py --build            # every target

`--dry-run` lists the sites without editing. Exit status: 0 when nothing is
left to mark (or, for one pass, the log was applied), 1 when the build failed
or a site could not be marked.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
SOURCES = os.path.join(ROOT, "Sources")
MAX_LINE = 125

WARNING = re.compile(
    r"^(?P<file>[^\s:][^:]*\.swift):(?P<line>\d+):(?P<col>\d+): warning: "
    r"(?P<kind>expression|for-in loop) uses unsafe constructs but is not marked with 'unsafe'")
ERROR = re.compile(r"^[^\s:][^:]*:\d+:\d+: error: ")


def sites(log):
    """The unique (file, line, column, kind) of the warnings, kind being
    'expression' or 'for-in loop'."""
    found = set()
    for text in log:
        match = WARNING.match(text)
        if match:
            path = os.path.realpath(os.path.join(ROOT, match["file"]))
            found.add((path, int(match["line"]), int(match["col"]), match["kind"]))
    return found


SHORTHAND = re.compile(rb"(?:^|[\s(,])(?:let|var)\s+$")
NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
AFTER_SHORTHAND = re.compile(rb"\s*(?:,|\{|else\b|$)")
FOR_IN = re.compile(rb"for\s+(?:try\s+)?(?:await\s+)?")


def insertion(line, column, kind):
    """Where the mark goes in `line` (bytes) and what it is; False when it is
    there already (a stale log), None when the text there is not what the
    warning describes."""
    at = column - 1
    if kind == "expression":
        if at > len(line):
            return None
        if line[at:].startswith(b"unsafe "):
            return False
        name = NAME.match(line, at)
        if name and SHORTHAND.search(line[:at]) and AFTER_SHORTHAND.match(line, name.end()):
            return name.end(), b" = unsafe " + name.group()
        return at, b"unsafe "
    match = FOR_IN.match(line, at)
    if not match:
        return None
    if line[match.end():].startswith(b"unsafe "):
        return False
    return match.end(), b"unsafe "


def brackets(line, state):
    """The brackets opened and closed in `line` outside strings and comments,
    as (byte offset, byte); `state` carries a multi-line string or block
    comment over to the next line."""
    found = []
    index = 0
    while index < len(line):
        if state == "comment":
            close = line.find(b"*/", index)
            if close < 0:
                break
            state, index = None, close + 2
        elif state == "multiline":
            close = line.find(b'"""', index)
            if close < 0:
                break
            state, index = None, close + 3
        elif state == "string":
            byte = line[index:index + 1]
            if byte == b"\\":
                index += 2
                continue
            if byte == b'"':
                state = None
            index += 1
        elif line.startswith(b"//", index):
            break
        elif line.startswith(b"/*", index):
            state, index = "comment", index + 2
        elif line.startswith(b'"""', index):
            state, index = "multiline", index + 3
        elif line[index:index + 1] == b'"':
            state, index = "string", index + 1
        else:
            if line[index:index + 1] in (b"(", b"[", b"{", b")", b"]", b"}"):
                found.append((index, line[index:index + 1]))
            index += 1
    # A string does not go on past its line (unless it is a multi-line one).
    return found, None if state == "string" else state


def edit(text, marks):
    """`text` (lines of bytes) with `marks` ({line index: {(offset, mark)}})
    put in. Arguments on lines of their own aligned under their opening
    bracket stay aligned when a mark moves the bracket: those lines move as
    far."""
    edited = []
    stack = []  # open brackets: (byte, old column, new column)
    state = None
    for number, line in enumerate(text):
        inserted = sorted(marks.get(number, ()))
        indent = len(line) - len(line.lstrip(b" "))
        shift = 0
        if state is None and line.strip() and stack and stack[-1][0] in (b"(", b"[") \
                and indent == stack[-1][1] + 1:
            shift = stack[-1][2] - stack[-1][1]
        new = line
        for offset, mark in reversed(inserted):
            new = new[:offset] + mark + new[offset:]
        edited.append(b" " * shift + new)
        found, state = brackets(line, state)
        for offset, byte in found:
            if byte in (b"(", b"[", b"{"):
                moved = shift + sum(len(mark) for at, mark in inserted if at <= offset)
                stack.append((byte, offset, offset + moved))
            elif stack:
                stack.pop()
    return edited


def apply(found, dry_run):
    """Marks the sites; returns (marked, problems, long lines)."""
    by_file = {}
    problems = []
    for path, line, column, kind in sorted(found):
        if not path.startswith(SOURCES + os.sep):
            problems.append(f"{path}:{line}:{column}: not under Sources/, left alone")
            continue
        by_file.setdefault(path, {}).setdefault(line, set()).add((column, kind))
    marked = 0
    long_lines = []
    for path, lines in sorted(by_file.items()):
        with open(path, "rb") as file:
            text = file.read().split(b"\n")
        marks = {}
        for number, columns in lines.items():
            for column, kind in columns:
                mark = insertion(text[number - 1], column, kind) if number <= len(text) else None
                if mark is None:
                    problems.append(f"{path}:{number}:{column}: no {kind} to mark there")
                elif mark:
                    marks.setdefault(number - 1, set()).add(mark)
        marked += sum(len(line_marks) for line_marks in marks.values())
        edited = edit(text, marks)
        for number, (old, new) in enumerate(zip(text, edited)):
            if old != new and len(new.decode("utf-8")) > MAX_LINE:
                long_lines.append(f"{os.path.relpath(path, ROOT)}:{number + 1}")
        if not dry_run:
            with open(path, "wb") as file:
                file.write(b"\n".join(edited))
    if dry_run:
        for path, line, column, kind in sorted(found):
            print(f"{os.path.relpath(path, ROOT)}:{line}:{column}: {kind}")
    return marked, problems, long_lines


def report(marked, problems, long_lines, dry_run):
    print(f"mark-unsafe: {'would mark' if dry_run else 'marked'} {marked} site(s)", file=sys.stderr)
    for problem in problems:
        print(f"mark-unsafe: {problem}", file=sys.stderr)
    for where in long_lines:
        print(f"mark-unsafe: {where}: longer than {MAX_LINE} characters, wrap it", file=sys.stderr)


def build_loop(arguments, dry_run):
    total = 0
    long_lines = set()
    for attempt in range(1, 21):
        for directory, _, names in os.walk(SOURCES):
            for name in names:
                if name.endswith(".swift"):
                    os.utime(os.path.join(directory, name))
        command = ["swift", "build"] + arguments
        print(f"mark-unsafe: pass {attempt}: {' '.join(command)}", file=sys.stderr)
        result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        log = result.stdout.decode("utf-8", "replace").splitlines()
        if result.returncode != 0:
            errors = dict.fromkeys(line for line in log if ERROR.match(line))
            print("\n".join(errors) or "\n".join(log[-40:]), file=sys.stderr)
            print("mark-unsafe: the build failed", file=sys.stderr)
            return 1
        found = sites(log)
        marked, problems, lines = apply(found, dry_run)
        report(marked, problems, [], dry_run)
        long_lines.update(lines)
        total += marked
        if problems:
            return 1
        if marked == 0 or dry_run:
            print(f"mark-unsafe: done, {total} site(s) marked in all", file=sys.stderr)
            for where in sorted(long_lines):
                print(f"mark-unsafe: {where}: longer than {MAX_LINE} characters, wrap it", file=sys.stderr)
            return 0
    print("mark-unsafe: still finding sites after 20 passes", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true",
                        help="build (with the arguments that follow) and apply until nothing is left")
    parser.add_argument("--dry-run", action="store_true", help="list the sites, edit nothing")
    options, build_arguments = parser.parse_known_args()
    if options.build:
        return build_loop(build_arguments, options.dry_run)
    if build_arguments:
        parser.error(f"unexpected arguments {build_arguments} (the build's go after --build)")
    found = sites(sys.stdin.read().splitlines())
    marked, problems, long_lines = apply(found, options.dry_run)
    report(marked, problems, long_lines, options.dry_run)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
