"""The app's sessions through the emulated link, beside their simulation, as one table: `bench
agree --emulated` for each session (README.md here, "Sessions").

    python3 sessions.py --bench BENCH_HTTP [--session NETWORK:HTTP]... [--profile low-end]
                        [--trace browser] [--window 20] [--seed 1] [--duration 30s] [--check]

For each session, `bench agree --emulated` of that network and HTTP version (lru, memory 1x):
`bench serve --pace none` and the live run through the link, and the same configuration
simulated. The table: each of bench agree's banded figures as live/simulated, marked OUTSIDE out
of its band (requests and bytes 2 %, stalls 15 %, stall p95 25 %), the image downloads' median
and p90 as live over simulated (band 0.8-1.25), and how late ns-3 ran at the p99. With
--check, exit 1 when a figure is outside its band; without, the table only (exit 0). Exit 2 when
a session cannot be run. BENCH_HTTP is bench with its HTTP part (`swift build --product
bench-http`), run from the repository's folder. Python 3.11, standard library only.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BANDED = ["api_requests", "image_requests", "bytes_downloaded", "stalls", "stall_ms_p95"]
QUANTILES = ["download median", "download p90"]
DEFAULT_SESSIONS = ["wifi:2", "lte:2", "lte:1.1", "3g:2", "verizon-lte:2", "tmobile-lte:2"]
DOWNLOAD = re.compile(r"^(download (?:median|p90)): (?:live \d+ ms, simulated \d+ ms, ratio ([0-9.]+).*?|.*?)\s*(ok|OUTSIDE)?$")


def fail(message: str) -> None:
    print(f"sessions: {message}", file=sys.stderr)
    sys.exit(2)


def figures(agree_csv: str, stdout: str) -> dict[str, tuple[str, bool]]:
    """What one `bench agree --emulated` said: each banded figure as ("live/simulated", within),
    each download quantile as ("ratio", within) ("-" when neither side downloaded, "one side"
    when only one did), and the
    link's p99 lateness as ("N ms", True)."""
    result: dict[str, tuple[str, bool]] = {}
    for row in csv.DictReader(io.StringIO(agree_csv)):
        if row["metric"] in BANDED:
            result[row["metric"]] = (f"{row['live']}/{row['simulated']}", row["within"] == "yes")
    for line in stdout.splitlines():
        match = DOWNLOAD.match(line)
        if match:
            name, ratio, verdict = match.groups()
            result[name] = (ratio or ("-" if verdict is None else "one side"), verdict != "OUTSIDE")
        if line.startswith("link: ") and "p99 " in line:
            result["late p99"] = (line.split("p99 ")[1].split(" ")[0] + " ms", True)
    missing = [name for name in BANDED + QUANTILES if name not in result]
    if missing:
        raise ValueError("bench agree --emulated said nothing of " + ", ".join(missing))
    return result


def table(results: list[tuple[str, dict[str, tuple[str, bool]]]]) -> str:
    columns = BANDED + QUANTILES + ["late p99"]
    rows = [["session"] + columns]
    for session, said in results:
        rows.append([session] + [said.get(c, ("-", True))[0] + ("" if said.get(c, ("", True))[1] else " OUTSIDE") for c in columns])
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns) + 1)]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--session", action="append", help="NETWORK:HTTP (default: " + ", ".join(DEFAULT_SESSIONS) + ")")
    parser.add_argument("--profile", default="low-end")
    parser.add_argument("--trace", default="browser")
    parser.add_argument("--window", default="20")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--duration", default="30s")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is outside its band")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="emulated-sessions-") as folder:
        for text in args.session or DEFAULT_SESSIONS:
            network, _, http = text.partition(":")
            if not network or http not in ("1.1", "2"):
                fail(f"--session {text}: expected NETWORK:1.1 or NETWORK:2")
            out = os.path.join(folder, "agree.csv")
            agree = subprocess.run([args.bench, "agree", "--emulated", "--profile", args.profile, "--network", network, "--http", http,
                                    "--policy", "lru", "--memory-limit", "1x", "--window", args.window, "--trace", args.trace,
                                    "--seed", args.seed, "--duration", args.duration, "--out", out],
                                   capture_output=True, text=True, cwd=ROOT)
            if agree.returncode not in (0, 1):
                fail(f"{network} over HTTP/{http}: " + (agree.stderr.strip().splitlines() or ["no message"])[-1])
            try:
                results.append((f"{network} h{http}", figures(Path(out).read_text(encoding="utf-8"), agree.stdout)))
            except ValueError as error:
                fail(f"{network} over HTTP/{http}: {error}")
            print(f"sessions: {network} over HTTP/{http} done", file=sys.stderr)
    print(table(results))
    outside = sum(1 for _, said in results for _, within in said.values() if not within)
    print(f"{len(results)} sessions, {outside} figures outside their bands")
    return 1 if args.check and outside else 0


if __name__ == "__main__":
    sys.exit(main())
