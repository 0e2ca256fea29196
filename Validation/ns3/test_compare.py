"""compare.py's own pieces, without ns-3: moved logs, the --moved figures, percentiles, the
distributions, the plan.

    python3 -m unittest discover -s Validation/ns3 -p 'test_*.py'   (.ci/ns3-check runs it)
"""

from __future__ import annotations

import csv
import json
import math
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

    def test_a_moved_count_out_of_range_is_refused_in_one_line(self):
        with self.assertRaisesRegex(compare.BadInput, r"^--moved: expected a number from 0 to 50$"):
            self.plan("--log", str(self.log), "--network", str(self.lossless), "--moved", "51")


if __name__ == "__main__":
    unittest.main()
