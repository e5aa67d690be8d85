#!/usr/bin/env python3
"""Leak check: no API key in anything the app wrote or showed.

Usage: leak_check.py [--secret-file F]... [--secret S]... PATH...

Scans every file under each PATH (settings files, logs, captured IPC replies, DOM dumps, screenshots'
sidecar text, SQLite files) for:
  * each literal secret given (the keys the tests typed or minted), and
  * anything shaped like a service key: `ch_live_` followed by 16 or more key characters. The sandbox
    stores only hashes and the 12-character display prefix (`ch_live_` + 4), which this shape does not
    match.
Binary files are scanned as bytes, so a key inside a SQLite page or a compressed-free log is found too.
Prints one line per finding (file and offset, never the secret itself) and exits 1 on any finding, 2 when
a PATH is missing or nothing was scanned (a check that scanned nothing cannot pass).
"""
import argparse
import os
import re
import sys

KEY_SHAPE = re.compile(rb"ch_live_[A-Za-z0-9]{16,}")


def files_under(path):
    if os.path.isfile(path):
        yield path
        return
    for root, _dirs, names in os.walk(path):
        for name in names:
            yield os.path.join(root, name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--secret", action="append", default=[])
    ap.add_argument("--secret-file", action="append", default=[])
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    secrets = [s.encode() for s in a.secret if s]
    for f in a.secret_file:
        with open(f, "rb") as fh:
            secrets += [line.strip() for line in fh.read().splitlines() if line.strip()]
    scanned, findings = 0, 0
    for p in a.paths:
        if not os.path.exists(p):
            print(f"leak check: {p} does not exist", file=sys.stderr)
            return 2
        for f in files_under(p):
            try:
                with open(f, "rb") as fh:
                    data = fh.read()
            except OSError as e:
                print(f"leak check: cannot read {f}: {e}", file=sys.stderr)
                return 2
            scanned += 1
            for i, s in enumerate(secrets):
                at = data.find(s)
                if at >= 0:
                    findings += 1
                    print(f"LEAK: secret #{i + 1} found in {f} at byte {at}")
            for m in KEY_SHAPE.finditer(data):
                findings += 1
                print(f"LEAK: a key-shaped string ({m.group()[:12].decode()}…) in {f} at byte {m.start()}")
    if scanned == 0:
        print("leak check: nothing to scan", file=sys.stderr)
        return 2
    print(f"leak check: {scanned} files, {len(secrets)} known secrets + the key shape: "
          f"{'no leak' if findings == 0 else f'{findings} finding(s)'}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
