#!/usr/bin/env python3
"""Compare FeedBench's request durations with ns-3's: the outside check of the network model.

    compare.py --log LOG.csv --network NET.json [--log ... --network ...] [--check] [--check-dist]

Each (log, network) pair is replayed by `replay` (replay.cc, built by .ci/ns3-check) over an
ns-3 network built from NET.json; every request's ns-3 duration is divided by the duration
FeedBench's model logged (the ratio). A request's duration runs from when it was sent: in ns-3 a
request whose connection still carries a slower response waits for it (HTTP/1.1, its logged
connection) and is timed from when it goes out, so one slow response is not counted again in
the requests queued behind it; the p90 timed from the log's time_ms is shown beside it.
One --network may serve several logs. A lossy network
(loss or uplinkLoss above 0) is replayed with ns-3 seeds 1..--seeds (20), unless --seed gives
each log its own seed (one log per seed, as `bench run --seed S` makes them).

Per network (sorted by name) the first table ("per request") shows:
  downloads: image rows with status 200; n, the median ratio, the p90 ratio (and the p90 of
             durations timed from time_ms, shown only), the p10 ratio (the downloads the
             model makes slower than ns-3 does; shown only), how many ns-3 sent late behind a
             slower response (queued), and how many finished in ns-3 more than 50 ms after
             the model said (late);
  api:       /v1/ rows with a complete response (any status but 499): n and the median ratio.
Cancelled rows (499) are replayed (they load the link and hold their connection) but have no
ratio. A request ns-3 did not finish within the horizon counts as an infinite ratio.
The median is the middle value (the mean of the two middle values for an even n); p90 is the
nearest-rank 90th percentile: the ceil(0.9 n)-th smallest ratio; p10 the ceil(0.1 n)-th.
A lossy network's median is the median over its runs (log x seed) of each run's downloads'
median ratio; its p90 pools every run's ratios (shown, not checked).

--moved K also replays each lossless log K more times with every request moved later by a
pseudo-random 0-0.1 ms (the order in which requests made at one instant reach the network),
and shows (not checked) two p90s: ns-3 moved / ns-3 as logged (`self-p90`, the reference's
own lottery), and the median of the K+1 ns-3 durations / the model's (`ens-p90`).

The second table ("as distributions") compares the downloads as two distributions: ns-3's
median duration over the model's (`dist-median`) and ns-3's p90 duration over the model's
(`dist-p90`), durations from the send.
Which download a congested link favours is a lottery that ns-3 does not repeat with its requests
moved by 0.1 ms (`self-p90`); how long downloads take, as a whole, it does (`self-dist`: each
moved replay's median and p90 duration over ns-3's as logged, the one farthest from 1).

--check exits 1 when a network is outside its bands, 0 when all are inside:
  lossless: downloads' median in [0.9, 1.1] and p90 in [0.8, 1.25]; API median in [0.85, 1.2]
            (a band with no rows is not checked; a network with no downloads fails);
  lossy:    the median of the runs' downloads' medians in [0.7, 1.3].
--check-dist exits 1 when dist-median is outside [0.9, 1.1] or dist-p90 outside [0.8, 1.25]
(a network with no downloads fails). Each takes the networks to check (comma-separated), or
none for all; the others are reported only.
Bad input (or a replay that fails) gets one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_REPLAY = ROOT / ".build-ns3" / "replay"

LOG_COLUMNS = ["time_ms", "method", "path", "status", "bytes", "object_bytes",
               "injected_delay_ms", "duration_ms", "connection", "new_connection", "protocol",
               "priority", "sent_ms"]
LATE_MS = 50.0
# A request ns-3 sent more than this after its time_ms waited behind a slower response.
QUEUED_MS = 1.0
# --moved: each request of a moved replay goes out up to this much later than logged.
MOVED_MS = 0.1

# The bands --check applies: (low, high), inclusive.
DOWNLOAD_MEDIAN = (0.9, 1.1)
DOWNLOAD_P90 = (0.8, 1.25)
API_MEDIAN = (0.85, 1.2)
LOSSY_MEDIAN_OF_MEDIANS = (0.7, 1.3)


class BadInput(Exception):
    """Input that cannot be compared: one line on stderr, exit 2."""


@dataclass
class Network:
    path: Path
    name: str
    lossy: bool


@dataclass
class Run:
    log: Path
    network: Network
    seed: int
    # 0: the log as written; k > 0: the k-th replay with its requests moved (--moved).
    moved: int = 0


@dataclass
class Result:
    downloads: list[float] = field(default_factory=list)
    # The downloads' ratios with ns-3's durations timed from the log's time_ms (shown only).
    downloads_from_log: list[float] = field(default_factory=list)
    api: list[float] = field(default_factory=list)
    # The downloads' durations from their send, ns-3's (inf: not complete) and the model's.
    ns3_durations: list[float] = field(default_factory=list)
    model_durations: list[float] = field(default_factory=list)
    # --moved: ns-3 moved / ns-3 as logged, and the median of every replay's duration / model.
    self_ratios: list[float] = field(default_factory=list)
    ensemble: list[float] = field(default_factory=list)
    # --moved: each moved replay's download durations (the k-th replay's at index k - 1).
    moved_durations: list[list[float]] = field(default_factory=list)
    queued: int = 0
    late: int = 0
    incomplete: int = 0
    # The downloads the model cancelled, and of them those ns-3 finished before the cancel:
    # their ratio taken at the cancel (ns-3 from its send over the model's time to the cancel;
    # the model's own time is longer, so each is an upper bound).
    cancelled: int = 0
    ns3_only: list[float] = field(default_factory=list)


def read_network(path: Path) -> Network:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInput(f"{path}: cannot read the file ({error.strerror})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(value, dict):
        raise BadInput(f"{path}: expected a JSON object")
    for key in ("bitsPerSecond", "oneWayDelayMs"):
        if key not in value:
            raise BadInput(f'{path}: missing "{key}"')
    losses = []
    for key in ("loss", "uplinkLoss"):
        loss = value.get(key, 0)
        if loss is None:
            loss = 0
        if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not 0 <= loss < 1:
            raise BadInput(f'{path}: "{key}" must be a probability in [0, 1)')
        losses.append(loss)
    name = value.get("name")
    if not isinstance(name, str) or not name:
        name = path.stem
    return Network(path=path, name=name, lossy=any(loss > 0 for loss in losses))


def check_log(path: Path) -> None:
    try:
        with path.open(encoding="utf-8", newline="") as file:
            header = file.readline().rstrip("\r\n").split(",")
    except OSError as error:
        raise BadInput(f"{path}: cannot read the file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None
    if header not in (LOG_COLUMNS, LOG_COLUMNS[:12], LOG_COLUMNS[:11], LOG_COLUMNS[:9]):
        raise BadInput(f"{path}:1: expected the header {','.join(LOG_COLUMNS)} "
                       "(or its first 12, 11 or 9 columns)")


def moved_log(log: Path, replica: int, into: Path) -> Path:
    """A copy of `log` whose every request goes out up to MOVED_MS later, the same for a given
    replica; rows and every other column as they were."""
    draw = random.Random(replica)
    with log.open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    for row in rows[1:]:
        shift = draw.uniform(0, MOVED_MS)
        row[0] = f"{float(row[0]) + shift:.3f}"
        if len(row) > 12 and row[12]:
            row[12] = f"{float(row[12]) + shift:.6f}"
    path = into / f"moved-{replica}.csv"
    with path.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file, lineterminator="\n").writerows(rows)
    return path


def replay(binary: Path, run: Run, horizon: float, keep: Path | None) -> tuple[str, list[str]]:
    """Runs replay for one run: its CSV output and its stderr lines."""
    with tempfile.TemporaryDirectory(prefix="ns3-replay-") as scratch:
        out = Path(scratch) / "out.csv"
        suffix = f"-moved{run.moved}" if run.moved else ""
        if keep is not None:
            out = keep / f"{run.network.name}-{run.log.stem}-seed{run.seed}{suffix}.csv"
        log = moved_log(run.log, run.moved, Path(scratch)) if run.moved else run.log
        command = [str(binary), "--log", str(log), "--network", str(run.network.path),
                   "--seed", str(run.seed), "--horizon-s", f"{horizon:g}", "--out", str(out)]
        try:
            process = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as error:
            raise BadInput(f"{binary}: cannot run the replay ({error.strerror}); "
                           "build it with .ci/ns3-check") from None
        lines = process.stderr.splitlines()
        if process.returncode != 0:
            errors = [line for line in lines if line.startswith("error:")]
            message = errors[0][len("error:"):].strip() if errors else (
                f"replay of {run.log} on {run.network.name} (seed {run.seed}) failed "
                f"with status {process.returncode}")
            raise BadInput(message)
        return out.read_text(encoding="utf-8"), lines


def held_ms(row: dict[str, str]) -> float:
    """How long ns-3 held a request back behind a slower response on its connection: its
    ns3_ms runs from time_ms, its sent_ms is when ns-3 could send it (empty: never sent)."""
    return float(row["sent_ms"]) - float(row["time_ms"]) if row["sent_ms"] else 0.0


def ratios(output: str, source: str) -> Result:
    result = Result()
    for row in csv.DictReader(output.splitlines()):
        status = int(row["status"])
        kind = row["kind"]
        if status == 499:
            if kind == "image":
                result.cancelled += 1
                if row["completed"] == "1" and float(row["model_ms"]) > 0:
                    result.ns3_only.append((float(row["ns3_ms"]) - held_ms(row)) / float(row["model_ms"]))
            continue
        if kind == "image" and status != 200:
            continue
        if kind not in ("image", "api"):
            continue
        model = float(row["model_ms"])
        if model <= 0:
            raise BadInput(f"{source}: row {row['row']} has duration_ms 0: no ratio")
        held = held_ms(row)
        if row["completed"] == "1":
            ns3 = float(row["ns3_ms"])
            ratio = (ns3 - held) / model
        else:
            ns3 = math.inf
            ratio = math.inf
            result.incomplete += 1
        if kind == "image":
            result.downloads.append(ratio)
            result.ns3_durations.append(ns3 - held)
            result.model_durations.append(model)
            result.downloads_from_log.append(ns3 / model)
            if held > QUEUED_MS:
                result.queued += 1
            if ns3 - model > LATE_MS:
                result.late += 1
        else:
            result.api.append(ratio)
    return result


def sent_durations(output: str) -> dict[int, tuple[float, float]]:
    """Each download's ns-3 duration from its send (inf when it did not complete) and the
    model's, by row."""
    durations = {}
    for row in csv.DictReader(output.splitlines()):
        if row["kind"] != "image" or row["status"] != "200":
            continue
        ns3 = float(row["ns3_ms"]) - held_ms(row) if row["completed"] == "1" else math.inf
        durations[int(row["row"])] = (ns3, float(row["model_ms"]))
    return durations


