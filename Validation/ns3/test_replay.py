"""The replay itself, run in ns-3: how it orders what the log says happened at one instant,
HTTP/2's streams on one connection, and links driven by recorded delivery traces (Mahimahi's
format).

    python3 -m unittest discover -s Validation/ns3 -p 'test_*.py'   (.ci/ns3-check runs it)

Needs the built replay (`.ci/ns3-check --build`, or NS3_REPLAY naming one); skipped without it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
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


# A request log's rows for RecordedLinkTests: an image of BYTES on CONNECTION at TIME_MS.
def image_row(time_ms: int, number: int, size: int, connection: int, new: bool) -> str:
    return (f"{time_ms}.000,GET,/images/{number}.jpg,200,{size},{size},0.000,1000.000,"
            f"{connection},{int(new)},http/1.1,high")


def mahimahi(packets: list[tuple[int, int]], times: list[int], start_ms: int) -> list[int]:
    """When each packet (queued at ns, IP bytes), in queue order, leaves an mm-link whose
    recording is `times` read from `start_ms` on: each opportunity serves 1,500 bytes of the
    packets queued strictly before it (a packet partly served goes on at the next), one finding
    nothing queued is lost; the recording repeats with its last time as its period."""
    period, left, waiting, index, cycle = times[-1], [], [], 0, 0
    while len(left) < len(packets):
        for ms in times:
            at = (cycle * period + ms - start_ms) * 1_000_000
            while index < len(packets) and packets[index][0] < at:
                waiting.append(packets[index][1])
                index += 1
            credit = 1500
            while waiting and credit > 0:
                used = min(credit, waiting[0])
                waiting[0] -= used
                credit -= used
                if waiting[0] == 0:
                    waiting.pop(0)
                    left.append(at)
        cycle += 1
    return left


@unittest.skipUnless(REPLAY.is_file() and os.access(REPLAY, os.X_OK),
                     f"no ns-3 replay at {REPLAY}: build it with .ci/ns3-check --build")
class RecordedLinkTests(unittest.TestCase):
    """A direction given as downlinkTrace/uplinkTrace is driven by its recording, as Mahimahi's
    mm-link drives it; recordingStartMs is where the run's 0 sits in the recordings."""

    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="replay-recorded-"))
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)

    def network(self, name: str, **changes) -> Path:
        network = json.loads(NETWORK.read_text(encoding="utf-8"))
        for key, value in changes.items():
            if value is None:
                network.pop(key, None)
            else:
                network[key] = value
        path = self.folder / f"{name}.json"
        path.write_text(json.dumps(network), encoding="utf-8")
        return path

    def recording(self, name: str, text: str) -> str:
        (self.folder / name).write_text(text, encoding="utf-8")
        return name

    def recorded(self, name: str, down: str, up: str, **changes) -> Path:
        return self.network(name, bitsPerSecond=None, uplinkBitsPerSecond=None,
                            downlinkTrace=down, uplinkTrace=up, **changes)

    def replay(self, network: Path, rows: list[str], *extra: str) -> tuple[list[dict[str, str]], str]:
        log = self.folder / "session.csv"
        log.write_text("\n".join([",".join(compare.LOG_COLUMNS[:12])] + rows) + "\n", encoding="utf-8")
        done = subprocess.run([str(REPLAY), "--log", str(log), "--network", str(network), *extra],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        return list(csv.DictReader(io.StringIO(done.stdout))), done.stderr

    def test_a_constant_recording_is_the_fixed_link_of_its_rate_to_within_its_millisecond_grid(self):
        # A file holding `1` is 1,500 bytes every ms: 12 Mbit/s. The two links differ only in
        # when a packet leaves: on the recording at a whole ms (a packet that reaches an idle
        # link waits up to 1 ms for the next; a full one queued behind another leaves 1 ms after
        # it), on the fixed link when its 1,502 wire bytes (the PPP header) have gone, 1.0013
        # ms a full packet, 0.04 ms an ACK. No crossing differs by more than 1 ms, and the grid
        # does not let them add up: every request is within 2.5 ms (1.6 ms at most seen).
        # 1,000 packets of buffer: no drop, whose loss recovery would amplify a 1 ms shift.
        one = self.recording("one.down", "1\n")
        fixed = self.network("fixed", bitsPerSecond=12_000_000, uplinkBitsPerSecond=12_000_000,
                             bufferPackets=1000)
        recorded = self.recorded("recorded", one, one, bufferPackets=1000)
        rows = [image_row(0, 1, 14480, 1, True), image_row(0, 2, 600_000, 2, True)]
        rows += [image_row(3000, 10 + i, 200_000, 10 + i, True) for i in range(6)]
        rows += [image_row(6000, 20, 300_000, 1, False),
                 "6000.000,GET,/v1/images/search?limit=10&page=1,200,931,,276.540,600.000,2,0,http/1.1,high"]
        at_rate, info_fixed = self.replay(fixed, rows)
        on_recording, info_recorded = self.replay(recorded, rows)
        for info in (info_fixed, info_recorded):
            self.assertIn("drops: 0 bottleneck queue, 0 uplink queue", info)
        self.assertIn("downlink recorded", info_recorded)
        for a, b in zip(at_rate, on_recording):
            self.assertEqual((a["completed"], b["completed"]), ("1", "1"))
            self.assertAlmostEqual(float(a["ns3_ms"]), float(b["ns3_ms"]), delta=2.5, msg=a["row"])

    def test_every_packet_leaves_at_the_opportunity_mahimahi_gives_it(self):
        # Down: two opportunities every 3 ms for 300 ms, 300 ms of silence, one every ms for
        # 100 ms: the period is 700 ms, and the run starts 650 ms in, so it wraps after 50 ms.
        # Up: one every 2 ms, a 401 ms period. With whole-ms delays many packets reach a device
        # at an opportunity's very instant (they wait for the next), and ACKs share opportunities.
        down = [ms for ms in range(0, 300, 3) for _ in range(2)] + list(range(600, 701))
        up = list(range(1, 400, 2)) + [401]
        network = self.recorded("mm", self.recording("mm.down", "\n".join(map(str, down)) + "\n"),
                                self.recording("mm.up", "\n".join(map(str, up)) + "\n"),
                                recordingStartMs=650, oneWayDelayMs=25, uplinkDelayMs=25)
        rows = [image_row(0, 1, 300_000, 1, True), image_row(0, 2, 100_000, 2, True),
                image_row(1900, 3, 20_000, 1, False),
                "2950.000,GET,/v1/images/search?limit=10&page=1,200,931,,0.000,100.000,3,1,http/1.1,high"]
        log = self.folder / "link.csv"
        rows_out, _ = self.replay(network, rows, "--link-log", str(log))
        self.assertTrue(all(row["completed"] == "1" for row in rows_out))
        with log.open(encoding="utf-8") as file:
            packets = list(csv.DictReader(file))
        for direction, times in (("down", down), ("up", up)):
            mine = [p for p in packets if p["direction"] == direction]
            queued = [(int(p["queued_ns"]), int(p["ip_bytes"])) for p in mine]
            expected = mahimahi(queued, times, 650)
            self.assertEqual([int(p["left_ns"]) for p in mine], expected, direction)
            self.assertEqual([int(p["arrived_ns"]) - int(p["left_ns"]) for p in mine],
                             [25_000_000] * len(mine), direction)
            # What the test is about happened: opportunities shared, and (the client's ACKs,
            # sent when a packet arrives on the whole-ms grid) packets queued at an opportunity's
            # very instant; downlink packets waiting across the silence after the wrap.
            self.assertGreater(len(expected), len(set(expected)), direction)
            if direction == "up":
                self.assertTrue(any(q in expected for q, _ in queued))
            else:
                self.assertTrue(any(left - q > 100_000_000 for (q, _), left in zip(queued, expected)))

    def test_a_silence_holds_back_the_requests_that_cross_it(self):
        # The same 12 Mbit/s link, once with 2 s of silence from 1 s to 3 s. The request before
        # it and the one after it take the same time to the microsecond; the one made in it
        # waits for the link's return (its SYN leaves at 3,001 ms instead of 1,501).
        steady = self.recorded("steady", self.recording("steady.trace", "1\n"), "steady.trace")
        silent_times = list(range(1, 1001)) + list(range(3001, 6001))
        silent = self.recorded("silent", self.recording("silent.trace", "\n".join(map(str, silent_times)) + "\n"),
                               "silent.trace")
        rows = [image_row(100, 1, 14480, 1, True), image_row(1500, 2, 14480, 2, True),
                image_row(5000, 3, 14480, 3, True)]
        before, _ = self.replay(steady, rows)
        after, _ = self.replay(silent, rows)
        times = [(float(a["ns3_ms"]), float(b["ns3_ms"])) for a, b in zip(before, after)]
        self.assertEqual(times[0][0], times[0][1])
        self.assertEqual(times[2][0], times[2][1])
        self.assertGreaterEqual(times[1][1] - times[1][0], 1500 - 1, times)
        self.assertLess(times[1][1] - times[1][0], 1500 + 400, times)

    def refusal(self, network: Path) -> str:
        log = self.folder / "one.csv"
        log.write_text(",".join(compare.LOG_COLUMNS[:12]) + "\n" + image_row(0, 1, 1000, 1, True) + "\n",
                       encoding="utf-8")
        done = subprocess.run([str(REPLAY), "--log", str(log), "--network", str(network)],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertEqual(done.stdout, "")
        lines = done.stderr.splitlines()
        self.assertEqual(len(lines), 1, done.stderr)
        self.assertTrue(lines[0].startswith("error: "), lines[0])
        return lines[0]

    def test_a_bad_recording_or_direction_is_refused_in_one_line(self):
        good = self.recording("good.trace", "1\n2\n2\n")
        cases = {
            "both": (self.network("both", downlinkTrace=good),
                     'both "bitsPerSecond" and "downlinkTrace"'),
            "neither": (self.network("neither", uplinkBitsPerSecond=None),
                        'missing "uplinkBitsPerSecond" (or "uplinkTrace")'),
            "missing": (self.recorded("missing", good, "nowhere.trace"),
                        "nowhere.trace: cannot read the recording"),
            "empty": (self.recorded("empty", self.recording("empty.trace", "\n\n"), good),
                      "no delivery opportunities"),
            "malformed": (self.recorded("malformed", self.recording("bad.trace", "1\n2ms\n"), good),
                          'bad.trace:2: expected a delivery opportunity\'s time in whole ms'),
            "order": (self.recorded("order", self.recording("order.trace", "5\n7\n3\n"), good),
                      "order.trace:3: time 3 is earlier than the line before's 7"),
            "zero": (self.recorded("zero", good, self.recording("zero.trace", "0\n0\n")),
                     "no time after 0"),
            "start": (self.recorded("start", good, good, recordingStartMs=1.5),
                      '"recordingStartMs" must be a whole number'),
        }
        for case, (network, expected) in cases.items():
            with self.subTest(case):
                self.assertIn(expected, self.refusal(network))


if __name__ == "__main__":
    unittest.main()
