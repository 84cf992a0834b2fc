#!/usr/bin/env python3
"""Holds many hostile connections of one kind against a running workoutd and measures what they
cost: the server's anonymous memory (RssAnon) and a well-behaved member's latency, before and
during. Loopback only; hostile devices connect from 127.0.2.x, the member from 127.0.0.1.
The server must serve plain TCP (`workoutd serve --transport plain`): these devices do not speak TLS.

Kinds (the attacks of issue 15, each as a device that keeps reconnecting when dropped):
  announce-4mib   REQUEST header announcing 4 MiB before any session, then 4 MiB less 1 KiB
  partial-frames  the most a device without a session may send: 64 KiB less 1 KiB of a 64 KiB frame
  idle-slots      finish the handshake, then say nothing
  slow-sender     a frame a byte a second

Prints one JSON object. See Benchmarks/hostile.sh for the whole run (server, owner, all kinds).
Only the standard library: the member's two calls (Auth.Login, Profile.GetProfile) are encoded
by hand.
"""
import argparse
import json
import multiprocessing
import os
import select
import socket
import struct
import time

PREFACE = bytes([0x57, 0x4B, 0x52, 0x50, 1, 1, 0, 0])
HELLO, REQUEST, RESPONSE, GOAWAY, PING, PONG = 1, 2, 3, 9, 7, 8
LOGIN, GET_PROFILE = 101, 201


def frame(kind, call_id=0, code=0, body=b"", length=None):
    return struct.pack(">IBBHII", len(body) if length is None else length, kind, 0, 0, call_id, code) + body


def field(number, value):
    data = value.encode()
    return bytes([(number << 3) | 2, len(data)]) + data


