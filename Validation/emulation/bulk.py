"""A bulk TCP transfer for the emulated link's own test (test_link.py): the server sends a
number of bytes to each client that connects and asks; the client asks, reads them all and
prints, as JSON, how long the connection's handshake, a one-byte round trip (the median of five)
and the transfer took (seconds, from the monotonic clock).

    python3 bulk.py serve PORT
    python3 bulk.py fetch HOST PORT BYTES
"""
import json
import socket
import sys
import time


def serve(port):
    listener = socket.create_server(("0.0.0.0", port), reuse_port=True)
    block = b"\0" * 65536
    while True:
        connection, _ = listener.accept()
        with connection:
            while True:
                ask = connection.recv(16)
                if not ask:
                    break
                if ask.startswith(b"ping"):
                    connection.sendall(b"p")
                    continue
                left = int(ask.decode())
                while left > 0:
                    left -= connection.send(block[: min(left, len(block))])


def fetch(host, port, count):
    deadline = time.monotonic() + 10
    while True:  # the server may still be starting
        try:
            started = time.monotonic()
            connection = socket.create_connection((host, port), timeout=60)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    connected = time.monotonic()
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    round_trips = []
    for _ in range(5):  # the median of five: one may meet a stall of the real-time simulator's
        sent = time.monotonic()
        connection.sendall(b"ping")
        connection.recv(1)
        round_trips.append(time.monotonic() - sent)
    asked = time.monotonic()
    connection.sendall(str(count).encode())
    received = 0
    while received < count:
        data = connection.recv(1 << 20)
        if not data:
            break
        received += len(data)
    done = time.monotonic()
    connection.close()
    print(json.dumps({"handshake_s": connected - started, "round_trip_s": sorted(round_trips)[2],
                      "transfer_s": done - asked, "bytes": received}))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    else:
        fetch(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
