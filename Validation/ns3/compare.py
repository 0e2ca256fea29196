#!/usr/bin/env python3
"""Compare FeedBench's request durations with ns-3's: the outside check of the network model.

    compare.py --log LOG.csv --network NET.json [--log ... --network ...] [--check] [--check-dist]
               [--displays D.csv ...] [--check-stalls]

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
A network file may give a direction as a recording (downlinkTrace, uplinkTrace: Mahimahi's
format, a path relative to the file's folder, with recordingStartMs) instead of its rate; no
figure here uses a link's rate, and a line after the tables names each recorded network's
recordings with their mean rates over their periods, and the starts its files give.
--displays FILE (one per --log: bench run --displays) adds a third table ("stalls"): per network,
the model's stalls and those ns-3's arrival times give, open loop (stall_count has the rule);
--check-stalls exits 1 when ns-3's count is more than 15 % from the model's; --stalls-out FILE
writes that table to FILE instead (.ci/ns3-check prints the fixed networks' after its other output).
Bad input (or a replay that fails) gets one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import io
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
# ns-3's stall count within this share of the model's (--check-stalls).
STALL_SHARE = 0.15
DISPLAY_COLUMNS = ["time_ms", "path", "outcome", "shown_ms", "stalled"]
DISPLAY_OUTCOMES = ("memory", "disk", "inflight", "miss")
# The request log's time_ms and duration_ms have 3 decimals, a display's time 6: a model end
# compared with a display's time is allowed the two roundings.
LOG_ROUNDING_MS = 0.001
# The bytes one delivery opportunity of a recorded link serves (replay.cc's kOpportunityBytes).
TRACE_OPPORTUNITY_BYTES = 1500


class BadInput(Exception):
    """Input that cannot be compared: one line on stderr, exit 2."""


@dataclass
class Recording:
    """A recorded direction (Mahimahi's format: one line per 1,500-byte delivery opportunity,
    its time in ms; the last time is the period)."""
    path: Path
    opportunities: int
    period_ms: int

    @property
    def mean_bits_per_second(self) -> float:
        """The mean rate over the period: what a recorded link's rate means in a figure."""
        return self.opportunities * TRACE_OPPORTUNITY_BYTES * 8 / (self.period_ms / 1000)


@dataclass
class Network:
    path: Path
    name: str
    lossy: bool
    # A recorded direction's recording (None: a fixed rate), and where the run's 0 sits in them.
    downlink: Recording | None = None
    uplink: Recording | None = None
    recording_start_ms: int = 0


@dataclass
class Run:
    log: Path
    network: Network
    seed: int
    # 0: the log as written; k > 0: the k-th replay with its requests moved (--moved).
    moved: int = 0
    # The session's displays (bench run --displays), whose stalls are recomputed (--displays).
    displays: Path | None = None


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
    # The stalls ns-3's arrivals give (--displays; None without a displays file).
    stalls: Stalls | None = None


@dataclass
class Display:
    """One line of bench run --displays: a cell on screen at time_ms, how its image was found,
    when the cell showed it (None: never), and whether the model counted it a stall."""
    time_ms: float
    path: str
    outcome: str
    shown_ms: float | None
    stalled: bool


@dataclass
class ImageLine:
    """A request log's image line (200 or 499) and where it ended, in the model
    (time_ms + duration_ms) and in ns-3 (time_ms + ns3_ms; None: ns-3 never completed it)."""
    path: str
    status: int
    model_end_ms: float
    ns3_end_ms: float | None


@dataclass
class Stalls:
    """One run's displays, the model's stalls, ns-3's (the rule in stall_count), and how many
    stalls ns-3 adds (a display the model did not stall) and takes away."""
    displays: int = 0
    model: int = 0
    ns3: int = 0
    gained: int = 0
    lost: int = 0


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
    if "oneWayDelayMs" not in value:
        raise BadInput(f'{path}: missing "oneWayDelayMs"')
    # Each direction is a fixed rate or a recording (replay.cc reads the rest of the file).
    recordings = []
    for rate, trace, required in (("bitsPerSecond", "downlinkTrace", True),
                                  ("uplinkBitsPerSecond", "uplinkTrace", False)):
        has_rate, has_trace = value.get(rate) is not None, value.get(trace) is not None
        if has_rate and has_trace:
            raise BadInput(f'{path}: both "{rate}" and "{trace}": give one of them for this direction')
        if required and not has_rate and not has_trace:
            raise BadInput(f'{path}: missing "{rate}" (or "{trace}")')
        recordings.append(read_recording(path, trace, value[trace]) if has_trace else None)
    start = value.get("recordingStartMs", 0)
    if start is None:
        start = 0
    if isinstance(start, bool) or not isinstance(start, (int, float)) or start != int(start) \
            or not 0 <= start <= 86_400_000:
        raise BadInput(f'{path}: "recordingStartMs" must be a whole number of ms from 0 to 86400000')
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
    return Network(path=path, name=name, lossy=any(loss > 0 for loss in losses),
                   downlink=recordings[0], uplink=recordings[1], recording_start_ms=int(start))


