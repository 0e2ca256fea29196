"""The replay itself, run in ns-3: how it orders what the log says happened at one instant, and
HTTP/2's streams on one connection.

    python3 -m unittest discover -s Validation/ns3 -p 'test_*.py'   (.ci/ns3-check runs it)

Needs the built replay (`.ci/ns3-check --build`, or NS3_REPLAY naming one); skipped without it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import compare

HERE = Path(__file__).resolve().parent
REPLAY = Path(os.environ.get("NS3_REPLAY", HERE.parent.parent / ".build-ns3" / "replay"))
NETWORK = HERE / "sanity" / "lte.json"


@unittest.skipUnless(REPLAY.is_file() and os.access(REPLAY, os.X_OK),
                     f"no ns-3 replay at {REPLAY}: build it with .ci/ns3-check --build")
class SameInstantOrderTests(unittest.TestCase):
    """Two requests the log gives the same instant go out in the order the model sent them: the
    model puts a request on the idle connection that became idle last."""

    def replay(self, first_ends_ms: int, second_ends_ms: int) -> dict[str, float]:
        rows = [
            ",".join(compare.LOG_COLUMNS[:12]),
            f"0.000,GET,/images/1.jpg,200,1000,1000,0.000,{first_ends_ms}.000,1,1,http/1.1,high",
            f"0.000,GET,/images/2.jpg,200,1000,1000,0.000,{second_ends_ms}.000,2,1,http/1.1,high",
            "2000.000,GET,/images/3.jpg,200,300000,300000,0.000,1000.000,1,0,http/1.1,high",
            "2000.000,GET,/images/4.jpg,200,300000,300000,0.000,1000.000,2,0,http/1.1,high",
        ]
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "session.csv"
            log.write_text("\n".join(rows) + "\n", encoding="utf-8")
            done = subprocess.run([str(REPLAY), "--log", str(log), "--network", str(NETWORK)],
                                  capture_output=True, text=True, check=True, timeout=60)
        return {row["connection"]: float(row["ns3_ms"])
                for row in csv.DictReader(io.StringIO(done.stdout)) if row["time_ms"] == "2000.000"}

    def test_the_request_on_the_connection_idle_last_goes_first_whatever_its_number(self):
        # Both 300 KB responses share the bottleneck; the one asked for first is ahead in it.
        second_idle_last = self.replay(first_ends_ms=600, second_ends_ms=700)
        self.assertLess(second_idle_last["2"], second_idle_last["1"])
        first_idle_last = self.replay(first_ends_ms=800, second_ends_ms=700)
        self.assertLess(first_idle_last["1"], first_idle_last["2"])


@unittest.skipUnless(REPLAY.is_file() and os.access(REPLAY, os.X_OK),
                     f"no ns-3 replay at {REPLAY}: build it with .ci/ns3-check --build")
class HTTP2Tests(unittest.TestCase):
    """With "http": "2" every request on a connection is a stream of it: the server interleaves
    their bytes, the high-priority ones first, and a cancel resets its stream only."""

    def replay(self, rows: list[str]) -> tuple[list[dict[str, str]], str]:
        network = json.loads(NETWORK.read_text(encoding="utf-8"))
        network["http"] = "2"
        with tempfile.TemporaryDirectory() as folder:
            log, net = Path(folder) / "session.csv", Path(folder) / "h2.json"
            log.write_text("\n".join([",".join(compare.LOG_COLUMNS[:12])] + rows) + "\n", encoding="utf-8")
            net.write_text(json.dumps(network), encoding="utf-8")
            done = subprocess.run([str(REPLAY), "--log", str(log), "--network", str(net)],
                                  capture_output=True, text=True, check=True, timeout=60)
        return list(csv.DictReader(io.StringIO(done.stdout))), done.stderr

    def test_a_high_priority_stream_asked_for_later_arrives_before_the_low_ones(self):
        rows, _ = self.replay([
            "0.000,GET,/images/1.jpg,200,300000,300000,0.000,3000.000,1,1,h2,low",
            "0.000,GET,/images/2.jpg,200,300000,300000,0.000,3000.000,1,0,h2,low",
            "0.000,GET,/images/3.jpg,200,300000,300000,0.000,3000.000,1,0,h2,low",
            "700.000,GET,/images/4.jpg,200,20000,20000,0.000,300.000,1,0,h2,high",
        ])
        ends = {row["row"]: float(row["time_ms"]) + float(row["ns3_ms"]) for row in rows}
        self.assertTrue(all(ends["4"] < ends[low] for low in "123"), ends)
        # Requests made while the handshakes are under way are timed from when they were made.
        self.assertTrue(all(row["sent_ms"] == row["time_ms"] for row in rows))

    def test_a_reset_stream_keeps_the_connection_for_the_next(self):
        rows, info = self.replay([
            "0.000,GET,/images/1.jpg,499,100000,600000,0.000,800.000,1,1,h2,low",
            "1000.000,GET,/images/2.jpg,200,20000,20000,0.000,300.000,1,0,h2,high",
        ])
        self.assertEqual(rows[0]["ns3_ms"], "")
        self.assertEqual(rows[1]["completed"], "1")
        self.assertIn("on 1 connections", info)

    def test_the_server_keeps_tcp_fed_through_a_fast_recovery(self):
        # Eight 400 KB streams at once on lte's 50-packet buffer: the lone flow overshoots in
        # slow start and recovers. The server writes whenever TCP sends new data, as a socket
        # with TCP_NOTSENT_LOWAT becomes writable, not only when an acknowledgement frees room
        # (none does in fast recovery): all arrive by 3.3 s, as when it writes ahead into the
        # socket's buffer; written only on freed room, TCP starved and they took 5.4 s.
        rows, info = self.replay([
            f"0.000,GET,/images/{i}.jpg,200,400000,400000,0.000,3000.000,1,{int(i == 1)},h2,low" for i in range(1, 9)
        ])
        self.assertTrue(all(row["completed"] == "1" for row in rows))
        self.assertLess(max(float(row["ns3_ms"]) for row in rows), 4000, info)


if __name__ == "__main__":
    unittest.main()
