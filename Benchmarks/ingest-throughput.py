#!/usr/bin/env python3
"""The phones' ingest through a running workoutd (plain HTTP on loopback), timed.

  ingest-throughput.py --port PORT --token TOKEN --pid PID [--days 365] [--fit-files 500]

Two measures, each printed as one JSON object:

* hae-steps: a year of one phone's minute-level steps (1,440 Health Auto Export step_count
  points a day), posted a week per request as the app's "Since Last Sync" automation would
  catch up, then the same year again (every sample unchanged). Records/s over the posts.
* fit-files: FIT activities (one run each, 600 records a second apart, written from the
  published protocol as the tests write them) posted one by one to /ingest/workout-file, then
  all again. Files/s.

For each: the server's peak resident memory (VmHWM of /proc/PID/status, read after the run;
VmHWM only grows, so the second measure's peak includes the first's).
"""
import argparse
import datetime
import http.client
import json
import struct
import time


def post(connection, path, token, body, content_type):
    while True:
        connection.request("POST", path, body=body, headers={
            "Authorization": "Bearer " + token, "Content-Type": content_type, "Content-Length": str(len(body))})
        response = connection.getresponse()
        text = response.read()
        if response.status == 429 or (response.status == 503 and b"retry" in text):
            wait = int(response.getheader("Retry-After", "1"))
            time.sleep(wait)
            continue
        if response.status != 200:
            raise SystemExit(f"{path}: {response.status} {text[:400]!r}")
        return json.loads(text)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def week_body(first_day, days):
    points = []
    for offset in range(days):
        day = first_day + datetime.timedelta(days=offset)
        for minute in range(1440):
            stamp = f"{day.isoformat()} {minute // 60:02d}:{minute % 60:02d}:00 +0100"
            points.append('{"qty": %d, "date": "%s", "source": "Mia\'s iPhone"}' % (3 + minute % 17, stamp))
    return ('{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [%s]}]}}' % ",".join(points)).encode()


FIT_CRC = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
           0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]


def fit_crc(data):
    crc = 0
    for byte in data:
        tmp = FIT_CRC[crc & 0xF]
        crc = ((crc >> 4) & 0x0FFF) ^ tmp ^ FIT_CRC[byte & 0xF]
        tmp = FIT_CRC[crc & 0xF]
        crc = ((crc >> 4) & 0x0FFF) ^ tmp ^ FIT_CRC[(byte >> 4) & 0xF]
    return crc


def fit_file(serial, start_unix):
    start = start_unix - 631065600
    records = bytearray()
    # file_id: type, manufacturer, product, serial, time_created.
    records += bytes([0x40, 0, 0]) + struct.pack("<HB", 0, 5) + bytes([0, 1, 0x00, 1, 2, 0x84, 2, 2, 0x84, 3, 4, 0x8C, 4, 4, 0x86])
    records += bytes([0x00]) + struct.pack("<BHHII", 4, 1, 3415, serial, start)
    # record: timestamp, lat, long, heart rate, distance.
    records += bytes([0x41, 0, 0]) + struct.pack("<HB", 20, 5) + bytes([253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 3, 1, 0x02, 5, 4, 0x86])
    for second in range(600):
        records += bytes([0x01]) + struct.pack("<IiiBI", start + second, 562_000_000 + second * 40, 100_000_000, 140 + second % 30, second * 300)
    # session: timestamp, start, sport, elapsed, timer, distance, calories, avg and max heart rate.
    records += bytes([0x42, 0, 0]) + struct.pack("<HB", 18, 9) + bytes([
        253, 4, 0x86, 2, 4, 0x86, 5, 1, 0x00, 7, 4, 0x86, 8, 4, 0x86, 9, 4, 0x86, 11, 2, 0x84, 16, 1, 0x02, 17, 1, 0x02])
    records += bytes([0x02]) + struct.pack("<IIBIIIHBB", start + 600, start, 1, 600_000, 600_000, 180_000, 140, 154, 169)
    header = bytearray([14, 0x20]) + struct.pack("<HI", 2132, len(records)) + b".FIT"
    header += struct.pack("<H", fit_crc(header))
    body = bytes(header + records)
    return body + struct.pack("<H", fit_crc(body))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--fit-files", type=int, default=500)
    arguments = parser.parse_args()
    connection = http.client.HTTPConnection("127.0.0.1", arguments.port, timeout=600)

    first = datetime.date.today() - datetime.timedelta(days=arguments.days + 1)
    weeks = [(first + datetime.timedelta(days=offset), min(7, arguments.days - offset)) for offset in range(0, arguments.days, 7)]
    bodies = [week_body(day, count) for day, count in weeks]
    for round_name in ("first", "again"):
        began = time.monotonic()
        samples = unchanged = refused = 0
        for body in bodies:
            answer = post(connection, "/ingest/health-auto-export", arguments.token, body, "application/json")
            samples += answer["stepsSamples"]
            unchanged += answer["unchanged"]
            refused += sum(answer["refused"].values())
        seconds = time.monotonic() - began
        points = arguments.days * 1440
        print(json.dumps({"measure": "hae-steps", "round": round_name, "points": points, "posts": len(bodies),
                          "bytes": sum(map(len, bodies)), "stored": samples, "unchanged": unchanged, "refused": refused,
                          "seconds": round(seconds, 2), "records_per_second": round(points / seconds),
                          "server_peak_rss_mib": round(peak_rss_kib(arguments.pid) / 1024, 1)}))

    start = int(time.time()) - (arguments.fit_files + 30) * 86400
    files = [fit_file(1_000_000 + index, start + index * 86400) for index in range(arguments.fit_files)]
    for round_name in ("first", "again"):
        began = time.monotonic()
        stored = unchanged = refused = 0
        for body in files:
            answer = post(connection, "/ingest/workout-file", arguments.token, body, "application/vnd.ant.fit")
            stored += answer["workouts"]
            unchanged += answer["unchanged"]
            refused += sum(answer["refused"].values())
        seconds = time.monotonic() - began
        print(json.dumps({"measure": "fit-files", "round": round_name, "files": len(files), "bytes": sum(map(len, files)),
                          "stored": stored, "unchanged": unchanged, "refused": refused, "seconds": round(seconds, 2),
                          "files_per_second": round(len(files) / seconds, 1),
                          "server_peak_rss_mib": round(peak_rss_kib(arguments.pid) / 1024, 1)}))


if __name__ == "__main__":
    main()
