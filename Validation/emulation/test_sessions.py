"""sessions.py's comparison, on constructed rows (no link, no bench needed)."""
import unittest

from sessions import compare, quantile

ROW = {"api_requests": "5", "image_requests": "50", "bytes_downloaded": "1000000", "stalls": "20", "stall_ms_p95": "1000"}


class CompareTests(unittest.TestCase):
    def test_each_figure_is_held_to_bench_agrees_band_around_the_simulated_one(self):
        live = {**ROW, "image_requests": "51", "bytes_downloaded": "1030000", "stalls": "23", "stall_ms_p95": "1250"}
        figures = compare(live, ROW, [100.0], [100.0])
        self.assertEqual(figures["image_requests"], (51.0, 50.0, True))  # 2 %: on the edge
        self.assertEqual(figures["bytes_downloaded"], (1030000.0, 1000000.0, False))  # 3 %
        self.assertEqual(figures["stalls"], (23.0, 20.0, True))  # 15 %
        self.assertEqual(figures["stall_ms_p95"], (1250.0, 1000.0, True))  # 25 %
        self.assertTrue(compare({**ROW, "stalls": "24"}, ROW, [], [])["stalls"][2] is False)

    def test_downloads_are_compared_as_distributions(self):
        simulated = [float(t) for t in range(100, 1100, 100)]
        live = [t * 1.3 for t in simulated]
        figures = compare(ROW, ROW, live, simulated)
        self.assertAlmostEqual(figures["download median"][0], 1.3)
        self.assertFalse(figures["download median"][2])
        self.assertEqual(quantile(simulated, 0.9), 1000.0)

    def test_downloads_only_one_side_finished_are_outside(self):
        self.assertEqual(compare(ROW, ROW, [], [500.0])["download p90"], (None, None, False))
        self.assertEqual(compare(ROW, ROW, [], [])["download p90"], (None, None, True))


if __name__ == "__main__":
    unittest.main()
