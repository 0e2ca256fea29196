"""compare.py's own pieces, without ns-3: moved logs, the --moved figures, percentiles, the
distributions, the plan.

    python3 -m unittest discover -s Validation/ns3 -p 'test_*.py'   (.ci/ns3-check runs it)
"""

from __future__ import annotations

import csv
import json
import math
import random
import tempfile
import unittest
from pathlib import Path

import compare

HEADER = ",".join(compare.LOG_COLUMNS)
LOG_ROWS = [
    "0.000,GET,/v1/images/search?limit=10&page=1,200,931,,276.540,958.130,1,1,http/1.1,high,0.000000",
    "1933.333,GET,/images/1.jpg,200,70086,70086,0.000,268.901,2,1,http/1.1,high,1933.333333",
    "1933.333,GET,/images/2.jpg,200,116086,116086,0.000,256.698,3,1,http/1.1,high,1933.333333",
]
OUT_HEADER = "row,time_ms,kind,status,connection,new_connection,bytes,model_ms,ns3_ms,completed,sent_ms"


def replay_output(*rows: str) -> str:
    return "\n".join([OUT_HEADER, *rows]) + "\n"


class MovedLogTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.log = Path(self.folder.name) / "session.csv"
        self.log.write_text("\n".join([HEADER, *LOG_ROWS]) + "\n", encoding="utf-8")

    def read(self, path: Path) -> list[list[str]]:
        with path.open(encoding="utf-8", newline="") as file:
            return list(csv.reader(file))

    def test_a_moved_log_moves_only_the_times_by_at_most_a_tenth_of_a_millisecond(self):
        original = self.read(self.log)
        moved = self.read(compare.moved_log(self.log, 1, Path(self.folder.name)))
        self.assertEqual(moved[0], original[0])
        self.assertEqual(len(moved), len(original))
        for before, after in zip(original[1:], moved[1:]):
            self.assertEqual(after[1:12], before[1:12])
            shift = float(after[0]) - float(before[0])
            self.assertGreaterEqual(shift, -1e-9)
            self.assertLessEqual(shift, compare.MOVED_MS + 1e-9)
            self.assertRegex(after[0], r"^\d+\.\d{3}$")  # replay reads milliseconds to 3 places
            # sent_ms moves with it, to the nanosecond
            self.assertAlmostEqual(float(after[12]) - float(before[12]), shift, delta=1e-3)
            self.assertRegex(after[12], r"^\d+\.\d{6}$")

    def test_a_replica_moves_the_same_way_every_time_and_another_differently(self):
        folder = Path(self.folder.name)
        first = compare.moved_log(self.log, 1, folder).read_text(encoding="utf-8")
        again = compare.moved_log(self.log, 1, folder).read_text(encoding="utf-8")
        other = compare.moved_log(self.log, 2, folder).read_text(encoding="utf-8")
        self.assertEqual(first, again)
        self.assertNotEqual(first, other)


class MovedFiguresTests(unittest.TestCase):
    def test_each_moved_download_is_divided_by_its_own_and_the_median_by_the_model(self):
        logged = replay_output(
            "1,0.000,api,200,1,1,931,958.130,960.000,1,0.000",
            "2,1933.333,image,200,2,1,70086,200.000,100.000,1,1933.333",
            "3,1933.333,image,200,3,1,116086,100.000,,0,1933.333",  # never finished: no figure
        )
        moved = [
            replay_output("2,1933.400,image,200,2,1,70086,200.000,300.000,1,1933.400"),
            replay_output("2,1933.350,image,200,2,1,70086,200.000,150.000,1,1963.350"),
        ]
        result = compare.Result()
        compare.add_moved(result, logged, moved)
        # The second moved replay held the request 30 ms behind its connection: timed from the send.
        self.assertEqual(len(result.self_ratios), 2)
        self.assertAlmostEqual(result.self_ratios[0], 3.0)
        self.assertAlmostEqual(result.self_ratios[1], 1.2)
        self.assertEqual(len(result.ensemble), 1)
        self.assertAlmostEqual(result.ensemble[0], 120.0 / 200.0)

    def test_a_download_a_moved_replay_never_finished_counts_as_infinitely_slow(self):
        logged = replay_output("2,1933.333,image,200,2,1,70086,200.000,100.000,1,1933.333")
        moved = [replay_output("2,1933.400,image,200,2,1,70086,200.000,,0,1933.400")]
        result = compare.Result()
        compare.add_moved(result, logged, moved)
        self.assertTrue(math.isinf(result.self_ratios[0]))
        self.assertTrue(math.isinf(result.ensemble[0]))


