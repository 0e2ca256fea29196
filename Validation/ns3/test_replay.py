"""The replay itself, run in ns-3: how it orders what the log says happened at one instant.

    python3 -m unittest discover -s Validation/ns3 -p 'test_*.py'   (.ci/ns3-check runs it)

Needs the built replay (`.ci/ns3-check --build`, or NS3_REPLAY naming one); skipped without it.
"""

from __future__ import annotations

import csv
import io
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
            ",".join(compare.LOG_COLUMNS),
            f"0.000,GET,/images/1.jpg,200,1000,1000,0.000,{first_ends_ms}.000,1,1,http/1.1",
            f"0.000,GET,/images/2.jpg,200,1000,1000,0.000,{second_ends_ms}.000,2,1,http/1.1",
            "2000.000,GET,/images/3.jpg,200,300000,300000,0.000,1000.000,1,0,http/1.1",
            "2000.000,GET,/images/4.jpg,200,300000,300000,0.000,1000.000,2,0,http/1.1",
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


if __name__ == "__main__":
    unittest.main()
