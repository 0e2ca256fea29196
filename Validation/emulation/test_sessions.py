"""sessions.py's reading of what bench agree --emulated says (no link, no bench needed)."""
import unittest

from sessions import figures, table

CSV = """profile,network,metric,simulated,live,band,within
low-end,wifi,api_requests,5,5,2%,yes
low-end,wifi,image_requests,27,27,2%,yes
low-end,wifi,bytes_downloaded,6197710,6197710,2%,yes
low-end,wifi,stalls,4,3,15%,no
low-end,wifi,stall_ms_p95,212.647,242.107,25%,yes
low-end,wifi,hit_rate,0.428571,0.571429,,
"""
STDOUT = """[1/1] low-end wifi lru memory 471859200 B window 20 browser seed 1
download median: live 55 ms, simulated 56 ms, ratio 0.988 (band 0.8…1.25)  ok
download p90: live 225 ms, simulated 257 ms, ratio 1.877 (band 0.8…1.25)  OUTSIDE
link: wifi: 5.3 s; 1543 packets down, 800 up; drops: 0 queue, 0 loss; late ms: p50 0.112 p99 0.218 max 5.010
0 of 1 configurations within every band
"""


class FiguresTests(unittest.TestCase):
    def test_the_banded_figures_come_from_the_csv_and_the_downloads_from_the_table(self):
        said = figures(CSV, STDOUT)
        self.assertEqual(said["stalls"], ("3/4", False))
        self.assertEqual(said["api_requests"], ("5/5", True))
        self.assertNotIn("hit_rate", said)
        self.assertEqual(said["download median"], ("0.988", True))
        self.assertEqual(said["download p90"], ("1.877", False))
        self.assertEqual(said["late p99"], ("0.218 ms", True))

    def test_downloads_on_neither_side_or_one_side_only(self):
        neither = STDOUT.replace("download median: live 55 ms, simulated 56 ms, ratio 0.988 (band 0.8…1.25)  ok",
                                 "download median: no downloads either side")
        self.assertEqual(figures(CSV, neither)["download median"], ("-", True))
        one = STDOUT.replace("download p90: live 225 ms, simulated 257 ms, ratio 1.877 (band 0.8…1.25)  OUTSIDE",
                             "download p90: downloads on one side only (live 0, simulated 5)  OUTSIDE")
        self.assertEqual(figures(CSV, one)["download p90"], ("one side", False))

    def test_a_figure_missing_is_refused_and_the_table_marks_what_is_outside(self):
        with self.assertRaises(ValueError):
            figures(CSV, "")
        rendered = table([("wifi h2", figures(CSV, STDOUT))])
        self.assertIn("3/4 OUTSIDE", rendered)
        self.assertIn("0.988 ", rendered)


if __name__ == "__main__":
    unittest.main()