def read_recording(network: Path, field: str, value: object) -> Recording:
    """The recording a network file names (a path relative to the file's folder): its count of
    opportunities and its period. Refused in one line as replay.cc refuses it."""
    if not isinstance(value, str) or not value:
        raise BadInput(f'{network}: "{field}" must be the path of a recording')
    path = network.parent / value
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        raise BadInput(f'{network}: "{field}" {path}: cannot read the recording') from None
    count, last = 0, None
    for number, line in enumerate(lines, start=1):
        text = line.strip(" \t\r")
        if not text:
            continue
        if not text.isdigit() or not text.isascii() or int(text) > 86_400_000:
            raise BadInput(f'{network}: "{field}" {path}:{number}: expected a delivery '
                           f'opportunity\'s time in whole ms from 0 to 86400000, found "{text[:40]}"')
        if last is not None and int(text) < last:
            raise BadInput(f'{network}: "{field}" {path}:{number}: time {int(text)} is earlier '
                           f"than the line before's {last}")
        count, last = count + 1, int(text)
    if last is None:
        raise BadInput(f'{network}: "{field}" {path}: no delivery opportunities (an empty recording)')
    if last == 0:
        raise BadInput(f'{network}: "{field}" {path}: no time after 0 (the last time is the '
                       "period: the recording must last)")
    return Recording(path=path, opportunities=count, period_ms=last)


def recorded_lines(networks: list[Network]) -> list[str]:
    """One line per network name with a recorded direction: its recordings, their mean rates
    over their periods (the one rate a recorded link has), and the starts its files give."""
    lines = []
    for name in sorted({network.name for network in networks if network.downlink or network.uplink}):
        files = [network for network in networks if network.name == name]
        first = files[0]
        parts = []
        for what, recording in (("downlink", first.downlink), ("uplink", first.uplink)):
            if recording is not None:
                parts.append(f"{what} {recording.path.name} (mean {recording.mean_bits_per_second / 1e6:.3f} "
                             f"Mbit/s over its {recording.period_ms / 1000:g} s period)")
        starts = sorted({network.recording_start_ms for network in files})
        lines.append(f"recorded: {name}: {', '.join(parts)}; recordingStartMs "
                     f"{', '.join(str(start) for start in starts)}")
    return lines


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


