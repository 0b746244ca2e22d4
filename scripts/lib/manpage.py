#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the mdoc page that swift-argument-parser's generate-manual writes for
jsonstream into the page we ship (Documentation/jsonstream.1).

generate-manual puts the command's whole discussion, as plain text, at the top
of DESCRIPTION. Ours is the text `jsonstream --help` prints: paragraphs, and
sections headed by an upper-case line (EXAMPLES, FILTER LANGUAGE, EXIT STATUS)
whose indented lines are examples and tables. This script keeps every word of
it and only changes the markup:

  - the paragraphs before the first heading stay in DESCRIPTION, before the
    option list, separated by .Pp (a blank line is an mdoc warning);
  - each headed section becomes an .Sh section after DESCRIPTION (EXIT STATUS
    replaces the generic `.Ex -std`), its indented lines .Bd -literal displays,
    and an exit-status table (`  N  meaning` lines) an .Bl -tag list;
  - ArgumentParser's implicit `help` subcommand (`jsonstream subcommand` in
    SYNOPSIS, an item at the end of the list) is dropped: jsonstream has none;
  - two-value options, spelled `<name> <value>` in --help through a value name
    of `name> <value`, become `Ar name Ar value`;
  - a --flag/--no-flag pair described by the same text becomes one item.

Usage: manpage.py GENERATED.1 > jsonstream.1
"""
import re
import sys

HEADING = re.compile(r"^[A-Z][A-Z0-9 ]+(\(.*\))?$")
EXIT_LINE = re.compile(r"^(\d+)  +(.*)$")


def text_line(line):
    """A line of running text, safe for roff: no leading dot or quote."""
    if line.startswith((".", "'")):
        return "\\&" + line
    return line


def literal_block(lines):
    out = [".Bd -literal -offset indent"]
    for line in lines:
        # An empty line in a display is still an mdoc warning: keep it visible but not empty.
        out.append(text_line(line) if line.strip() else "\\&")
    out.append(".Ed")
    return out


def render_body(lines, nested=False):
    """Paragraphs at column 0, indented blocks as displays or tag lists; at the
    top level, an indented block of captions and deeper examples is rendered as
    captions and displays."""
    out = []
    i = 0
    pending_break = False
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            pending_break = bool(out)
            i += 1
            continue
        if pending_break:
            out.append(".Pp")
            pending_break = False
        if line.startswith(" "):
            block = []
            while i < len(lines) and (lines[i].startswith(" ") or not lines[i].strip()):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
                pending_break = True
            indent = min(len(l) - len(l.lstrip(" ")) for l in block if l.strip())
            block = [l[indent:] for l in block]
            if all(EXIT_LINE.match(l) for l in block):
                out.append(".Bl -tag -width Ds -compact")
                for l in block:
                    number, meaning = EXIT_LINE.match(l).groups()
                    out.append(".It " + number)
                    out.append(text_line(meaning))
                out.append(".El")
            elif not nested and any(l.startswith(" ") for l in block):
                # Captions at the block's indentation, examples deeper.
                out.extend(render_body(block, nested=True))
            else:
                out.extend(literal_block(block))
            continue
        out.append(text_line(line))
        i += 1
    return out


STANDARD_SECTIONS = ("EXIT STATUS", "EXAMPLES")


def split_sections(discussion):
    """(intro lines, [(title, lines)]) from the discussion's text lines. A
    standard section's parenthesized note ("EXIT STATUS (the same as jq 1.6)")
    becomes its first sentence; other titles are kept whole."""
    intro, sections = [], []
    current = intro
    for line in discussion:
        if HEADING.match(line) and not line.startswith(" "):
            title = line.strip()
            current = []
            bare = re.sub(r"\s*\(.*\)$", "", title)
            note = re.search(r"\((.*)\)$", title)
            if bare in STANDARD_SECTIONS:
                title = bare
                if note:
                    current.extend([note.group(1)[0].upper() + note.group(1)[1:] + ".", ""])
            sections.append((title, current))
        else:
            current.append(line)
    return intro, sections


def main(path):
    source = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    sections = []
    while i < len(source):
        line = source[i]
        # SYNOPSIS: the implicit help subcommand.
        if line == ".Ar subcommand":
            i += 1
            continue
        # Two-value options: Ar "name> <value..." -> Ar name Ar value
        line = re.sub(r'Ar "([^"<>]+)> <([^"<>.]+)(?:\.\.\.)?"', r"Ar \1 Ar \2", line)
        if line == ".Sh DESCRIPTION":
            out.append(line)
            i += 1
            discussion = []
            while not source[i].startswith(".Bl "):
                discussion.append(source[i])
                i += 1
            # generate-manual escapes a leading blank of the first line only; undo that.
            discussion = [l[2:] if l.startswith("\\& ") else l for l in discussion]
            intro, sections = split_sections(discussion)
            while intro and not intro[-1].strip():
                intro.pop()
            out.extend(render_body(intro))
            out.append(".Pp")
            out.append("The options are:")
            continue
        # The help subcommand's item closes the option list: drop it and its nested list.
        if line == ".It Em help":
            depth = 0
            i += 1
            while True:
                if source[i].startswith(".Bl "):
                    depth += 1
                elif source[i] == ".El":
                    if depth == 0:
                        break
                    depth -= 1
                i += 1
            continue
        # --flag / --no-flag with the same text: one item.
        m = re.match(r"^\.It Fl -(\S+)$", line)
        if m and i + 3 < len(source) and source[i + 2] == ".It Fl -no-" + m.group(1) and source[i + 1] == source[i + 3]:
            out.append(".It Fl -" + m.group(1) + " , Fl -no-" + m.group(1))
            out.append(source[i + 1])
            i += 4
            continue
        if line == '.Sh "EXIT STATUS"':
            exit_lines = None
            for title, lines in sections:
                if title == "EXIT STATUS":
                    exit_lines = lines
            for title, lines in sections:
                if title in STANDARD_SECTIONS:
                    continue
                out.append('.Sh "%s"' % title if " " in title else ".Sh " + title)
                out.extend(render_body(lines))
            out.append(line)
            if exit_lines is not None:
                out.extend(render_body(exit_lines))
                if source[i + 1] == ".Ex -std":
                    i += 1
            for title, lines in sections:
                if title == "EXAMPLES":
                    out.append(".Sh EXAMPLES")
                    out.extend(render_body(lines))
            i += 1
            continue
        out.append(line)
        i += 1
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