def add_moved(result: Result, logged: str, moved: list[str]) -> None:
    """The --moved figures of one log: each moved replay's download against the log's own, and
    the median of all of them against the model (`ratios` has refused a model time of 0)."""
    base = sent_durations(logged)
    others = [sent_durations(output) for output in moved]
    result.moved_durations = [[ns3 for ns3, _ in other.values()] for other in others]
    for row, (ns3, model) in base.items():
        if math.isinf(ns3):
            continue
        times = [ns3] + [other.get(row, (math.inf, model))[0] for other in others]
        result.self_ratios.extend(time / ns3 for time in times[1:])
        result.ensemble.append(statistics.median(times) / model)


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile: the ceil(share n)-th smallest value."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[math.ceil(share * len(ordered)) - 1]


def p90(values: list[float]) -> float | None:
    return percentile(values, 0.9)


def shown(value: float | None) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.3f}"


def inside(value: float | None, band: tuple[float, float]) -> bool:
    return value is not None and band[0] <= value <= band[1]


def quantile_ratios(numerator: list[float], denominator: list[float]) -> tuple[float | None, float | None]:
    """Two distributions compared: the median of one over the other's, and the p90 of one over
    the other's (an infinite value sorts last; None when either is empty)."""
    if not numerator or not denominator:
        return None, None
    return (median(numerator) / median(denominator), p90(numerator) / p90(denominator))