def read_displays(path: Path) -> list[Display]:
    """bench run --displays's file: every display in order (refused in one line when malformed)."""
    try:
        with path.open(encoding="utf-8", newline="") as file:
            rows = list(csv.reader(file))
    except OSError as error:
        raise BadInput(f"{path}: cannot read the file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None
    if not rows or rows[0] != DISPLAY_COLUMNS:
        raise BadInput(f"{path}:1: expected the header {','.join(DISPLAY_COLUMNS)}")
    displays = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            if len(row) != len(DISPLAY_COLUMNS) or row[2] not in DISPLAY_OUTCOMES or row[4] not in ("0", "1"):
                raise ValueError
            time_ms = float(row[0])
            shown_ms = float(row[3]) if row[3] else None
            if not math.isfinite(time_ms) or (shown_ms is not None and not math.isfinite(shown_ms)):
                raise ValueError
        except ValueError:
            raise BadInput(f"{path}:{number}: expected time_ms,path,outcome ({'/'.join(DISPLAY_OUTCOMES)}),"
                           "shown_ms (or empty),stalled (0 or 1)") from None
        displays.append(Display(time_ms, row[1], row[2], shown_ms, row[4] == "1"))
    return displays


def image_lines(log: Path, output: str) -> list[ImageLine]:
    """The log's image lines of status 200 and 499, in the log's order, each with its model end
    and ns-3's (the replay's row for it: ns3_ms runs from time_ms)."""
    with log.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    replayed = {int(row["row"]): row for row in csv.DictReader(output.splitlines())}
    lines = []
    for number, row in enumerate(rows, start=1):
        if not row["path"].startswith("/images/") or row["status"] not in ("200", "499"):
            continue
        ns3 = replayed.get(number)
        if ns3 is None:
            raise BadInput(f"{log}: row {number} is missing from the replay's output")
        start = float(row["time_ms"])
        lines.append(ImageLine(row["path"], int(row["status"]), start + float(row["duration_ms"]),
                               start + float(ns3["ns3_ms"]) if ns3["completed"] == "1" else None))
    return lines


def stall_count(displays: list[Display], lines: list[ImageLine]) -> Stalls:
    """The stalls ns-3's arrivals give, open loop (the session's displays as the model made
    them, only when each image arrived taken from ns-3). a_m is a line's model end, a_n ns-3's:
      memory (a memory-cache hit shown on its frame) at t: the 200 line of its path that arrived
        last by a_m <= t (none: no stall); an ns-3 stall iff a_n > t (never arrived: a stall);
      inflight or miss at t that the model stalled: the first line (200 or 499) of its path,
        in the log's order, with a_m >= t; none, a 499 (cancelled) or one ns-3 never completed:
        a stall both sides; shown at s: an ns-3 stall iff a_n - a_m + (s - t) >= 0 (the cell's
        wait moved by ns-3's shift); never shown: iff a_n >= t;
      disk, and any other display the model did not stall: as the model says.
    The model's ends (3 decimals in the log) are allowed LOG_ROUNDING_MS against a display's
    time. With a_n = a_m the rule gives the model's own count (test_compare.py holds it so)."""
    by_path: dict[str, list[ImageLine]] = {}
    for line in lines:
        by_path.setdefault(line.path, []).append(line)
    stalls = Stalls(displays=len(displays))
    for display in displays:
        t, own = display.time_ms, by_path.get(display.path, [])
        stalled = display.stalled
        if display.outcome == "memory":
            done = [line for line in own if line.status == 200 and line.model_end_ms <= t + LOG_ROUNDING_MS]
            match = max(reversed(done), key=lambda line: line.model_end_ms, default=None)
            if match is None:
                stalled = False
            else:
                stalled = match.ns3_end_ms is None or match.ns3_end_ms > t
        elif display.outcome in ("inflight", "miss") and display.stalled:
            match = next((line for line in own if line.model_end_ms >= t - LOG_ROUNDING_MS), None)
            arrival = None if match is None else match.ns3_end_ms
            if match is None or match.status == 499 or arrival is None:
                stalled = True
            elif display.shown_ms is not None:
                stalled = arrival - match.model_end_ms + (display.shown_ms - t) >= 0
            else:
                stalled = arrival >= t
        stalls.model += display.stalled
        stalls.ns3 += stalled
        stalls.gained += stalled and not display.stalled
        stalls.lost += display.stalled and not stalled
    return stalls


def stall_cells(name: str, results: list[Result]) -> tuple[list[str], list[str]] | None:
    """A network's row of the stalls table (summed over its runs with displays) and why it is
    outside the stall band (ns-3's count within STALL_SHARE of the model's); None without
    displays."""
    counts = [result.stalls for result in results if result.stalls is not None]
    if not counts:
        return None
    model, ns3 = sum(c.model for c in counts), sum(c.ns3 for c in counts)
    ratio = ns3 / model if model else None
    failures = []
    if abs(ns3 - model) > STALL_SHARE * model:
        failures.append(f"stalls, ns-3's {ns3} over the model's {model}, "
                        f"{shown(ratio) if model else 'none expected'} outside "
                        f"[{1 - STALL_SHARE:g}, {1 + STALL_SHARE:g}]")
    cells = [name, str(len(counts)), str(sum(c.displays for c in counts)), str(model), str(ns3),
             shown(ratio), str(sum(c.gained for c in counts)), str(sum(c.lost for c in counts)),
             "ok" if not failures else "FAIL"]
    return cells, failures


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
STALL_HEADER = ["network", "runs", "displays", "model-stalls", "ns3-stalls", "ratio", "gained", "lost",
                "stall-band"]


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
    parser.add_argument("--displays", action="append", default=[], type=Path,
                        help="each --log's displays (bench run --displays), one per --log: count "
                             "the stalls ns-3's arrivals give (a third table)")
    parser.add_argument("--stalls-out", type=Path, metavar="FILE",
                        help="write the stalls table to FILE instead of printing it (with --displays)")
    parser.add_argument("--check-stalls", nargs="?", const="all", default=None, metavar="NETWORKS",
                        help="exit 1 when ns-3's stall count is more than 15 %% from the model's: "
                             "every network, or those named")
    return parser.parse_args(argv)


def plan(args: argparse.Namespace) -> list[Run]:
    logs, networks, seeds = args.log, args.network, args.seed
    if len(networks) not in (1, len(logs)):
        raise BadInput(f"{len(logs)} --log but {len(networks)} --network: give one --network "
                       "per --log, or one for all")
    if seeds and len(seeds) != len(logs):
        raise BadInput(f"{len(logs)} --log but {len(seeds)} --seed: give one per --log, or none")
    if args.stalls_out is not None and not args.displays:
        raise BadInput("--stalls-out: give the logs' --displays too")
    if args.displays and len(args.displays) != len(logs):
        raise BadInput(f"{len(logs)} --log but {len(args.displays)} --displays: give one per --log, or none")
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
        displays = args.displays[index] if args.displays else None
        if seeds:
            runs.append(Run(log, network, seeds[index], displays=displays))
        elif network.lossy:
            runs.extend(Run(log, network, seed, displays=displays) for seed in range(1, args.seeds + 1))
        else:
            runs.append(Run(log, network, 1, displays=displays))
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
                if run.displays is not None:
                    results[-1].stalls = stall_count(read_displays(run.displays), image_lines(run.log, output))
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
    per_request, distributions, stall_rows, failures, stall_failures = [], [], [], [], []
    for name in sorted(groups):
        network, group = groups[name]
        (cells, dist_cells), why, why_dist = summarize(network, group)
        per_request.append(cells)
        distributions.append(dist_cells)
        failures.extend((args.check, name, reason) for reason in why)
        failures.extend((args.check_dist, name, reason) for reason in why_dist)
        stalled = stall_cells(name, group)
        if stalled is not None:
            stall_rows.append(stalled[0])
            stall_failures.extend((args.check_stalls, name, reason) for reason in stalled[1])
    stall_gating = 0
    if args.stalls_out is None:
        failures.extend(stall_failures)
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
    if stall_rows:
        stall_table = io.StringIO()
        print("stalls:", file=stall_table)
        print(table(STALL_HEADER, stall_rows), file=stall_table)
        print("stalls recomputed from ns-3's arrivals, open loop (each display as the model made it, "
              "when its image arrived taken from ns-3: a memory hit stalls when ns-3's copy had not "
              "arrived, a stalled in-flight or missed display waits for it as much longer or shorter "
              "as ns-3 is, a cancelled one stalls both sides); runs: those with displays; ratio: "
              "ns-3's stalls over the model's; gained and lost: stalls ns-3 adds and takes away; "
              "stall-band: within 15 % of the model's count.", file=stall_table)
        if args.stalls_out is None:
            print(stall_table.getvalue(), end="")
        else:
            # The table and its verdicts, whose --check-stalls still counts in the exit status.
            lines, stall_gating = verdicts(stall_failures)
            for line in lines:
                print(line, file=stall_table)
            try:
                args.stalls_out.write_text(stall_table.getvalue(), encoding="utf-8")
            except OSError as error:
                print(f"compare.py: --stalls-out: cannot write {args.stalls_out} ({error.strerror})",
                      file=sys.stderr)
                return 2
    for line in recorded_lines(list({run.network.path: run.network for run in runs}.values())):
        print(line)
    lines, gating = verdicts(failures)
    for line in lines:
        print(line)
    for flag, check in (("--check", args.check), ("--check-dist", args.check_dist),
                        ("--check-stalls", args.check_stalls)):
        if check not in (None, "all"):
            print(f"{flag}: {', '.join(sorted(check.split(',')))}; the other networks are reported only")
    return 1 if gating or stall_gating else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