def anonymous_memory(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    return 0


class Member:
    """The well-behaved member: one connection, one call at a time."""

    def __init__(self, port, email, password):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.call_id = 0
        self.sock.sendall(PREFACE + frame(HELLO))
        self.read_exactly(8)
        self.read_frame()  # the server's HELLO
        status, _ = self.call(LOGIN, field(1, email) + field(2, password) + field(3, "hostile-devices.py"))
        if status != 0:
            raise SystemExit(f"login failed with status {status}")

    def read_exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the member's connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_frame(self):
        length, kind, _, _, call_id, code = struct.unpack(">IBBHII", self.read_exactly(16))
        return kind, call_id, code, self.read_exactly(length)

    def call(self, method, body=b""):
        self.call_id += 1
        self.sock.sendall(frame(REQUEST, self.call_id, method, body))
        while True:
            kind, call_id, code, payload = self.read_frame()
            if kind == PING:
                self.sock.sendall(frame(PONG, body=payload))
            elif kind == RESPONSE and call_id == self.call_id:
                return code, payload
            elif kind == GOAWAY:
                raise ConnectionError("the member got GOAWAY")

    def measure(self, seconds, rate, tick=None):
        """GetProfile at `rate` per second for `seconds`; latencies in µs, and errors."""
        latencies, errors = [], 0
        interval = 1.0 / rate
        end = time.monotonic() + seconds
        next_call = time.monotonic()
        while time.monotonic() < end:
            if tick:
                tick()
            now = time.monotonic()
            if now < next_call:
                time.sleep(min(next_call - now, 0.005))
                continue
            next_call += interval
            started = time.perf_counter_ns()
            status, _ = self.call(GET_PROFILE)
            latencies.append((time.perf_counter_ns() - started) / 1000)
            if status != 0:
                errors += 1
        return latencies, errors


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else 0


class Device:
    """One hostile connection; reconnects when the server drops it."""

    def __init__(self, kind, port, source):
        self.kind, self.port, self.source = kind, port, source
        self.sock = None
        self.pending = b""
        self.next_byte_at = 0
        self.reconnects = -1
        self.dropped_at = None  # when the server dropped it; it comes back 100 ms later
        self.connect()

    def drop(self):
        if self.sock:
            self.sock.close()
            self.sock = None
        self.dropped_at = time.monotonic()

    def connect(self):
        self.dropped_at = None
        self.reconnects += 1
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((self.source, 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            self.drop()
            return
        sock.setblocking(False)
        self.sock = sock
        hello = PREFACE + frame(HELLO)
        if self.kind == "announce-4mib":
            self.pending = hello + frame(REQUEST, 1, GET_PROFILE, length=4 << 20) + b"A" * ((4 << 20) - 1024)
        elif self.kind == "partial-frames":
            self.pending = hello + frame(REQUEST, 1, GET_PROFILE, length=65536) + b"A" * (65536 - 1024)
        elif self.kind == "idle-slots":
            self.pending = hello
        elif self.kind == "slow-sender":
            self.pending = hello
            self.trickle = frame(REQUEST, 1, GET_PROFILE, length=100) + b"A" * 100
        self.flush()

    def flush(self):
        try:
            while self.pending:
                sent = self.sock.send(self.pending[:262144])
                self.pending = self.pending[sent:]
        except BlockingIOError:
            pass
        except OSError:
            self.drop()

    def poll(self, now):
        """Reads (and drops) what the server sends; reconnects 100 ms after it closed."""
        if self.sock is None:
            if now - self.dropped_at >= 0.1:
                self.connect()
            return
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    self.drop()
                    return
        except BlockingIOError:
            pass
        except OSError:
            self.drop()
            return
        if self.pending:
            self.flush()
        elif self.kind == "slow-sender" and now >= self.next_byte_at and self.trickle:
            self.next_byte_at = now + 1.0
            self.pending, self.trickle = self.trickle[:1], self.trickle[1:]
            self.flush()


def hold_devices(kind, port, count, report, stop):
    """The attacker, in its own process so that its loop over a thousand sockets never delays
    the member's calls: opens `count` devices, keeps them going until `stop` is set, then puts
    what it held on `report`."""
    devices = []
    opened = time.monotonic()
    for index in range(count):
        devices.append(Device(kind, port, f"127.0.2.{index % 32 + 1}"))
        if index % 50 == 0:
            for device in devices:
                device.poll(time.monotonic())
    report.put({"setup_seconds": round(time.monotonic() - opened, 2)})
    while not stop.is_set():
        now = time.monotonic()
        for device in devices:
            device.poll(now)
        time.sleep(0.002)
    report.put({
        "held_at_end": sum(1 for device in devices if device.sock is not None),
        "reconnects": sum(device.reconnects for device in devices),
    })


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the workoutd process, for /proc/PID/status")
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--kind", required=True, choices=["announce-4mib", "partial-frames", "idle-slots", "slow-sender"])
    parser.add_argument("--count", type=int, default=1000, help="hostile connections, 1..4000")
    parser.add_argument("--seconds", type=float, default=20, help="each measuring window, 1..600 s")
    parser.add_argument("--rate", type=float, default=100, help="the member's calls per second, 1..2000")
    args = parser.parse_args()
    count = max(1, min(args.count, 4000))
    seconds = max(1.0, min(args.seconds, 600.0))
    rate = max(1.0, min(args.rate, 2000.0))

    member = Member(args.port, args.email, args.password)
    memory_before = anonymous_memory(args.pid)
    before, errors_before = member.measure(seconds, rate)

    report, stop = multiprocessing.Queue(), multiprocessing.Event()
    attacker = multiprocessing.Process(target=hold_devices, args=(args.kind, args.port, count, report, stop), daemon=True)
    attacker.start()
    setup = report.get(timeout=600)
    peak = [anonymous_memory(args.pid)]

    def tick():
        peak[0] = max(peak[0], anonymous_memory(args.pid))

    during, errors_during = member.measure(seconds, rate, tick)
    stop.set()
    held = report.get(timeout=60)
    attacker.join(timeout=60)
    print(json.dumps({
        "kind": args.kind,
        "hostile_connections": count,
        "held_at_end": held["held_at_end"],
        "reconnects": held["reconnects"],
        "setup_seconds": setup["setup_seconds"],
        "rss_anon_before_mib": round(memory_before / 2**20, 1),
        "rss_anon_peak_during_mib": round(peak[0] / 2**20, 1),
        "member_calls_before": len(before),
        "member_p50_us_before": round(percentile(before, 50)),
        "member_p99_us_before": round(percentile(before, 99)),
        "member_calls_during": len(during),
        "member_p50_us_during": round(percentile(during, 50)),
        "member_p99_us_during": round(percentile(during, 99)),
        "member_errors": errors_before + errors_during,
    }))


if __name__ == "__main__":
    main()