class PercentileTests(unittest.TestCase):
    def test_the_nearest_rank_percentiles(self):
        values = [float(v) for v in range(10, 0, -1)]
        self.assertEqual(compare.percentile(values, 0.1), 1.0)
        self.assertEqual(compare.percentile(values, 0.9), 9.0)
        self.assertEqual(compare.p90([5.0]), 5.0)
        self.assertIsNone(compare.percentile([], 0.1))


class DistributionTests(unittest.TestCase):
    NETWORK = compare.Network(Path("lte.json"), "lte", lossy=False)

    def result(self, *pairs: tuple[float, float]) -> compare.Result:
        """A replay's downloads as (ns-3 ms, model ms), each sent when logged."""
        return compare.ratios(replay_output(*(
            f"{row},0.000,image,200,{row},1,1000,{model:.3f},{ns3:.3f},1,0.000"
            for row, (ns3, model) in enumerate(pairs, start=1))), "a log")

    def test_two_downloads_that_swap_their_times_fail_per_request_and_agree_as_distributions(self):
        # ns-3 gives the first download the share the model gave the second: each ratio is
        # far from 1, the two sets of durations are the same.
        result = self.result((300.0, 100.0), (100.0, 300.0))
        self.assertEqual(result.ns3_durations, [300.0, 100.0])
        self.assertEqual(result.model_durations, [100.0, 300.0])
        (per_request, distributions), failures, distribution_failures = compare.summarize(self.NETWORK, [result])
        self.assertTrue(any("p90 3.000" in failure for failure in failures))
        self.assertEqual(distribution_failures, [])
        # The two tables' rows: the per-request p90 column, and the distributions' row.
        self.assertEqual(per_request[compare.PER_REQUEST_HEADER.index("p90")], "3.000")
        self.assertEqual(distributions, ["lte", "2", "1.000", "1.000", "-", "ok"])
        self.assertEqual(compare.quantile_ratios(result.ns3_durations, result.model_durations), (1.0, 1.0))

    def test_a_cancelled_download_ns3_finished_counts_at_its_cancel_in_the_either_median(self):
        # The model finished one download (ns-3 twice as slow on it) and cancelled two: ns-3
        # finished one of those before the cancel, half-way to it (sent 100 ms late, timed from
        # its send), and not the other.
        result = compare.ratios(replay_output(
            "1,0.000,image,200,1,1,1000,100.000,200.000,1,0.000",
            "2,0.000,image,499,2,1,1000,1000.000,600.000,1,100.000",
            "3,0.000,image,499,3,1,1000,1000.000,,0,0.000",
        ), "a log")
        self.assertEqual(result.downloads, [2.0])
        self.assertEqual((result.cancelled, result.ns3_only), (2, [0.5]))
        (per_request, _), failures, _ = compare.summarize(self.NETWORK, [result])
        self.assertEqual(per_request[compare.PER_REQUEST_HEADER.index("median")], "2.000")
        self.assertEqual(per_request[compare.PER_REQUEST_HEADER.index("ns3-only")], "1/2")
        self.assertEqual(per_request[compare.PER_REQUEST_HEADER.index("either-median")], "1.250")
        # The check's median stays the model-finished downloads' own.
        self.assertTrue(any("median 2.000" in failure for failure in failures))
        # With nothing cancelled there is no either-median.
        plain, _, _ = compare.summarize(self.NETWORK, [self.result((100.0, 100.0))])
        self.assertEqual(plain[0][compare.PER_REQUEST_HEADER.index("either-median")], "-")

    def test_a_slower_tail_fails_the_distribution_p90_and_names_it(self):
        # One slower download in ten is the p90's neighbour, not the p90.
        result = self.result(*[(100.0, 100.0)] * 9, (400.0, 200.0))
        _, _, distribution_failures = compare.summarize(self.NETWORK, [result])
        self.assertEqual(distribution_failures, [])
        result = self.result(*[(100.0, 100.0)] * 8, (400.0, 200.0), (400.0, 200.0))
        _, _, distribution_failures = compare.summarize(self.NETWORK, [result])
        self.assertEqual(distribution_failures,
                         ["downloads' p90 duration, ns-3's over the model's, 2.000 outside [0.8, 1.25]"])

    def test_a_download_ns3_never_finished_sorts_last(self):
        median, p90 = compare.quantile_ratios([1.0, math.inf], [1.0, 1.0])
        self.assertEqual(median, math.inf)
        self.assertEqual(p90, math.inf)
        self.assertEqual(compare.quantile_ratios([], [1.0]), (None, None))

    def test_the_self_figure_is_the_moved_replay_farthest_from_one_either_way(self):
        self.assertEqual(compare.farthest([1.1, 0.8, None, 1.2]), 0.8)
        self.assertEqual(compare.farthest([1.3, 0.8]), 1.3)
        self.assertIsNone(compare.farthest([None]))