def farthest(values: list[float | None]) -> float | None:
    """The value farthest from 1 (by its ratio either way)."""
    known = [value for value in values if value is not None and value > 0]
    return max(known, key=lambda value: abs(math.log(value)), default=None)


def summarize(network: Network, results: list[Result]) -> tuple[list[str], list[str], list[str]]:
    """The network's cells in the two tables (per request, as distributions), why it fails the
    per-request bands, and why it fails them read as distributions (each empty when inside)."""
    downloads = [r for result in results for r in result.downloads]
    ns3 = [d for result in results for d in result.ns3_durations]
    model = [d for result in results for d in result.model_durations]
    dist_median, dist_p90 = quantile_ratios(ns3, model)
    replicas = max((len(result.moved_durations) for result in results), default=0)
    moved = [quantile_ratios([d for result in results if k < len(result.moved_durations)
                              for d in result.moved_durations[k]], ns3) for k in range(replicas)]
    self_dist = (f"{shown(farthest([m for m, _ in moved]))}/{shown(farthest([p for _, p in moved]))}"
                 if moved else "-")
    dist_failures: list[str] = []
    if not ns3:
        dist_failures.append("no downloads to compare as distributions")
    elif not inside(dist_median, DOWNLOAD_MEDIAN):
        dist_failures.append(f"downloads' median duration, ns-3's over the model's, {shown(dist_median)} "
                             f"outside [{DOWNLOAD_MEDIAN[0]}, {DOWNLOAD_MEDIAN[1]}]")
    if ns3 and not inside(dist_p90, DOWNLOAD_P90):
        dist_failures.append(f"downloads' p90 duration, ns-3's over the model's, {shown(dist_p90)} "
                             f"outside [{DOWNLOAD_P90[0]}, {DOWNLOAD_P90[1]}]")
    from_log = [r for result in results for r in result.downloads_from_log]
    queued = sum(result.queued for result in results)
    api = [r for result in results for r in result.api]
    late = sum(result.late for result in results)
    incomplete = sum(result.incomplete for result in results)
    cancelled = sum(result.cancelled for result in results)
    ns3_only = [r for result in results for r in result.ns3_only]
    either = shown(median(downloads + ns3_only)) if cancelled else "-"
    failures: list[str] = []
    if network.lossy:
        medians = [median(result.downloads) for result in results if result.downloads]
        middle = median(medians)
        spread = f"{shown(min(medians))}-{shown(max(medians))}" if medians else "-"
        if not medians:
            failures.append("no downloads")
        elif not inside(middle, LOSSY_MEDIAN_OF_MEDIANS):
            failures.append(f"median of {len(medians)} runs' medians {shown(middle)} outside "
                            f"[{LOSSY_MEDIAN_OF_MEDIANS[0]}, {LOSSY_MEDIAN_OF_MEDIANS[1]}]")
    else:
        middle = median(downloads)
        spread = "-"
        if not downloads:
            failures.append("no downloads")
        else:
            if not inside(middle, DOWNLOAD_MEDIAN):
                failures.append(f"downloads' median {shown(middle)} outside "
                                f"[{DOWNLOAD_MEDIAN[0]}, {DOWNLOAD_MEDIAN[1]}]")
            if not inside(p90(downloads), DOWNLOAD_P90):
                failures.append(f"downloads' p90 {shown(p90(downloads))} outside "
                                f"[{DOWNLOAD_P90[0]}, {DOWNLOAD_P90[1]}]")
        if api and not inside(median(api), API_MEDIAN):
            failures.append(f"API median {shown(median(api))} outside "
                            f"[{API_MEDIAN[0]}, {API_MEDIAN[1]}]")
    per_request = [network.name, str(len(results)), str(len(downloads)), shown(middle), spread,
                   shown(p90(downloads)), shown(p90(from_log)), shown(percentile(downloads, 0.1)),
                   shown(p90([r for result in results for r in result.self_ratios])),
                   shown(p90([r for result in results for r in result.ensemble])),
                   str(queued), str(late), str(len(api)), shown(median(api)), str(incomplete),
                   f"{len(ns3_only)}/{cancelled}", either, "ok" if not failures else "FAIL"]
    distributions = [network.name, str(len(ns3)), shown(dist_median), shown(dist_p90), self_dist,
                     "ok" if not dist_failures else "FAIL"]
    return (per_request, distributions), failures, dist_failures


