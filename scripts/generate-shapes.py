#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a deterministic dataset of one real-world JSON shape, for the
"shapes" section of scripts/compare. Same arguments, same bytes, on any
machine (stdlib only; the random shapes use xorshift64*, never `random`).

    scripts/generate-shapes.py --shape twitter --size 200MB --out twitter.json
    scripts/generate-shapes.py --shape github --size 5MB --out - | head -1

Shapes:
  twitter  Tests/Fixtures/nativejson/twitter.json's statuses, repeated (each
           round's ids shifted) into one root-level array.
  citm     citm_catalog.json's `events` (ids -> event objects), repeated with
           fresh distinct keys into {"events": {...}}.
  canada   canada.json's polygon rings ([[lon, lat], ...], numbers as the
           file spells them: 15 to 17 significant digits), repeated into a
           root-level array of rings.
  github   JSON Lines of GitHub-like events (the GH Archive layout): push
           payloads with commits, issues and pull requests with long bodies,
           escapes and non-ASCII, null and missing optionals, URLs, ISO-8601
           dates with milliseconds, ids over the whole UInt64 range (some
           written as strings, as the API does).
  logs     JSON Lines of structured log events: levels, UInt64 request and
           trace ids, ISO-8601 dates, messages, optional user ids, HTTP
           statuses, durations and decimal amounts, a signed-or-unsigned
           fingerprint.

The models that read them are in Sources/StreamingJSONBench (TwitterModel,
CitmModel, GitHubEventModel, LogModel). The fixtures' licence is
Tests/Fixtures/nativejson/LICENSE.
"""
import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
sys.dont_write_bytecode = True
from xorshift import Random  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "nativejson")
COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def load_fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


# MARK: - Shapes from the nativejson fixtures

def twitter_elements():
    """Each status compact, round after round; every round shifts the ids so
    that no two statuses are the same bytes."""
    statuses = load_fixture("twitter.json")["statuses"]
    round_index = 0
    while True:
        shift = round_index * 10**15  # the ids stay below 2^63
        for status in statuses:
            copy = dict(status)
            copy["id"] = status["id"] + shift
            copy["id_str"] = str(int(status["id_str"]) + shift)
            yield COMPACT.encode(copy).encode("utf-8")
        round_index += 1


def citm_elements():
    """`"key":{event}` members, each round's keys and ids fresh (the
    fixture's ids are below 10^9)."""
    events = load_fixture("citm_catalog.json")["events"]
    round_index = 0
    while True:
        for event in events.values():
            copy = dict(event)
            copy["id"] = event["id"] + round_index * 10**9
            yield ("%s:%s" % (COMPACT.encode(str(copy["id"])), COMPACT.encode(copy))).encode("utf-8")
        round_index += 1


