"""The emulated link's own tests: the harness (emulated-link) and ns-3's real-time link (link.cc)
deliver what the network file says to the kernel's TCP, and leave nothing behind.

Run by .ci/ns3-check (python3 -m unittest discover -s Validation/emulation). Skipped, saying
why, without root, TUN, iproute2 or the built link (.ci/ns3-check --build).
"""
import json
import math
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HARNESS = os.path.join(HERE, "emulated-link")
LINK = os.path.join(ROOT, ".build-ns3", "link")
BULK = os.path.join(HERE, "bulk.py")

# A fixed link: 20 Mbit/s down, 5 up, 20 ms each way, a 200-packet queue, no loss; Linux's
# defaults otherwise (CUBIC, an initial window of 10, 1,448-byte segments).
FIXED = {
    "name": "fixed-20", "bitsPerSecond": 20_000_000, "uplinkBitsPerSecond": 5_000_000,
    "oneWayDelayMs": 20, "uplinkDelayMs": 20, "loss": 0, "uplinkLoss": 0, "bufferPackets": 200,
    "initialWindowSegments": 10, "maxSegmentBytes": 1448, "slowStartAfterIdle": True, "tls": True,
    "http": "2",
}


def why_not_runnable():
    if os.geteuid() != 0:
        return "needs root: the harness makes network namespaces and TAP devices"
    if not os.path.exists("/dev/net/tun"):
        return "needs /dev/net/tun (TUN/TAP), which this kernel lacks"
    if shutil.which("ip") is None:
        return "needs ip (iproute2)"
    if not os.access(LINK, os.X_OK):
        return f"no {LINK}: .ci/ns3-check --build builds it"
    return None


def allowed_congestion_controls():
    with open("/proc/sys/net/ipv4/tcp_allowed_congestion_control", encoding="utf-8") as file:
        return file.read()


def namespaces():
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[0] for line in listing.splitlines() if line.strip())


@unittest.skipIf(why_not_runnable() is not None, why_not_runnable() or "")
class EmulatedLinkTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="emulated-link-")
        self.before = namespaces()
        self.allowed = allowed_congestion_controls()

    def tearDown(self):
        shutil.rmtree(self.folder)
        # Nothing left behind: the namespaces, and the machine's allowed congestion controls.
        self.assertEqual(namespaces(), self.before)
        self.assertEqual(allowed_congestion_controls(), self.allowed)

    def network(self, **changes):
        path = os.path.join(self.folder, "network.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump({**FIXED, **changes}, file)
        return path

    def run_harness(self, network, server, client, timeout=60):
        return subprocess.run([HARNESS, "--network", network, "--server", server, "--client", client],
                              capture_output=True, text=True, timeout=timeout)

    def test_a_bulk_download_takes_the_time_the_rate_and_delay_say(self):
        count = 8_000_000
        result = self.run_harness(self.network(), f"exec python3 {BULK} serve 5001",
                                  f"exec python3 {BULK} fetch $EMULATED_SERVER_ADDRESS 5001 {count}")
        self.assertEqual(result.returncode, 0, result.stderr)
        figures = json.loads(result.stdout)
        self.assertEqual(figures["bytes"], count)
        round_trip = 2 * 0.020
        # A one-byte exchange (the median of five): the two delays, a few small packets'
        # transmission and the simulator's lateness (p99 about 0.2 ms; a rare stall of up to
        # 5 ms, which the median leaves out: README.md here).
        self.assertGreaterEqual(figures["round_trip_s"], round_trip, figures)
        self.assertLess(figures["round_trip_s"], round_trip + 0.002, figures)
        # The transfer: the request's round trip, then every segment through the 20 Mbit/s
        # downlink, each 1,448 bytes of data, 52 of TCP/IP headers with timestamps and PPP's 2.
        segments = math.ceil(count / 1448)
        wire_bits = (count + segments * (52 + 2)) * 8
        expected = round_trip + wire_bits / FIXED["bitsPerSecond"]
        ratio = figures["transfer_s"] / expected
        # Never faster than the link; slower by slow start's first round trips (about 1.3 % at
        # this rate and delay) and by CUBIC's losses at the full queue, which SACK recovers
        # without leaving the link idle.
        self.assertGreaterEqual(ratio, 1.0, figures)
        self.assertLess(ratio, 1.05, figures)
        self.assertIn("info: fixed-20:", result.stderr)

    def test_the_clients_status_is_the_harness_status_and_nothing_is_left_on_failure(self):
        result = self.run_harness(self.network(), "sleep 30", "exit 3")
        self.assertEqual(result.returncode, 3, result.stderr)

    def test_a_rate_past_what_the_link_keeps_up_with_is_refused_in_one_line(self):
        network = self.network(bitsPerSecond=500_000_000)
        result = self.run_harness(network, "sleep 30", "true")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.strip().splitlines(),
                         [f"emulated-link: {network}: \"bitsPerSecond\" 500 Mbit/s: the emulated link keeps up "
                          f"with 100 Mbit/s at most on this machine"])


if __name__ == "__main__":
    unittest.main()