class VerdictTests(unittest.TestCase):
    def test_a_failure_gates_only_when_its_own_check_names_its_network(self):
        lines, gating = compare.verdicts([
            ("wifi,lte", "lte", "downloads' p90 1.300 outside [0.8, 1.25]"),
            ("3g,dsl", "lte", "downloads' p90 duration, ns-3's over the model's, 0.600 outside [0.8, 1.25]"),
            ("all", "edge", "no downloads"),
            (None, "3g", "downloads' median 1.700 outside [0.9, 1.1]"),
        ])
        self.assertEqual(gating, 2)
        self.assertEqual(lines, [
            "outside the bands: lte: downloads' p90 1.300 outside [0.8, 1.25]",
            "outside the bands: lte: downloads' p90 duration, ns-3's over the model's, 0.600 outside [0.8, 1.25] (reported, not checked)",
            "outside the bands: edge: no downloads",
            "outside the bands: 3g: downloads' median 1.700 outside [0.9, 1.1] (reported, not checked)",
        ])


class PlanTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        folder = Path(self.folder.name)
        self.log = folder / "session.csv"
        self.log.write_text("\n".join([HEADER, *LOG_ROWS]) + "\n", encoding="utf-8")
        self.lossless = folder / "lte.json"
        self.lossless.write_text(json.dumps({"name": "lte", "bitsPerSecond": 50_000_000,
                                             "oneWayDelayMs": 50}), encoding="utf-8")
        self.lossy = folder / "very-bad.json"
        self.lossy.write_text(json.dumps({"name": "very-bad", "bitsPerSecond": 1_000_000,
                                          "oneWayDelayMs": 500, "loss": 0.1}), encoding="utf-8")

    def plan(self, *arguments: str) -> list[compare.Run]:
        return compare.plan(compare.parse_arguments(list(arguments)))

    def test_moved_replays_follow_each_lossless_log_and_skip_lossy_ones(self):
        runs = self.plan("--log", str(self.log), "--network", str(self.lossless), "--moved", "2")
        self.assertEqual([(run.seed, run.moved) for run in runs], [(1, 0), (1, 1), (1, 2)])
        lossy = self.plan("--log", str(self.log), "--network", str(self.lossy), "--seeds", "3",
                          "--moved", "2")
        self.assertEqual([(run.seed, run.moved) for run in lossy], [(1, 0), (2, 0), (3, 0)])

    def test_each_log_carries_its_displays_to_every_run_of_it_and_a_count_mismatch_is_refused(self):
        displays = Path(self.folder.name) / "session.displays.csv"
        runs = self.plan("--log", str(self.log), "--network", str(self.lossy), "--seeds", "2",
                         "--displays", str(displays))
        self.assertEqual([run.displays for run in runs], [displays, displays])
        self.assertIsNone(self.plan("--log", str(self.log), "--network", str(self.lossless))[0].displays)
        with self.assertRaisesRegex(compare.BadInput, r"^2 --log but 1 --displays: give one per --log, or none$"):
            self.plan("--log", str(self.log), "--log", str(self.log), "--network", str(self.lossless),
                      "--displays", str(displays))
        with self.assertRaisesRegex(compare.BadInput, r"^--stalls-out: give the logs' --displays too$"):
            self.plan("--log", str(self.log), "--network", str(self.lossless), "--stalls-out", str(displays))

    def test_a_moved_count_out_of_range_is_refused_in_one_line(self):
        with self.assertRaisesRegex(compare.BadInput, r"^--moved: expected a number from 0 to 50$"):
            self.plan("--log", str(self.log), "--network", str(self.lossless), "--moved", "51")


    def test_a_recorded_direction_needs_no_rate_and_is_named_with_its_mean_rate(self):
        folder = Path(self.folder.name)
        (folder / "link.down").write_text("1\n2\n2\n4\n", encoding="utf-8")  # 4 x 1,500 B in 4 ms
        path = folder / "recorded.json"
        path.write_text(json.dumps({"name": "verizon-lte", "downlinkTrace": "link.down",
                                    "uplinkTrace": str(folder / "link.down"), "recordingStartMs": 12345,
                                    "oneWayDelayMs": 25}), encoding="utf-8")
        runs = self.plan("--log", str(self.log), "--network", str(path))
        network = runs[0].network
        self.assertEqual((network.lossy, network.recording_start_ms), (False, 12345))
        self.assertEqual(network.downlink.mean_bits_per_second, 12_000_000)
        self.assertEqual(compare.recorded_lines([network, self.plan("--log", str(self.log), "--network",
                                                                     str(self.lossless))[0].network]),
                         ["recorded: verizon-lte: downlink link.down (mean 12.000 Mbit/s over its 0.004 s "
                          "period), uplink link.down (mean 12.000 Mbit/s over its 0.004 s period); "
                          "recordingStartMs 12345"])

    def test_a_direction_with_both_a_rate_and_a_recording_or_a_bad_recording_is_refused(self):
        folder = Path(self.folder.name)
        (folder / "late.up").write_text("5\n3\n", encoding="utf-8")
        for fields, expected in (
                ({"bitsPerSecond": 1_000_000, "downlinkTrace": "late.up"},
                 r'both "bitsPerSecond" and "downlinkTrace": give one of them for this direction$'),
                ({"downlinkTrace": "late.up"}, r"late.up:2: time 3 is earlier than the line before's 5$"),
                ({"uplinkBitsPerSecond": 1_000_000}, r'missing "bitsPerSecond" \(or "downlinkTrace"\)$')):
            path = folder / "bad.json"
            path.write_text(json.dumps({"name": "bad", "oneWayDelayMs": 25, **fields}), encoding="utf-8")
            with self.subTest(expected), self.assertRaisesRegex(compare.BadInput, expected):
                self.plan("--log", str(self.log), "--network", str(path))


