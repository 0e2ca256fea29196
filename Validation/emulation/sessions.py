"""The app's sessions through the emulated link, beside their simulation: the model held to the
kernel's TCP (README.md here, "Sessions").

    python3 sessions.py --bench BENCH_HTTP [--session NETWORK:HTTP]... [--profile low-end]
                        [--trace browser] [--window 20] [--seed 1] [--duration 30s] [--keep DIR] [--check]

For each session: the network's file as `bench profiles --network NETWORK` prints it, with its
`http` set; `bench serve --tls --pace none` in the server's namespace and `bench run --live` in
the client's, through emulated-link; then `bench run` of the same configuration, simulated.
Prints one table: each of bench agree's banded figures as live / simulated (requests and bytes
within 2 %, stalls within 15 %, stall p95 within 25 %), the image downloads' median and p90
duration as live over simulated (within [0.8, 1.25]), and how late ns-3 ran. With --check, exit
1 when a figure is outside its band; without, the table only (exit 0). Exit 2 when a session
cannot be run. BENCH_HTTP is bench with its HTTP part (`swift build --product bench-http`).
Python 3.11, standard library only.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "emulated-link"
PORT = 8443
SERVER = f"https://10.77.2.1:{PORT}"

# bench agree's bands (Agreement.bands), relative to the simulated figure.
BANDS = [("api_requests", 0.02), ("image_requests", 0.02), ("bytes_downloaded", 0.02),
         ("stalls", 0.15), ("stall_ms_p95", 0.25)]
# The downloads' distributions: live over simulated.
DISTRIBUTION_BAND = (0.8, 1.25)
DEFAULT_SESSIONS = ["wifi:2", "lte:2", "lte:1.1", "3g:2", "verizon-lte:2", "tmobile-lte:2"]


def fail(message: str) -> None:
    print(f"sessions: {message}", file=sys.stderr)
    sys.exit(2)


def network_file(bench: str, name: str, http: str, folder: Path) -> Path:
    printed = subprocess.run([bench, "profiles", "--network", name], capture_output=True, text=True)
    if printed.returncode != 0:
        fail(f"{name}: {printed.stderr.strip()}")
    network = json.loads(printed.stdout)
    network["http"] = http
    path = folder / f"{name}-h{http}.json"
    path.write_text(json.dumps(network, indent=1, sort_keys=True), encoding="utf-8")
    return path


def configuration(args: argparse.Namespace, network: Path) -> list[str]:
    return ["--profile", args.profile, "--network", str(network), "--policy", "lru", "--memory-limit", "1x",
            "--window", str(args.window), "--trace", args.trace, "--seed", str(args.seed), "--duration", args.duration]


def image_durations(log: Path) -> list[float]:
    with log.open(encoding="utf-8") as file:
        return [float(row["duration_ms"]) for row in csv.DictReader(file)
                if row["path"].startswith("/images/") and row["status"] == "200"]


def first_row(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as file:
        return next(csv.DictReader(file))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_session(args: argparse.Namespace, name: str, http: str, folder: Path) -> dict[str, object]:
    network = network_file(args.bench, name, http, folder)
    stem = folder / f"{name}-h{http}"
    certificate = folder / f"{stem.name}.cert.pem"
    live, live_log = Path(f"{stem}.live.csv"), Path(f"{stem}.live.requests.csv")
    server = (f"exec {args.bench} serve --tls --tls-cert-out {certificate} --pace none --host 10.77.2.1 --port {PORT} "
              f"--network {network} --seed {args.seed} --log {stem}.server.csv")
    wait = f"for i in $(seq 200); do [ -s {certificate} ] && break; sleep 0.05; done"
    client = (f"{wait}; exec {args.bench} run --live {SERVER} --live-ca {certificate} "
              + " ".join(configuration(args, network)) + f" --out {live} --requests {live_log}")
    emulated = subprocess.run([str(HARNESS), "--network", str(network), "--seed", str(args.seed), "--server", server,
                               "--client", client], capture_output=True, text=True)
    if emulated.returncode != 0:
        fail(f"{name} over HTTP/{http}: the live session failed ({emulated.returncode}): "
             + (emulated.stderr.strip().splitlines() or ["no message"])[-1])
    link = next((line for line in emulated.stderr.splitlines() if line.startswith("info: ") and "late ms:" in line), "")
    simulated, simulated_log = Path(f"{stem}.sim.csv"), Path(f"{stem}.sim.requests.csv")
    run = subprocess.run([args.bench, "run", *configuration(args, network), "--out", str(simulated),
                          "--requests", str(simulated_log)], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{name} over HTTP/{http}: the simulation failed: {run.stderr.strip()}")
    figures = compare(first_row(live), first_row(simulated), image_durations(live_log), image_durations(simulated_log))
    return {"session": f"{name} h{http}", "link": link, **figures}


def compare(live: dict[str, str], simulated: dict[str, str], live_times: list[float],
            simulated_times: list[float]) -> dict[str, tuple[float | None, float | None, bool]]:
    """Each banded figure as (live, simulated, within its band), and each download quantile as
    (live over simulated, None, within [0.8, 1.25]); a quantile neither run has a download for
    is (None, None, True), one only one of them has is outside."""
    figures: dict[str, tuple[float | None, float | None, bool]] = {}
    for metric, band in BANDS:
        value, base = float(live[metric]), float(simulated[metric])
        figures[metric] = (value, base, abs(value - base) <= band * base)
    for label, q in (("download median", 0.5), ("download p90", 0.9)):
        if live_times and simulated_times:
            ratio = quantile(live_times, q) / quantile(simulated_times, q)
            figures[label] = (ratio, None, DISTRIBUTION_BAND[0] <= ratio <= DISTRIBUTION_BAND[1])
        else:
            figures[label] = (None, None, not live_times and not simulated_times)
    return figures


def number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def table(results: list[dict[str, object]]) -> str:
    columns = [metric for metric, _ in BANDS] + ["download median", "download p90"]
    rows = [["session"] + columns + ["ns-3 late p99"]]
    for result in results:
        cells = [str(result["session"])]
        for column in columns:
            value, base, within = result[column]  # type: ignore[misc]
            mark = "" if within else " OUTSIDE"
            if value is None:
                cells.append("-")
            elif base is None:
                cells.append(f"{value:.3f}{mark}")
            else:
                cells.append(f"{number(value)}/{number(base)}{mark}")
        link = str(result["link"])
        cells.append(link.split("p99 ")[1].split(" ")[0] + " ms" if "p99 " in link else "-")
        rows.append(cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines + [str(result["link"]) for result in results])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--session", action="append", help="NETWORK:HTTP (default: " + ", ".join(DEFAULT_SESSIONS) + ")")
    parser.add_argument("--profile", default="low-end")
    parser.add_argument("--trace", default="browser")
    parser.add_argument("--window", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duration", default="30s")
    parser.add_argument("--keep", type=Path, help="keep every file of every session in this folder")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is outside its band")
    args = parser.parse_args()
    sessions = []
    for text in args.session or DEFAULT_SESSIONS:
        name, _, http = text.partition(":")
        if not name or http not in ("1.1", "2"):
            fail(f"--session {text}: expected NETWORK:1.1 or NETWORK:2")
        sessions.append((name, http))
    folder = args.keep or Path(tempfile.mkdtemp(prefix="emulated-sessions-"))
    folder.mkdir(parents=True, exist_ok=True)
    results = []
    try:
        for name, http in sessions:
            results.append(run_session(args, name, http, folder))
            print(f"sessions: {name} over HTTP/{http} done", file=sys.stderr)
    finally:
        if args.keep is None:
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()
    print(table(results))
    outside = sum(1 for result in results for value in result.values()
                  if isinstance(value, tuple) and not value[2])
    print(f"{len(results)} sessions, {outside} figures outside their bands")
    return 1 if args.check and outside else 0


if __name__ == "__main__":
    sys.exit(main())
