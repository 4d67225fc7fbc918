"""Helpers shared by the user-style scripts: each script reads one artifact folder the way an
AIPerf 0.11 user's script does (stdlib only) and exits non-zero naming what it did not find."""
import csv
import json
import os
import sys


def folder():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {os.path.basename(sys.argv[0])} ARTIFACT_DIR")
    return sys.argv[1]


def check(condition, what):
    if not condition:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {what}")


def summary(d):
    with open(os.path.join(d, "profile_export_aiperf.json")) as f:
        return json.load(f)


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class Findings:
    """Collects every mismatch instead of stopping at the first, so one run names them all; the
    exit message has one `script: what` line per mismatch."""

    def __init__(self):
        self.items = []

    def check(self, condition, what):
        if not condition and what not in self.items:
            self.items.append(what)
        return condition

    def done(self):
        if self.items:
            name = os.path.basename(sys.argv[0])
            sys.exit("\n".join(f"{name}: {what}" for what in self.items))