def verdicts(failures: list[tuple[str | None, str, str]]) -> tuple[list[str], int]:
    """Each failure (the --check or --check-dist value that judges it, the network, why) as a
    line, and how many of them are checked: a check of "all", or of a list naming the network."""
    lines, gating = [], 0
    for check, name, reason in failures:
        checked = check is not None and (check == "all" or name in check.split(","))
        gating += checked
        lines.append(f"outside the bands: {name}: {reason}" + ("" if checked else " (reported, not checked)"))
    return lines, gating


PER_REQUEST_HEADER = ["network", "runs", "downloads", "median", "run-medians", "p90",
                      "p90-from-log", "p10", "self-p90", "ens-p90", "queued", "late>50ms", "api",
                      "api-median", "incomplete", "ns3-only", "either-median", "bands"]
DISTRIBUTION_HEADER = ["network", "downloads", "dist-median", "dist-p90", "self-dist", "dist-bands"]


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
    lines = []
    for row in [header] + rows:
        cells = [cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                 for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose errors are one line (then exit 2) instead of the usage and the error."""

    def error(self, message: str):
        print(f"compare.py: {message}", file=sys.stderr)
        sys.exit(2)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = OneLineParser(
        description="Replay FeedBench request logs in ns-3 and compare the durations.")
    parser.add_argument("--log", action="append", default=[], type=Path, required=True,
                        help="a request log (bench run --requests); repeat for more")
    parser.add_argument("--network", action="append", default=[], type=Path, required=True,
                        help="its network JSON (bench profiles --network NAME); one per --log, "
                             "or one for all")
    parser.add_argument("--seed", action="append", default=[], type=int,
                        help="the ns-3 seed of each --log (default: 1, or 1..--seeds when lossy)")
    parser.add_argument("--seeds", type=int, default=20,
                        help="ns-3 seeds a lossy network's log is replayed with (default 20)")
    parser.add_argument("--replay", type=Path, default=DEFAULT_REPLAY,
                        help=f"the replay binary (default {DEFAULT_REPLAY})")
    parser.add_argument("--jobs", type=int, default=1,
                        help="replays run at once (default 1: ns-3 is CPU-bound)")
    parser.add_argument("--horizon-s", type=float, default=120.0,
                        help="seconds past the session's end a request may still finish")
    parser.add_argument("--keep", type=Path,
                        help="a folder to keep each replay's per-request CSV in")
    parser.add_argument("--moved", type=int, default=0, metavar="K",
                        help="also replay each lossless log K times with its requests moved by "
                             "up to 0.1 ms, and show ns-3's own p90 and the ensemble's (default 0)")
    parser.add_argument("--check", nargs="?", const="all", default=None, metavar="NETWORKS",
                        help="exit 1 when a network is outside its bands: every network, or "
                             "those named (comma-separated); the others are reported only")
    parser.add_argument("--check-dist", nargs="?", const="all", default=None, metavar="NETWORKS",
                        help="exit 1 when a network's download durations, as distributions, are "
                             "outside the download bands: every network, or those named")
    return parser.parse_args(argv)


def plan(args: argparse.Namespace) -> list[Run]:
    logs, networks, seeds = args.log, args.network, args.seed
    if len(networks) not in (1, len(logs)):
        raise BadInput(f"{len(logs)} --log but {len(networks)} --network: give one --network "
                       "per --log, or one for all")
    if seeds and len(seeds) != len(logs):
        raise BadInput(f"{len(logs)} --log but {len(seeds)} --seed: give one per --log, or none")
    if any(seed < 1 for seed in seeds):
        raise BadInput("--seed: expected a whole number from 1")
    if not 1 <= args.seeds <= 1000:
        raise BadInput("--seeds: expected a number from 1 to 1000")
    if args.jobs < 1:
        raise BadInput("--jobs: expected a number from 1")
    if not 0 <= args.horizon_s <= 1e6:
        raise BadInput("--horizon-s: expected seconds from 0")
    if not 0 <= args.moved <= 50:
        raise BadInput("--moved: expected a number from 0 to 50")
    if args.keep is not None and not args.keep.is_dir():
        raise BadInput(f"--keep: {args.keep} is not a folder")
    parsed: dict[Path, Network] = {}
    runs = []
    for index, log in enumerate(logs):
        path = networks[0] if len(networks) == 1 else networks[index]
        if path not in parsed:
            parsed[path] = read_network(path)
        network = parsed[path]
        check_log(log)
        if seeds:
            runs.append(Run(log, network, seeds[index]))
        elif network.lossy:
            runs.extend(Run(log, network, seed) for seed in range(1, args.seeds + 1))
        else:
            runs.append(Run(log, network, 1))
        if not network.lossy:
            runs.extend(Run(log, network, runs[-1].seed, k) for k in range(1, args.moved + 1))
    names: dict[str, Path] = {}
    for network in parsed.values():
        other = names.setdefault(network.name, network.path)
        if os.path.realpath(other) != os.path.realpath(network.path) and \
                read_network(other).lossy != network.lossy:
            raise BadInput(f"{network.path} and {other} both name the network {network.name!r} "
                           "but only one is lossy")
    return runs


def main(argv: list[str]) -> int:
    try:
        args = parse_arguments(argv)
    except SystemExit as exit:
        return 2 if exit.code else 0
    try:
        runs = plan(args)
        if not args.replay.is_file() or not os.access(args.replay, os.X_OK):
            raise BadInput(f"{args.replay}: no replay binary; build it with .ci/ns3-check")
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outputs = list(pool.map(lambda run: replay(args.replay, run, args.horizon_s,
                                                       args.keep), runs))
        results, logged = [], []
        for run, (output, _) in zip(runs, outputs):
            if run.moved == 0:
                results.append(ratios(output, f"{run.log} on {run.network.name}"))
                logged.append((run, output, []))
            else:
                logged[-1][2].append(output)
        for result, (_, output, moved) in zip(results, logged):
            if moved:
                add_moved(result, output, moved)
    except BadInput as error:
        print(f"compare.py: {error}", file=sys.stderr)
        return 2

    warnings = sorted({line for _, lines in outputs for line in lines
                       if line.startswith("warning:")})
    for line in warnings:
        print(line, file=sys.stderr)

    groups: dict[str, tuple[Network, list[Result]]] = {}
    for (run, _, _), result in zip(logged, results):
        groups.setdefault(run.network.name, (run.network, []))[1].append(result)
    per_request, distributions, failures = [], [], []
    for name in sorted(groups):
        network, group = groups[name]
        (cells, dist_cells), why, why_dist = summarize(network, group)
        per_request.append(cells)
        distributions.append(dist_cells)
        failures.extend((args.check, name, reason) for reason in why)
        failures.extend((args.check_dist, name, reason) for reason in why_dist)
    print("per request:")
    print(table(PER_REQUEST_HEADER, per_request))
    print("ratio = ns-3 duration / model duration, each from when the request was sent; median: "
          "middle value (mean of the two middle for even n); p90: nearest rank, the "
          "ceil(0.9 n)-th smallest; p90-from-log: ns-3 timed from the log's time_ms instead "
          "(shown, not checked); p10: the ceil(0.1 n)-th smallest, where the model is slower "
          "than ns-3 (shown, not checked); self-p90 and ens-p90 (--moved): ns-3 with requests "
          "moved by up to 0.1 ms over ns-3 as logged, and the median of all those replays over "
          "the model (shown, not checked); queued: downloads ns-3 sent late behind a slower "
          "response on their connection; lossy networks: median and run-medians over runs "
          "(log x seed); ns3-only: of the downloads the model cancelled, those ns-3 finished "
          "before the cancel; either-median: the median over the downloads either side finished, "
          "those ns-3 alone finished at their ratio to the cancel, an upper bound (the median "
          "above is over the downloads the model finished, picked for being fast in the model) "
          "(shown, not checked).")
    print("as distributions:")
    print(table(DISTRIBUTION_HEADER, distributions))
    print("dist-median and dist-p90: the downloads' durations as two distributions, ns-3's "
          "median over the model's and ns-3's p90 over the model's (dist-bands: the download "
          "bands applied to them); self-dist (--moved): each moved replay's median and p90 "
          "duration over ns-3's as logged, the one farthest from 1 (shown, not checked).")
    lines, gating = verdicts(failures)
    for line in lines:
        print(line)
    for flag, check in (("--check", args.check), ("--check-dist", args.check_dist)):
        if check not in (None, "all"):
            print(f"{flag}: {', '.join(sorted(check.split(',')))}; the other networks are reported only")
    return 1 if gating else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
