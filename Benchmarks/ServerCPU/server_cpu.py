#!/usr/bin/env python3
"""Measures what one small read request costs the server in CPU time.

Starts `workoutd` (a release build, by path) on a fresh data directory, creates the owner,
opens C connections that log in, then keeps D `Profile.GetProfile` calls in flight on each
for S seconds. The server's CPU time (user + system, from /proc/<pid>/stat) divided by the
calls answered is the server's cost per call, syscalls included. Prints one JSON object.

    server_cpu.py --workoutd .build/release/workoutd [-c 8] [-d 16] [-s 5]

The load client is Python, so throughput here says little; the per-call server CPU is the
figure. workout-bench (issue 7) will measure throughput and latency properly.
"""
import argparse, json, os, select, socket, struct, subprocess, sys, tempfile, time

PASSWORD = "correct horse battery"

def frame(ftype, call_id, code, body=b""):
    return struct.pack(">IBBHII", len(body), ftype, 0, 0, call_id, code) + body

def field(number, data):
    key = (number << 3) | 2
    return bytes([key]) + varint(len(data)) + data

def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)

class Connection:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.next_id = 1
        self.sock.sendall(b"WKRP\x01\x01\x00\x00" + frame(1, 0, 0, field(1, b"server_cpu.py")))
        self.read_exact(8)
        assert self.read_frame()[0] == 1, "expected HELLO"

    def read_exact(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("server closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def read_frame(self):
        length, ftype, flags, _, call_id, code = struct.unpack(">IBBHII", self.read_exact(16))
        return ftype, call_id, code, self.read_exact(length)

    def frames_available(self):
        """Complete frames already buffered or readable without blocking."""
        frames = []
        try:
            chunk = self.sock.recv(1 << 16, socket.MSG_DONTWAIT)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        except BlockingIOError:
            pass
        while len(self.buffer) >= 16:
            length = struct.unpack(">I", self.buffer[:4])[0]
            if len(self.buffer) < 16 + length:
                break
            frames.append(self.read_frame())
        return frames

    def send(self, code, body=b""):
        call_id = self.next_id
        self.next_id += 1
        self.sock.sendall(frame(2, call_id, code, body))
        return call_id

def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workoutd", required=True)
    parser.add_argument("-c", "--connections", type=int, default=8)
    parser.add_argument("-d", "--depth", type=int, default=16)
    parser.add_argument("-s", "--seconds", type=float, default=5)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="workout-cpu-")
    subprocess.run([args.workoutd, "create-owner", "--data-dir", data, "--email", "owner@example.com",
                    "--first-name", "Olga", "--time-zone", "UTC", "--password-stdin"],
                   input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    server = subprocess.Popen([args.workoutd, "serve", "--data-dir", data, "--port", "0", "--log-level", "warning"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.rsplit(":", 1)[1].split(",")[0])
        connections = [Connection(port) for _ in range(args.connections)]
        login = field(1, b"owner@example.com") + field(2, PASSWORD.encode())
        for connection in connections:
            connection.send(101, login)
            _, _, code, _ = connection.read_frame()
            assert code == 0, f"login failed with status {code}"
        for connection in connections:
            for _ in range(args.depth):
                connection.send(201)
        answered = 0
        failed = 0
        start_cpu = cpu_seconds(server.pid)
        start = time.monotonic()
        while time.monotonic() - start < args.seconds:
            readable, _, _ = select.select([c.sock for c in connections], [], [], 1)
            for connection in connections:
                if connection.sock not in readable and not connection.buffer:
                    continue
                for ftype, _, code, _ in connection.frames_available():
                    if ftype != 3:
                        continue
                    answered += 1
                    failed += code != 0
                    connection.send(201)
        elapsed = time.monotonic() - start
        cpu = cpu_seconds(server.pid) - start_cpu
        print(json.dumps({
            "method": "Profile.GetProfile", "connections": args.connections, "depth": args.depth,
            "seconds": round(elapsed, 2), "calls": answered, "errors": failed,
            "calls_per_s": round(answered / elapsed), "server_cpu_s": round(cpu, 3),
            "server_cpu_us_per_call": round(cpu / max(answered, 1) * 1e6, 2),
        }))
    finally:
        server.terminate()
        server.wait(timeout=30)

if __name__ == "__main__":
    sys.exit(main())
