#!/usr/bin/env python3
"""Rounds of silent TLS connections against a running workoutd (TLS), and the server's anonymous
memory (RssAnon) before the first round and after each one (issue 31).

A round opens `--count` connections from 127.0.3.x (several addresses: the server allows 256 per
address), completes the TLS handshake on each, says nothing (no preface), holds them all for a
moment, closes them all, then waits `--settle` seconds before reading the server's RssAnon: the
burst has drained and the server had time to give memory back. Loopback only; the standard
library only (ssl, without verifying the server's certificate: the memory is the point here).

Prints one JSON object: {"rounds": n, "count": n, "before": bytes, "after_rounds": [bytes, ...]}.
See Benchmarks/memory-after-bursts.sh for the whole run.
"""
import argparse
import json
import socket
import ssl
import time


def anonymous_memory(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    return 0


def open_silent(port, count, context):
    """`count` TLS connections with their handshakes complete, from 127.0.3.1 … 127.0.3.8."""
    held = []
    for index in range(count):
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        raw.bind((f"127.0.3.{index % 8 + 1}", 0))
        raw.settimeout(10)
        try:
            raw.connect(("127.0.0.1", port))
            held.append(context.wrap_socket(raw, do_handshake_on_connect=True))
        except OSError:
            raw.close()
    return held


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--hold", type=float, default=1.0)
    parser.add_argument("--settle", type=float, default=12.0)
    arguments = parser.parse_args()

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    before = anonymous_memory(arguments.pid)
    after, opened = [], []
    for _ in range(arguments.rounds):
        held = open_silent(arguments.port, arguments.count, context)
        opened.append(len(held))
        time.sleep(arguments.hold)
        for connection in held:
            connection.close()
        time.sleep(arguments.settle)
        after.append(anonymous_memory(arguments.pid))
    print(json.dumps({"rounds": arguments.rounds, "count": arguments.count, "opened": opened,
                      "before": before, "after_rounds": after}))


if __name__ == "__main__":
    main()