def canada_rings():
    """The rings of canada.json's polygon, each as the file spells it: its
    numbers are not re-printed (Python would shorten them)."""
    with open(os.path.join(FIXTURES, "canada.json"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("[", text.index('"coordinates":'))
    rings, depth, ring_start = [], 0, None
    for index in range(start, len(text)):
        char = text[index]
        if char == "[":
            depth += 1
            if depth == 2:
                ring_start = index
        elif char == "]":
            depth -= 1
            if depth == 1:
                rings.append(re.sub(r"\s+", "", text[ring_start:index + 1]).encode("ascii"))
            elif depth == 0:
                break
    while True:
        yield from rings


# MARK: - GitHub events

WORDS = ["parser", "stream", "decoder", "buffer", "fix", "crash", "Linux", "macOS", "memory", "test", "docs",
         "release", "build", "cache", "error", "README", "UTF-8", "tokenizer", "thread", "config"]
NAMES = ["octocat", "zoë-dev", "mmalone", "jlopez", "chen-wei", "ana_souza", "k8s-bot", "dependabot", "nørgaard",
         "tanaka", "ilya", "rustacean42", "pdx-coder", "maría", "ops-team"]
REPOS = ["json-tools", "swift-nio", "kernel", "dotfiles", "website", "api-server", "ml-pipeline", "terraform-aws",
         "blog", "linter"]
SENTENCES = [
    "Steps to reproduce: run `make test` on a clean checkout.",
    "The decoder crashes with \"unexpected end of input\" on large files.",
    "Expected:\n```\n{\"ok\": true}\n```\nActual: a segfault.",
    "Tested on Ubuntu 24.04 and macOS 15 — both fail.",
    "Paths like C:\\Users\\dev\\project break the loader.",
    "Merci pour le correctif ! Ça marche très bien maintenant.",
    "日本語のテキストが文字化けします。",
    "Emoji in titles 🚀🔥 are cut in the middle.",
    "Tabs\tand\r\nCRLF line ends are kept verbatim.",
    "See https://example.com/issues?id=42&sort=desc#comment for details.",
    "Control characters \u0001 and \u001f must be escaped.",
    "<script>alert('xss')</script> is rendered as text.",
    "Performance regressed after the last release; bisected to a3f9c1e.",
    "Größe der Datei: 3,5 GB; Speicher: 512 MB.",
]
EVENT_TYPES = ["PushEvent"] * 9 + ["CreateEvent"] * 2 + ["WatchEvent"] * 2 + ["IssuesEvent"] * 2 \
    + ["IssueCommentEvent"] * 2 + ["PullRequestEvent"] * 2 + ["ForkEvent"]
START_2015 = 1420070400  # 2015-01-01T00:00:00Z


def iso_date(seconds, millis=None):
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return text + ("Z" if millis is None else ".%03dZ" % millis)


def sha(rng):
    return "%016x%016x%08x" % (rng.next(), rng.next(), rng.below(1 << 32))


def text(rng, sentences):
    return " ".join(rng.choice(SENTENCES) for _ in range(sentences))


class GitHub:
    """One event after another, the clock moving forward."""

    def __init__(self, rng):
        self.rng = rng
        self.clock = START_2015

    def date(self, back=0):
        return iso_date(self.clock - back, self.rng.below(1000))

    def user(self):
        rng = self.rng
        login = "%s%d" % (rng.choice(NAMES), rng.below(1000))
        uid = 1 + rng.below(40_000_000)
        user = {"login": login, "id": uid, "avatar_url": "https://avatars.githubusercontent.com/u/%d?v=3" % uid,
                "gravatar_id": "", "url": "https://api.github.com/users/%s" % login,
                "html_url": "https://github.com/%s" % login, "type": "Bot" if rng.chance(5) else "User",
                "site_admin": rng.chance(1)}
        if rng.chance(30):
            user["name"] = None if rng.chance(50) else rng.choice(NAMES).title()
        return user

    def repo_name(self):
        return "%s%d/%s" % (self.rng.choice(NAMES), self.rng.below(1000), self.rng.choice(REPOS))

    def issue(self, name, number):
        rng = self.rng
        closed = rng.chance(30)
        issue = {"url": "https://api.github.com/repos/%s/issues/%d" % (name, number),
                 "html_url": "https://github.com/%s/issues/%d" % (name, number),
                 "id": rng.below(1 << 40), "number": number,
                 "title": text(rng, 1)[:80], "user": self.user(),
                 "labels": [{"name": rng.choice(["bug", "enhancement", "good first issue", "wontfix", "área: docs"]),
                             "color": "%06x" % rng.below(1 << 24), "default": rng.chance(50)}
                            for _ in range(rng.below(3))],
                 "state": "closed" if closed else "open", "locked": rng.chance(2),
                 "assignee": self.user() if rng.chance(20) else None, "comments": rng.below(40),
                 "created_at": self.date(86400 * (1 + rng.below(300))), "updated_at": self.date(rng.below(3600)),
                 "closed_at": self.date() if closed else None,
                 "body": text(rng, 3 + rng.below(25)) if rng.chance(85) else None}
        return issue

    def pull_request(self, name, number):
        rng = self.rng
        pr = self.issue(name, number)
        pr["url"] = "https://api.github.com/repos/%s/pulls/%d" % (name, number)
        pr["html_url"] = "https://github.com/%s/pull/%d" % (name, number)
        merged = pr["state"] == "closed" and rng.chance(70)
        if merged or rng.chance(50):
            pr["merged_at"] = pr["closed_at"] if merged else None
        pr["merge_commit_sha"] = sha(rng) if merged else None
        owner = name.split("/")[0]
        pr["head"] = {"label": "%s:feature-%d" % (owner, rng.below(100)), "ref": "feature", "sha": sha(rng)}
        pr["base"] = {"label": "%s:main" % owner, "ref": "main", "sha": sha(rng)}
        if rng.chance(60):
            pr["draft"] = rng.chance(20)
        pr.update({"merged": merged, "commits": 1 + rng.below(20), "additions": rng.below(5000),
                   "deletions": rng.below(3000), "changed_files": 1 + rng.below(60)})
        return pr

    def payload(self, kind, name):
        rng = self.rng
        if kind == "PushEvent":
            commits = [{"sha": sha(rng), "author": {"email": "%s@users.noreply.github.com" % rng.choice(NAMES),
                                                    "name": rng.choice(NAMES).title()},
                        "message": text(rng, 1 + rng.below(3)), "distinct": rng.chance(90),
                        "url": "https://api.github.com/repos/%s/commits/%s" % (name, sha(rng))}
                       for _ in range(1 + rng.below(4))]
            return {"push_id": rng.below(1 << 36), "size": len(commits), "distinct_size": len(commits),
                    "ref": "refs/heads/" + rng.choice(["main", "master", "develop", "fix/ünïcode"]),
                    "head": commits[-1]["sha"], "before": sha(rng), "commits": commits}
        if kind == "CreateEvent":
            ref_type = rng.choice(["branch", "tag", "repository"])
            version = None if ref_type == "repository" else "v%d.%d.%d" % (rng.below(5), rng.below(20), rng.below(10))
            return {"ref": version,
                    "ref_type": ref_type, "master_branch": "main",
                    "description": text(rng, 1) if rng.chance(60) else None, "pusher_type": "user"}
        if kind == "WatchEvent":
            return {"action": "started"}
        if kind == "ForkEvent":
            fork = self.repo_name()
            return {"forkee": {"id": rng.below(1 << 32), "name": fork.split("/")[1], "full_name": fork,
                               "owner": self.user(), "private": False, "html_url": "https://github.com/" + fork,
                               "description": text(rng, 1) if rng.chance(50) else None, "fork": True,
                               "created_at": self.date(), "stargazers_count": rng.below(100),
                               "language": rng.choice([None, "Swift", "Rust", "Go", "C", "Python"])}}
        number = 1 + rng.below(5000)
        if kind == "IssuesEvent":
            return {"action": rng.choice(["opened", "closed", "reopened"]), "issue": self.issue(name, number)}
        if kind == "IssueCommentEvent":
            comment_id = rng.below(1 << 30)
            comment = {"url": "https://api.github.com/repos/%s/issues/comments/%d" % (name, comment_id),
                       "html_url": "https://github.com/%s/issues/%d#issuecomment-%d" % (name, number, comment_id),
                       "id": rng.below(1 << 40), "user": self.user(), "created_at": self.date(),
                       "updated_at": self.date(), "body": text(rng, 1 + rng.below(8))}
            return {"action": "created", "issue": self.issue(name, number), "comment": comment}
        return {"action": rng.choice(["opened", "closed", "synchronize"]), "number": number,
                "pull_request": self.pull_request(name, number)}

    def event(self):
        rng = self.rng
        self.clock += rng.below(3)
        kind = rng.choice(EVENT_TYPES)
        name = self.repo_name()
        event_id = rng.next()  # the whole UInt64 range
        actor = self.user()
        event = {"id": str(event_id) if rng.chance(30) else event_id, "type": kind,
                 "actor": {key: actor[key] for key in ("id", "login", "gravatar_id", "url", "avatar_url")},
                 "repo": {"id": rng.below(1 << 32), "name": name, "url": "https://api.github.com/repos/" + name},
                 "payload": self.payload(kind, name), "public": True, "created_at": self.date()}
        if rng.chance(30):
            org = rng.choice(NAMES)
            event["org"] = {"id": rng.below(1 << 24), "login": org, "gravatar_id": "",
                            "url": "https://api.github.com/orgs/" + org,
                            "avatar_url": "https://avatars.githubusercontent.com/u/%d?" % rng.below(1 << 24)}
        # Some producers escape every non-ASCII character (\u00e9, surrogate pairs).
        encoder = ASCII if rng.chance(10) else COMPACT
        return encoder.encode(event).encode("utf-8")


def github_lines(rng):
    github = GitHub(rng)
    while True:
        yield github.event()


# MARK: - Log events

SERVICES = ["checkout", "auth", "search", "inventory", "gateway", "billing", "notifications"]
LEVELS = ["debug"] * 3 + ["info"] * 12 + ["warn"] * 2 + ["error"]  # and "fatal" one time in a hundred
PATHS = ["/api/v1/orders", "/api/v1/users/me", "/api/v2/search?q=caf%C3%A9", "/healthz", "/api/v1/cart/items",
         "/login", "/api/v1/payments"]
MESSAGES = ["request completed", "cache miss for key \"user:%d\"", "slow query: SELECT * FROM orders WHERE id = %d",
            "payment declined (código %d)", "retrying upstream call, attempt %d", "user logged in from Zürich #%d",
            "path C:\\temp\\upload-%d.tmp not found", "connection reset by peer\n\tat socket.read (%d)",
            "queue depth %d exceeds threshold", "配送ステータス更新 %d"]


def log_line(rng, clock):
    level = rng.choice(LEVELS) if not rng.chance(1) else "fatal"
    event = {"ts": iso_date(clock), "level": level, "service": rng.choice(SERVICES),
             "host": "web-%02d" % rng.below(40), "request_id": rng.next(), "trace_id": rng.next(),
             "message": rng.choice(MESSAGES).replace("%d", str(rng.below(100000)))}
    if rng.chance(60):
        event["user_id"] = rng.below(1 << 33)
    elif rng.chance(50):
        event["user_id"] = None
    if rng.chance(55):
        event["http"] = {"method": rng.choice(["GET", "GET", "POST", "PUT", "DELETE"]), "path": rng.choice(PATHS),
                         "status": rng.choice([200, 200, 200, 201, 204, 301, 400, 401, 404, 500, 503])}
        event["duration_ms"] = rng.below(2_000_000) / 1000
    if rng.chance(10):
        # Cents: Python prints the shortest digits, exactly those of the decimal.
        event["amount"] = rng.below(10_000_000) / 100
    # A fingerprint that some producers write signed and others unsigned.
    roll = rng.below(100)
    if roll < 50:
        fingerprint = -1 - rng.below(1 << 63)
    elif roll < 80:
        fingerprint = rng.below(1 << 63)
    else:
        fingerprint = (1 << 63) + rng.below(1 << 63)
    event["fingerprint"] = fingerprint
    if rng.chance(20):
        event["tags"] = [rng.choice(["beta", "eu-west-1", "canary", "mobile", "web"]) for _ in range(1 + rng.below(3))]
    return COMPACT.encode(event).encode("utf-8")


def log_lines(rng):
    clock = 1772323200  # 2026-03-01T00:00:00Z
    while True:
        clock += rng.below(2)
        yield log_line(rng, clock)


# MARK: - Writing

def parse_size(text_size):
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?", text_size.strip(), re.I)
    if not match:
        raise SystemExit("bad size: " + text_size)
    units = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}
    return int(float(match.group(1)) * units[(match.group(2) or "b").lower()])


# shape: (element generator from an Random, opening, separator, closing)
SHAPES = {
    "twitter": (lambda rng: twitter_elements(), b"[\n", b",\n", b"\n]\n"),
    "citm": (lambda rng: citm_elements(), b'{"events":{\n', b",\n", b"\n}}\n"),
    "canada": (lambda rng: canada_rings(), b"[\n", b",\n", b"\n]\n"),
    "github": (github_lines, b"", b"\n", b"\n"),
    "logs": (log_lines, b"", b"\n", b"\n"),
}


def write(shape, target, seed, out):
    """Writes elements until `target` bytes; returns (elements, bytes)."""
    make, opening, separator, closing = SHAPES[shape]
    elements = make(Random(seed))
    out.write(opening)
    written, count, batch = len(opening), 0, []
    while written < target:
        element = next(elements)
        if count > 0:
            element = separator + element
        batch.append(element)
        written += len(element)
        count += 1
        if len(batch) >= 4096:
            out.write(b"".join(batch))
            batch.clear()
    out.write(b"".join(batch))
    out.write(closing)
    return count, written + len(closing)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", required=True, choices=sorted(SHAPES))
    parser.add_argument("--size", default="10MB", help="approximate output size (e.g. 200MB, 1GiB)")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()

    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    try:
        count, written = write(args.shape, parse_size(args.size), args.seed, out)
        out.flush()
    except BrokenPipeError:  # `| head`
        return
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    print("%s: %d elements, %d bytes" % (args.shape, count, written), file=sys.stderr)


if __name__ == "__main__":
    main()