# A hand-made session for the stall rule: each image line (time_ms, path, status, duration_ms)
# and ns-3's duration for it (None: never completed).
STALL_LINES = [
    (0.0, "/v1/images/search?limit=10&page=1", 200, 300.0, 280.0),
    (100.0, "/images/1.jpg", 200, 200.0, 400.0),   # model 300, ns-3 500
    (100.0, "/images/2.jpg", 200, 200.0, 100.0),   # model 300, ns-3 200
    (100.0, "/images/3.jpg", 499, 150.0, 90.0),    # cancelled at 250
    (100.0, "/images/3.jpg", 200, 500.0, 450.0),   # its second download: model 600, ns-3 550
    (400.0, "/images/4.jpg", 200, 100.0, None),    # model 500, ns-3 never
    (400.0, "/images/5.jpg", 200, 100.0, 300.0),   # model 500, ns-3 700
    (1000.0, "/images/5.jpg", 200, 100.0, 250.0),  # again: model 1100, ns-3 1250
]


class StallTests(unittest.TestCase):
    """The stalls ns-3's arrivals give (compare.stall_count), case by case on a hand-made log,
    and the model's own count when ns-3's arrivals are the model's."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.log = Path(self.folder.name) / "session.csv"
        rows = [f"{t:.3f},GET,{path},{status},1000,1000,0.000,{d:.3f},1,1,h2,high,{t:.6f}"
                for t, path, status, d, _ in STALL_LINES]
        self.log.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")

    def lines(self, ns3_as_model: bool = False) -> list[compare.ImageLine]:
        rows = []
        for number, (t, path, status, model, ns3) in enumerate(STALL_LINES, start=1):
            ns3 = model if ns3_as_model else ns3
            kind = "image" if path.startswith("/images/") else "api"
            rows.append(f"{number},{t:.3f},{kind},{status},1,1,1000,{model:.3f},"
                        f"{'' if ns3 is None else f'{ns3:.3f}'},{int(ns3 is not None)},{t:.6f}")
        return compare.image_lines(self.log, replay_output(*rows))

    def count(self, *displays: tuple[float, str, str, float | None, int],
              ns3_as_model: bool = False) -> compare.Stalls:
        return compare.stall_count([compare.Display(t, f"/images/{n}.jpg", outcome, shown, bool(stalled))
                                    for t, n, outcome, shown, stalled in displays], self.lines(ns3_as_model))

    def test_the_log_lines_carry_both_ends_and_only_images(self):
        lines = self.lines()
        self.assertEqual([(l.path, l.status, l.model_end_ms, l.ns3_end_ms) for l in lines[:3]],
                         [("/images/1.jpg", 200, 300.0, 500.0), ("/images/2.jpg", 200, 300.0, 200.0),
                          ("/images/3.jpg", 499, 250.0, 190.0)])
        self.assertEqual(len(lines), 7)
        self.assertIsNone(lines[4].ns3_end_ms)

    def test_a_memory_hit_stalls_in_ns3_only_when_ns3_had_not_delivered_it(self):
        self.assertEqual(self.count((350, 1, "memory", 350, 0)).ns3, 1)   # ns-3 500 > 350
        self.assertEqual(self.count((350, 2, "memory", 350, 0)).ns3, 0)   # ns-3 200
        self.assertEqual(self.count((510, 1, "memory", 510, 0)).ns3, 0)   # at 510 ns-3 has it
        self.assertEqual(self.count((600, 4, "memory", 600, 0)).ns3, 1)   # ns-3 never completed
        self.assertEqual(self.count((200, 9, "memory", 200, 0)).ns3, 0)   # no line: no stall
        # the 200 line arrived last by the model's end: at 1200 the second download of 5 (ns-3
        # 1250), not the first (ns-3 700); at 750 the first (the second's model end is later)
        self.assertEqual(self.count((1200, 5, "memory", 1200, 0)).ns3, 1)
        self.assertEqual(self.count((750, 5, "memory", 750, 0)).ns3, 0)
        self.assertEqual(self.count((550, 5, "memory", 550, 0)).ns3, 1)   # model 500 <= 550 < ns-3 700
        # a cancelled line is no memory hit's: at 260 the 499 of 3 ended, no 200 had
        self.assertEqual(self.count((260, 3, "memory", 260, 0)).ns3, 0)

    def test_a_stalled_display_shown_waits_as_much_longer_or_shorter_as_ns3_is(self):
        # 1: the cell at 250 showed it at 300 (its arrival); ns-3 200 ms later: still a stall
        self.assertEqual(self.count((250, 1, "miss", 300, 1)).ns3, 1)
        # 2: ns-3 100 ms earlier than the model's 300; at 250 shown 300: -100 + 50 < 0, no stall
        self.assertEqual(self.count((250, 2, "inflight", 300, 1)).ns3, 0)
        # ... at 210 shown 300: -100 + 90 < 0; at 200 shown 300: -100 + 100 = 0, a stall
        self.assertEqual(self.count((210, 2, "inflight", 300, 1)).ns3, 0)
        self.assertEqual(self.count((200, 2, "inflight", 300, 1)).ns3, 1)

    def test_a_stalled_display_never_shown_stalls_when_ns3_arrives_at_or_after_it(self):
        self.assertEqual(self.count((250, 2, "inflight", None, 1)).ns3, 0)  # ns-3 200 < 250
        self.assertEqual(self.count((200, 2, "inflight", None, 1)).ns3, 1)  # ns-3 200 >= 200
        self.assertEqual(self.count((250, 1, "miss", None, 1)).ns3, 1)      # ns-3 500

    def test_a_stalled_display_of_a_cancelled_missing_or_unfinished_line_stalls_both_sides(self):
        self.assertEqual(self.count((200, 3, "inflight", None, 1)).ns3, 1)  # first end >= 200: the 499
        self.assertEqual(self.count((450, 4, "miss", 500, 1)).ns3, 1)       # ns-3 never completed
        self.assertEqual(self.count((450, 9, "miss", None, 1)).ns3, 1)      # no line of its path
        self.assertEqual(self.count((1200, 2, "miss", None, 1)).ns3, 1)     # none ending after it
        # the first line ending at or after t: at 300 the 499 ended (250), the 200 of 3 matches
        self.assertEqual(self.count((300, 3, "inflight", 600, 1)).ns3, 1)   # -50 + 300 >= 0
        self.assertEqual(self.count((590, 3, "inflight", 600, 1)).ns3, 0)   # -50 + 10 < 0

    def test_disk_and_unstalled_displays_are_as_the_model_says(self):
        stalls = self.count((350, 1, "disk", 360, 0), (350, 1, "disk", 400, 1),
                            (250, 1, "inflight", 250, 0), (250, 1, "miss", 250, 0))
        self.assertEqual((stalls.displays, stalls.model, stalls.ns3, stalls.gained, stalls.lost),
                         (4, 1, 1, 0, 0))

    def test_the_counts_add_up_gained_and_lost(self):
        stalls = self.count((350, 1, "memory", 350, 0), (250, 2, "inflight", 300, 1),
                            (250, 1, "miss", 300, 1), (350, 2, "memory", 350, 0))
        self.assertEqual((stalls.displays, stalls.model, stalls.ns3, stalls.gained, stalls.lost),
                         (4, 2, 2, 1, 1))

    def test_with_ns3_arriving_when_the_model_does_the_count_is_the_models(self):
        displays = [(350, 1, "memory", 350, 0), (510, 1, "memory", 510, 0), (600, 4, "memory", 600, 0),
                    (200, 9, "memory", 200, 0), (1200, 5, "memory", 1200, 0), (550, 5, "memory", 550, 0),
                    (250, 1, "miss", 300, 1), (250, 2, "inflight", 300, 1), (200, 2, "inflight", None, 1),
                    (250, 1, "miss", None, 1), (200, 3, "inflight", None, 1), (450, 4, "miss", 500, 1),
                    (450, 9, "miss", None, 1), (1200, 2, "miss", None, 1), (590, 3, "inflight", 600, 1),
                    (350, 1, "disk", 360, 0), (350, 1, "disk", 400, 1), (250, 1, "inflight", 250, 0)]
        stalls = self.count(*displays, ns3_as_model=True)
        self.assertEqual(stalls.ns3, stalls.model)
        self.assertEqual((stalls.model, stalls.gained, stalls.lost), (10, 0, 0))
        # and on sessions drawn at random under the model's own semantics: a memory hit after
        # its image's arrival, a stalled display before the arrival it waited for
        draw = random.Random(7)
        for _ in range(200):
            displays = []
            for line in self.lines(ns3_as_model=True):
                number = int(line.path.split("/")[-1].split(".")[0])
                end = line.model_end_ms
                if line.status == 200:
                    displays.append((end + draw.uniform(0.001, 500), number, "memory", None, 0))
                t = end - draw.uniform(0, 100)
                shown = draw.choice([None, end if line.status == 200 else None])
                displays.append((t, number, draw.choice(["miss", "inflight"]), shown, 1))
                displays.append((draw.uniform(0, 1500), number, draw.choice(["disk", "miss"]), None,
                                 draw.choice([0, 1]) if draw.random() < 0.5 else 0))
            displays = [d for d in displays if not (d[2] == "miss" and d[4] == 1 and d[0] < 0)]
            stalls = self.count(*sorted(displays), ns3_as_model=True)
            self.assertEqual((stalls.ns3, stalls.gained, stalls.lost), (stalls.model, 0, 0))

    def test_the_band_is_fifteen_percent_of_the_models_count(self):
        def cells(model: int, ns3: int) -> tuple[list[str], list[str]]:
            return compare.stall_cells("net", [compare.Result(stalls=compare.Stalls(10, model, ns3)),
                                               compare.Result()])
        self.assertEqual(cells(20, 23), (["net", "1", "10", "20", "23", "1.150", "0", "0", "ok"], []))
        self.assertEqual(cells(20, 17)[0][-1], "ok")
        self.assertEqual(cells(20, 24)[1], ["stalls, ns-3's 24 over the model's 20, 1.200 outside [0.85, 1.15]"])
        self.assertEqual(cells(20, 16)[0][-1], "FAIL")
        self.assertEqual(cells(0, 0)[0][-1], "ok")
        self.assertEqual(cells(0, 1)[1], ["stalls, ns-3's 1 over the model's 0, none expected outside [0.85, 1.15]"])
        self.assertIsNone(compare.stall_cells("net", [compare.Result()]))

    def test_a_malformed_displays_file_is_refused_in_one_line(self):
        path = Path(self.folder.name) / "displays.csv"
        for text, expected in (("time,path\n", r"displays.csv:1: expected the header"),
                               ("time_ms,path,outcome,shown_ms,stalled\n1.0,/images/1.jpg,cached,,0\n",
                                r"displays.csv:2: expected time_ms,path,outcome"),
                               ("time_ms,path,outcome,shown_ms,stalled\n1.0,/images/1.jpg,miss,x,1\n",
                                r"displays.csv:2: expected")):
            path.write_text(text, encoding="utf-8")
            with self.subTest(text), self.assertRaisesRegex(compare.BadInput, expected):
                compare.read_displays(path)
        path.write_text("time_ms,path,outcome,shown_ms,stalled\n483.333343,/images/1.jpg,miss,,1\n"
                        "500.000000,/images/1.jpg,memory,500.000000,0\n", encoding="utf-8")
        self.assertEqual(compare.read_displays(path),
                         [compare.Display(483.333343, "/images/1.jpg", "miss", None, True),
                          compare.Display(500.0, "/images/1.jpg", "memory", 500.0, False)])


if __name__ == "__main__":
    unittest.main()
