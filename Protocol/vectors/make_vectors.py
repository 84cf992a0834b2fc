#!/usr/bin/env python3
"""Writes Protocol/vectors/vectors.json: golden frames of the Workout protocol.

An independent implementation of the framing, written from PROTOCOL.md alone
(no Swift code consulted). Every vector is built from its meaning (encode),
then decoded back from its bytes and checked against that meaning (decode),
so the file only ever holds vectors that survive both directions here.

Needs: protoc on PATH (Debian's protobuf-compiler) and the PyPI package
`protobuf` (pip install protobuf). The Python modules for the .proto files are
generated into a temporary directory at run time; nothing is kept.

Prints nothing on success; writes vectors.json deterministically (the same
bytes on every run). Usage: python3 Protocol/vectors/make_vectors.py
"""

import base64
import hashlib
import importlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL_DIR = os.path.dirname(HERE)
OUTPUT = os.path.join(HERE, "vectors.json")

# ---------------------------------------------------------------------------
# Protocol constants (PROTOCOL.md, "Preface", "Frame layout", "Status codes")
# ---------------------------------------------------------------------------

MAGIC = b"WKRP"
PREFACE_SIZE = 8
HEADER_SIZE = 16
HANDSHAKE_FRAME_LIMIT = 65536
DEFAULT_MAX_FRAME = 4 * 1024 * 1024
COMPRESSION_THRESHOLD = 1024

FRAME_TYPES = {
    1: "HELLO", 2: "REQUEST", 3: "RESPONSE", 4: "STREAM_MESSAGE",
    5: "STREAM_END", 6: "CANCEL", 7: "PING", 8: "PONG", 9: "GOAWAY",
}
FRAME_TYPE_NUMBERS = {v: k for k, v in FRAME_TYPES.items()}

FLAGS = {0x01: "COMPRESSED", 0x02: "DEADLINE"}
FLAG_BITS = {v: k for k, v in FLAGS.items()}

# Which flags each frame type may carry.
ALLOWED_FLAGS = {
    "HELLO": 0, "REQUEST": 0x03, "RESPONSE": 0x01, "STREAM_MESSAGE": 0x01,
    "STREAM_END": 0, "CANCEL": 0, "PING": 0, "PONG": 0, "GOAWAY": 0,
}

STATUS_NAMES = [
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
]
STATUS_NUMBERS = {name: i for i, name in enumerate(STATUS_NAMES)}

# The method catalog: number -> (name, request, response, streaming, session, admin), read from
# Protocol/catalog.json, which scripts/generate-catalog.sh writes from the Swift MethodCatalog
# (the one place a method is declared).
P = "workout.v1."
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "catalog.json"), encoding="utf-8") as _catalog:
    CATALOG = {
        entry["number"]: (entry["name"], entry["request"], entry["response"],
                          entry["server_streaming"], entry["needs_session"], entry["admin_only"])
        for entry in json.load(_catalog)
    }
METHOD_NUMBERS = {entry[0]: number for number, entry in CATALOG.items()}


class ProtocolError(Exception):
    """A malformed preface or frame: (status name, message)."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status


# ---------------------------------------------------------------------------
# Protobuf modules, generated at run time
# ---------------------------------------------------------------------------

def load_messages():
    tmp = tempfile.mkdtemp(prefix="workout-vectors-")
    protos = sorted(
        os.path.join("workout", "v1", name)
        for name in os.listdir(os.path.join(PROTOCOL_DIR, "workout", "v1"))
        if name.endswith(".proto")
    )
    subprocess.run(
        ["protoc", "--proto_path=" + PROTOCOL_DIR, "--python_out=" + tmp] + protos,
        check=True, cwd=PROTOCOL_DIR,
    )
    sys.path.insert(0, tmp)
    classes = {}
    for proto in protos:
        module = importlib.import_module(proto[:-len(".proto")].replace(os.sep, ".") + "_pb2")
        for name, descriptor in module.DESCRIPTOR.message_types_by_name.items():
            classes[descriptor.full_name] = getattr(module, name)
    return classes


MESSAGES = None  # full name -> generated class


def message_to_json(message):
    from google.protobuf import json_format
    return json_format.MessageToDict(message)


def message_from_json(full_name, value):
    from google.protobuf import json_format
    message = MESSAGES[full_name]()
    json_format.ParseDict(value, message)
    return message


# ---------------------------------------------------------------------------
# Preface
# ---------------------------------------------------------------------------

def encode_preface(min_version, max_version, magic=MAGIC):
    return struct.pack(">4sBBH", magic, min_version, max_version, 0)


def decode_preface(data):
    if len(data) != PREFACE_SIZE:
        raise ProtocolError("INVALID_ARGUMENT", "a preface is 8 bytes")
    magic, min_version, max_version, reserved = struct.unpack(">4sBBH", data)
    if magic != MAGIC:
        raise ProtocolError("INVALID_ARGUMENT", "bad magic")
    if reserved != 0:
        raise ProtocolError("INVALID_ARGUMENT", "reserved preface bytes are not zero")
    if min_version > max_version:
        raise ProtocolError("INVALID_ARGUMENT", "min_version above max_version")
    return {"kind": "preface", "magic": magic.decode("ascii"),
            "min_version": min_version, "max_version": max_version}


def choose_version(client_min, client_max, server_min=1, server_max=1):
    """The server's choice: the highest version both speak, or None."""
    high = min(client_max, server_max)
    return high if high >= max(client_min, server_min) else None


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------

def encode_header(length, frame_type, flags, call_id, code):
    return struct.pack(">IBBHII", length, frame_type, flags, 0, call_id, code)


def check_header(length, frame_type, flags, reserved, call_id, code, limit, sender):
    """Applies every header rule of PROTOCOL.md ("Validating a frame") before
    any payload byte is buffered. sender is "client" or "server"."""
    if length > limit:
        raise ProtocolError("RESOURCE_EXHAUSTED", f"frame length {length} over the limit {limit}")
    name = FRAME_TYPES.get(frame_type)
    if name is None:
        raise ProtocolError("INVALID_ARGUMENT", f"unknown frame type {frame_type}")
    if reserved != 0:
        raise ProtocolError("INVALID_ARGUMENT", "reserved header field is not zero")
    if flags & ~0x03:
        raise ProtocolError("INVALID_ARGUMENT", "reserved flag bits set")
    if flags & ~ALLOWED_FLAGS[name]:
        raise ProtocolError("INVALID_ARGUMENT", f"flags 0x{flags:02x} not allowed on {name}")
    client_only = {"REQUEST", "CANCEL"}
    server_only = {"RESPONSE", "STREAM_MESSAGE", "STREAM_END", "GOAWAY"}
    if (sender == "client" and name in server_only) or (sender == "server" and name in client_only):
        raise ProtocolError("INVALID_ARGUMENT", f"{name} may not be sent by the {sender}")
    if name in ("HELLO", "PING", "PONG"):
        if call_id != 0:
            raise ProtocolError("INVALID_ARGUMENT", f"{name} must have call id 0")
    elif name != "GOAWAY" and call_id == 0:
        raise ProtocolError("INVALID_ARGUMENT", f"{name} needs a nonzero call id")
    if name == "REQUEST":
        if code == 0:
            raise ProtocolError("INVALID_ARGUMENT", "REQUEST needs a method number")
    elif name not in ("RESPONSE", "STREAM_END", "GOAWAY") and code != 0:
        raise ProtocolError("INVALID_ARGUMENT", f"{name} must have code 0")
    if name in ("PING", "PONG") and length != 8:
        raise ProtocolError("INVALID_ARGUMENT", f"{name} payload must be 8 bytes")
    if name == "CANCEL" and length != 0:
        raise ProtocolError("INVALID_ARGUMENT", "CANCEL payload must be empty")
    if name == "REQUEST" and flags & 0x02 and length < 4:
        raise ProtocolError("INVALID_ARGUMENT", "DEADLINE flag without 4 bytes of timeout")
    return name


def inflate(body, cap):
    """Inflates a zlib stream, refusing to produce more than cap bytes."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(body, cap + 1)
    except zlib.error as error:
        raise ProtocolError("INVALID_ARGUMENT", f"compressed body is not a zlib stream: {error}")
    if len(out) > cap:
        raise ProtocolError("RESOURCE_EXHAUSTED", f"inflated size over {cap}")
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
        raise ProtocolError("INVALID_ARGUMENT", "compressed body is truncated or has trailing bytes")
    return out


def flag_names(flags):
    return [FLAGS[bit] for bit in sorted(FLAGS) if flags & bit]


def payload_message_type(name, code, call_method):
    """Fully qualified payload message type of a frame, from its type, code and
    (for RESPONSE/STREAM_MESSAGE) the method of its call."""
    if name == "HELLO":
        return None  # decided by direction, see decode_frame
    if name == "REQUEST":
        return P + CATALOG[code][1] if code in CATALOG else None
    if name == "RESPONSE":
        if code != 0:
            return P + "RpcStatus"
        return P + CATALOG[call_method][2] if call_method in CATALOG else None
    if name == "STREAM_MESSAGE":
        return P + CATALOG[call_method][2] if call_method in CATALOG else None
    if name == "STREAM_END":
        return None if code == 0 else P + "RpcStatus"
    if name == "GOAWAY":
        return P + "RpcStatus"
    return None


def encode_frame(meaning, compress_level=6):
    """Builds a frame's bytes from its meaning."""
    name = meaning["type"]
    flags = 0
    for flag in meaning["flags"]:
        flags |= FLAG_BITS[flag]
    if meaning["raw_payload_hex"] is not None:
        payload = bytes.fromhex(meaning["raw_payload_hex"])
    elif meaning["message_type"] is not None:
        body = message_from_json(meaning["message_type"], meaning["message"]).SerializeToString(deterministic=True)
        if flags & FLAG_BITS["COMPRESSED"]:
            compressed = zlib.compress(body, compress_level)
            assert len(body) >= COMPRESSION_THRESHOLD and len(compressed) < len(body), \
                f"{name}: compression does not pay here"
            body = compressed
        payload = body
    else:
        payload = b""
    if flags & FLAG_BITS["DEADLINE"]:
        payload = struct.pack(">I", meaning["timeout_ms"]) + payload
    return encode_header(len(payload), FRAME_TYPE_NUMBERS[name], flags,
                         meaning["call_id"], meaning["code"]) + payload


def decode_frame(data, sender, call_methods, limit=DEFAULT_MAX_FRAME):
    """Decodes exactly one frame into its meaning. call_methods maps the call
    ids of earlier REQUEST frames to their method numbers."""
    if len(data) < HEADER_SIZE:
        raise ProtocolError("INVALID_ARGUMENT", "truncated header")
    length, frame_type, flags, reserved, call_id, code = struct.unpack(">IBBHII", data[:HEADER_SIZE])
    name = check_header(length, frame_type, flags, reserved, call_id, code, limit, sender)
    payload = data[HEADER_SIZE:]
    if len(payload) != length:
        raise ProtocolError("INVALID_ARGUMENT", "length does not match the bytes given")

    timeout_ms = None
    if flags & FLAG_BITS["DEADLINE"]:
        (timeout_ms,) = struct.unpack(">I", payload[:4])
        payload = payload[4:]
    if flags & FLAG_BITS["COMPRESSED"]:
        payload = inflate(payload, limit)

    if name == "REQUEST":
        code_name = CATALOG[code][0] if code in CATALOG else None
    elif name in ("RESPONSE", "STREAM_END", "GOAWAY"):
        code_name = STATUS_NAMES[code] if code < len(STATUS_NAMES) else "UNKNOWN"
    else:
        code_name = None

    raw_payload_hex = None
    message_type = None
    message = None
    if name in ("PING", "PONG"):
        raw_payload_hex = payload.hex()
    elif name == "HELLO":
        message_type = P + ("ClientHello" if sender == "client" else "ServerHello")
    else:
        message_type = payload_message_type(name, code, call_methods.get(call_id))
    if message_type is not None:
        parsed = MESSAGES[message_type]()
        parsed.ParseFromString(payload)
        message = message_to_json(parsed)
    elif payload and raw_payload_hex is None:
        raise ProtocolError("INVALID_ARGUMENT", f"{name} payload must be empty here")

    if name == "REQUEST":
        call_methods[call_id] = code
    return {
        "kind": "frame", "type": name, "flags": flag_names(flags), "call_id": call_id,
        "code": code, "code_name": code_name, "timeout_ms": timeout_ms,
        "message_type": message_type, "message": message, "raw_payload_hex": raw_payload_hex,
    }


# ---------------------------------------------------------------------------
# Sample data (fixed, so the output is deterministic)
# ---------------------------------------------------------------------------

def uuid7(ms, seed):
    """A UUIDv7 with a fixed timestamp and pseudo-random bits derived from seed."""
    rand = hashlib.sha256(seed.encode()).digest()
    b = bytearray(ms.to_bytes(6, "big") + rand[:10])
    b[6] = 0x70 | (b[6] & 0x0F)  # version 7
    b[8] = 0x80 | (b[8] & 0x3F)  # variant 10
    return bytes(b)


def b64(data):
    return base64.b64encode(data).decode("ascii")


DAY_START_MS = 1743289200000   # 2025-03-30 00:00 Europe/Berlin (CET, UTC+1)
DAY_END_MS = 1743372000000     # 2025-03-31 00:00 Europe/Berlin (CEST, UTC+2): a 23-hour day
LOGIN_AT_MS = 1743340000000
ANNA_ID = uuid7(1735689600000, "anna")
SESSION_ID = uuid7(LOGIN_AT_MS, "session")
TOKEN = hashlib.sha256(b"example session token").digest()  # 32 bytes
LOCAL_DAY = {"year": 2025, "month": 3, "day": 30}

PROFILE = {
    "userId": b64(ANNA_ID), "email": "anna@example.com", "firstName": "Anna",
    "lastName": "Petrova", "age": 34, "heightCm": 168.0, "weightKg": 61.5,
    "fitnessGoal": "FITNESS_GOAL_IMPROVE_ENDURANCE", "timeZone": "Europe/Berlin",
    "shareWithHousehold": True, "role": "ROLE_MEMBER", "createdAtMs": "1735689600000",
    "revision": "3",
}
TOTALS = {
    "totalWorkouts": 9, "totalCaloriesBurned": 3150.0, "points": "450", "level": 1,
    "currentStreakDays": 2, "longestStreakDays": 4,
    "lastWorkoutDay": {"year": 2025, "month": 3, "day": 29},
    "totalActiveSeconds": "24300", "achievementsUnlocked": 1,
}

FOODS = [
    # name, kcal, protein, carbs, fat, servings
    ("Oatmeal with milk", 310.0, 11.5, 48.0, 7.5, 1.0),
    ("Blueberries", 42.0, 0.5, 10.5, 0.25, 0.5),
    ("Boiled egg", 78.0, 6.25, 0.5, 5.25, 1.0),
    ("Rye bread", 165.0, 5.5, 30.0, 1.5, 2.0),
    ("Butter", 72.0, 0.0, 0.0, 8.0, 1.0),
    ("Black coffee", 2.0, 0.25, 0.0, 0.0, 1.0),
    ("Greek yogurt", 146.0, 20.0, 8.0, 4.0, 1.0),
    ("Honey", 64.0, 0.0, 17.25, 0.0, 1.0),
    ("Apple", 95.0, 0.5, 25.0, 0.25, 1.0),
    ("Orange juice", 112.0, 1.75, 26.0, 0.5, 1.0),
]
LUNCH = [
    ("Borscht", 250.0, 9.0, 28.0, 11.0, 1.0),
    ("Sour cream", 58.0, 0.75, 1.25, 5.75, 0.5),
    ("Rye bread", 82.5, 2.75, 15.0, 0.75, 1.0),
    ("Chicken cutlet", 280.0, 24.0, 9.0, 16.0, 1.0),
    ("Buckwheat", 155.0, 5.75, 33.5, 1.5, 1.0),
    ("Cucumber salad", 45.0, 1.25, 5.0, 2.5, 1.0),
    ("Kompot", 90.0, 0.25, 22.5, 0.0, 1.0),
    ("Black tea", 2.0, 0.0, 0.5, 0.0, 1.0),
]
DINNER = [
    ("Salmon fillet", 367.0, 39.25, 0.0, 22.0, 1.0),
    ("Boiled potatoes", 174.0, 3.75, 40.0, 0.25, 2.0),
    ("Green beans", 35.0, 2.0, 7.75, 0.25, 1.0),
    ("Olive oil", 119.0, 0.0, 0.0, 13.5, 1.0),
    ("Tomato salad", 38.0, 1.75, 7.5, 0.5, 1.0),
    ("Mineral water", 0.0, 0.0, 0.0, 0.0, 1.0),
    ("Dark chocolate", 170.0, 2.25, 13.0, 12.0, 0.5),
    ("Herbal tea", 2.0, 0.0, 0.5, 0.0, 1.0),
]
SNACK = [
    ("Almonds", 164.0, 6.0, 6.0, 14.25, 1.0),
    ("Banana", 105.0, 1.25, 27.0, 0.5, 1.0),
    ("Kefir", 104.0, 8.75, 11.5, 2.5, 1.0),
    ("Protein bar", 200.0, 20.0, 22.0, 7.0, 1.0),
]


def food_json(food):
    name, kcal, protein, carbs, fat, servings = food
    return {"name": name, "calories": kcal, "proteinG": protein, "carbsG": carbs,
            "fatG": fat, "servings": servings}


def sums(foods):
    # Figures are multiples of 1/4, so these float sums are exact in any order.
    return {
        "calories": sum(f[1] for f in foods), "proteinG": sum(f[2] for f in foods),
        "carbsG": sum(f[3] for f in foods), "fatG": sum(f[4] for f in foods),
    }


def meal_json(seed, meal_type, eaten_at_ms, name, foods, revision):
    return {
        "id": b64(uuid7(eaten_at_ms, seed)), "mealType": meal_type,
        "eatenAtMs": str(eaten_at_ms), "timeZone": "Europe/Berlin", "localDay": LOCAL_DAY,
        "name": name, "items": [food_json(f) for f in foods], "totals": sums(foods),
        "revision": str(revision), "createdAtMs": str(eaten_at_ms + 60000),
        "updatedAtMs": str(eaten_at_ms + 60000),
    }


def meals_of_day_response():
    meals = [
        meal_json("breakfast", "MEAL_TYPE_BREAKFAST", 1743315300000, "Breakfast", FOODS, 11),
        meal_json("lunch", "MEAL_TYPE_LUNCH", 1743334200000, "Lunch at work", LUNCH, 12),
        meal_json("snack", "MEAL_TYPE_SNACK", 1743345000000, "", SNACK, 13),
        meal_json("dinner", "MEAL_TYPE_DINNER", 1743357600000, "Dinner", DINNER, 14),
    ]
    totals = sums(FOODS + LUNCH + SNACK + DINNER)
    response = {
        "day": LOCAL_DAY, "timeZone": "Europe/Berlin",
        "dayStartMs": str(DAY_START_MS), "dayEndMs": str(DAY_END_MS),
        "meals": meals, "totals": totals,
    }
    for meal in meals:  # canonical JSON omits empty strings
        if meal["name"] == "":
            del meal["name"]
    return response


WORKOUT_AT_MS = 1743321600000  # 2025-03-30 09:00 Europe/Berlin
WORKOUT = {
    "id": b64(uuid7(WORKOUT_AT_MS, "run")), "workoutType": "running",
    "durationSeconds": 2700, "caloriesBurned": 420.5, "exercisesCompleted": 1,
    "performedAtMs": str(WORKOUT_AT_MS), "timeZone": "Europe/Berlin",
    "notes": "Morning run along the river",
}
WORKOUT_STORED = dict(WORKOUT, localDay=LOCAL_DAY, revision="42",
                      createdAtMs="1743324500000", updatedAtMs="1743324500000")
WEIGHED_AT_MS = 1743315000000  # 2025-03-30 08:10 Europe/Berlin
WEIGHT_ENTRY = {
    "id": b64(uuid7(WEIGHED_AT_MS, "weight")), "weightKg": 61.2,
    "measuredAtMs": str(WEIGHED_AT_MS), "timeZone": "Europe/Berlin", "note": "after the run",
}
# A token the server never issued: 73 bytes of a client's making.
FORGED_PAGE_TOKEN = b"\x01" + hashlib.sha256(b"forged resume key").digest() + bytes(8) + hashlib.sha256(b"forged mac").digest()
TOTALS_AFTER = dict(TOTALS, totalWorkouts=10, totalCaloriesBurned=3570.5, points="600",
                    currentStreakDays=3, lastWorkoutDay=LOCAL_DAY, totalActiveSeconds="27000",
                    achievementsUnlocked=3)


# ---------------------------------------------------------------------------
# The vectors
# ---------------------------------------------------------------------------

def preface(name, description, min_version, max_version):
    return {"name": name, "description": description,
            "meaning": {"kind": "preface", "magic": "WKRP",
                        "min_version": min_version, "max_version": max_version}}


def frame(name, description, frame_type, call_id=0, code=0, flags=(), timeout_ms=None,
          message_type=None, message=None, raw_payload_hex=None):
    if frame_type == "REQUEST":
        code_name = CATALOG[code][0]
    elif frame_type in ("RESPONSE", "STREAM_END", "GOAWAY"):
        code_name = STATUS_NAMES[code]
    else:
        code_name = None
    return {"name": name, "description": description, "meaning": {
        "kind": "frame", "type": frame_type, "flags": list(flags), "call_id": call_id,
        "code": code, "code_name": code_name, "timeout_ms": timeout_ms,
        "message_type": None if message_type is None else P + message_type,
        "message": message, "raw_payload_hex": raw_payload_hex}}


def status(name):
    return STATUS_NUMBERS[name]


def method(name):
    return METHOD_NUMBERS[name]


def build_vectors():
    # The sender of each vector, for direction checks when decoding.
    v = []

    def add(sender, entry):
        entry["sender"] = sender
        v.append(entry)

    add("client", preface("client_preface", "The client opens the connection offering protocol versions 1 through 1.", 1, 1))
    add("server", preface("server_preface", "The server answers with the version it chose, 1, as both min_version and max_version.", 1, 1))
    add("client", frame(
        "client_hello", "The client's first frame: a HELLO on call id 0 with its agent, a 4 MiB frame limit and acceptance of compressed frames.",
        "HELLO", message_type="ClientHello",
        message={"agent": "workout-cli/1.0 (Linux)", "maxFrameSize": 4194304, "acceptsCompressed": True}))
    add("server", frame(
        "server_hello", "The server's first frame: version 1 and its limits (4 MiB frames, 64 calls in flight, ping every 30 s, idle timeout 5 min).",
        "HELLO", message_type="ServerHello",
        message={"version": 1, "serverAgent": "workoutd", "serverVersion": "1.0.0",
                 "maxFrameSize": 4194304, "maxCallsInFlight": 64, "pingIntervalMs": 30000,
                 "idleTimeoutMs": 300000, "maxDecompressedSize": 4194304, "acceptsCompressed": True}))
    add("client", frame(
        "request_health", "Call 1 asks Meta.Health, whose request message has no fields, so the payload is empty.",
        "REQUEST", call_id=1, code=method("Meta.Health"), message_type="HealthRequest", message={}))
    add("server", frame(
        "response_health", "The OK answer to call 1: the server is serving and reports its clock and uptime.",
        "RESPONSE", call_id=1, code=status("OK"), message_type="HealthResponse",
        message={"serving": True, "serverAgent": "workoutd", "serverVersion": "1.0.0",
                 "serverTimeMs": "1743339999000", "uptimeMs": "86400000"}))
    add("client", frame(
        "request_login", "Call 2 logs in with Auth.Login (method 101) with an email, a password and a device label.",
        "REQUEST", call_id=2, code=method("Auth.Login"), message_type="LoginRequest",
        message={"email": "anna@example.com", "password": "correct horse battery staple",
                 "deviceName": "Anna's iPhone"}))
    add("server", frame(
        "response_login_ok", "The OK answer to call 2: a 32-byte session token, the new session, the profile, the totals and the revision.",
        "RESPONSE", call_id=2, code=status("OK"), message_type="LoginResponse",
        message={"sessionToken": b64(TOKEN),
                 "session": {"sessionId": b64(SESSION_ID), "deviceName": "Anna's iPhone",
                             "clientAgent": "workout-cli/1.0 (Linux)",
                             "createdAtMs": str(LOGIN_AT_MS), "lastUsedAtMs": str(LOGIN_AT_MS),
                             "expiresAtMs": str(LOGIN_AT_MS + 30 * 86400000), "current": True},
                 "profile": PROFILE, "totals": TOTALS, "revision": "41"}))
    add("client", frame(
        "request_with_deadline", "Call 3 asks Queries.MealsOfDay for 30 March 2025 in Europe/Berlin (a 23-hour day) with a 5,000 ms deadline before the body.",
        "REQUEST", call_id=3, code=method("Queries.MealsOfDay"), flags=["DEADLINE"], timeout_ms=5000,
        message_type="MealsOfDayRequest", message={"day": LOCAL_DAY, "timeZone": "Europe/Berlin"}))
    add("server", frame(
        "response_compressed", "The OK answer to call 3, four meals with 30 food items, compressed with zlib level 6 because the body is over 1,024 bytes and shrinks.",
        "RESPONSE", call_id=3, code=status("OK"), flags=["COMPRESSED"],
        message_type="MealsOfDayResponse", message=meals_of_day_response()))
    add("client", frame(
        "request_log_workout", "Call 4 logs a 45-minute run with Logging.LogWorkout, the client having chosen the record's UUIDv7 id.",
        "REQUEST", call_id=4, code=method("Logging.LogWorkout"), message_type="LogWorkoutRequest",
        message={"workout": WORKOUT}))
    add("server", frame(
        "response_log_workout", "The OK answer to call 4: the stored workout, the new totals (+50 points, streak 3) and the two achievements it unlocked.",
        "RESPONSE", call_id=4, code=status("OK"), message_type="LogWorkoutResponse",
        message={"workout": WORKOUT_STORED, "totals": TOTALS_AFTER, "unlocked": [
            {"achievementId": "workout_10", "title": "Ten workouts", "description": "Complete 10 workouts",
             "points": 100, "unlocked": True, "unlockedAtMs": "1743324500000", "progress": 10, "target": 10},
            {"achievementId": "streak_3", "title": "Three in a row", "description": "Work out 3 days in a row",
             "points": 50, "unlocked": True, "unlockedAtMs": "1743324500000", "progress": 3, "target": 3},
        ]}))
    add("client", frame(
        "request_update_unknown", "Call 5 asks Logging.UpdateWorkout for a workout id the member does not have.",
        "REQUEST", call_id=5, code=method("Logging.UpdateWorkout"), message_type="UpdateWorkoutRequest",
        message={"workout": dict(WORKOUT, id=b64(uuid7(WORKOUT_AT_MS, "missing")), durationSeconds=3000)}))
    add("server", frame(
        "response_not_found", "The error answer to call 5: status NOT_FOUND (5) with an RpcStatus message instead of a response message.",
        "RESPONSE", call_id=5, code=status("NOT_FOUND"), message_type="RpcStatus",
        message={"message": "no workout with this id", "field": "workout.id"}))
    add("client", frame(
        "request_invalid", "Call 6 tries Logging.LogMeal with a food item of negative calories.",
        "REQUEST", call_id=6, code=method("Logging.LogMeal"), message_type="LogMealRequest",
        message={"meal": {"id": b64(uuid7(1743350000000, "bad")), "mealType": "MEAL_TYPE_SNACK",
                          "eatenAtMs": "1743350000000",
                          "items": [{"name": "Cookie", "calories": -50.0}]}}))
    add("server", frame(
        "response_invalid_argument", "The error answer to call 6: INVALID_ARGUMENT (3) naming the field at fault.",
        "RESPONSE", call_id=6, code=status("INVALID_ARGUMENT"), message_type="RpcStatus",
        message={"message": "calories must be between 0 and 10000", "field": "meal.items[0].calories"}))
    add("client", frame(
        "request_watch", "Call 7 opens Streams.Watch (method 701) for changes after revision 41.",
        "REQUEST", call_id=7, code=method("Streams.Watch"), message_type="WatchRequest",
        message={"sinceRevision": "41"}))
    add("server", frame(
        "stream_message_watch", "A STREAM_MESSAGE of call 7: the workout logged at revision 42, the totals, and the end of the backlog.",
        "STREAM_MESSAGE", call_id=7, message_type="WatchEvent",
        message={"changes": [{"revision": "42", "changedAtMs": "1743324500000", "workout": WORKOUT_STORED}],
                 "revision": "42", "totals": TOTALS_AFTER, "caughtUp": True}))
    add("client", frame(
        "cancel", "The client cancels call 7 (the watch); a CANCEL frame has an empty payload.",
        "CANCEL", call_id=7))
    add("server", frame(
        "stream_end_cancelled", "The server ends the cancelled call 7 with STREAM_END CANCELLED (1) and an RpcStatus.",
        "STREAM_END", call_id=7, code=status("CANCELLED"), message_type="RpcStatus",
        message={"message": "cancelled by the client"}))
    add("client", frame(
        "request_export", "Call 8 asks Streams.Export (method 702) for all of the member's data.",
        "REQUEST", call_id=8, code=method("Streams.Export"), message_type="ExportRequest", message={}))
    add("server", frame(
        "stream_end_ok", "The successful end of call 8 after its chunks: STREAM_END with status OK and an empty payload.",
        "STREAM_END", call_id=8, code=status("OK")))
    add("client", frame(
        "request_throttled_login", "Call 9 tries Auth.Login with a wrong password once too often.",
        "REQUEST", call_id=9, code=method("Auth.Login"), message_type="LoginRequest",
        message={"email": "anna@example.com", "password": "guess"}))
    add("server", frame(
        "response_resource_exhausted", "The answer to call 9: RESOURCE_EXHAUSTED (8) from login throttling, with retry_after_ms 30,000.",
        "RESPONSE", call_id=9, code=status("RESOURCE_EXHAUSTED"), message_type="RpcStatus",
        message={"message": "too many failed logins; try again later", "retryAfterMs": 30000}))
    add("client", frame(
        "request_bad_page_token", "Call 10 asks Queries.WorkoutHistory for a next page with a page_token the server never issued (tokens are tamper-evident and bound to their member, method, from_ms and to_ms).",
        "REQUEST", call_id=10, code=method("Queries.WorkoutHistory"), message_type="WorkoutHistoryRequest",
        message={"pageSize": 20, "pageToken": b64(FORGED_PAGE_TOKEN)}))
    add("server", frame(
        "response_bad_page_token", "The answer to call 10: INVALID_ARGUMENT (3) on field page_token; the client starts again from the first page.",
        "RESPONSE", call_id=10, code=status("INVALID_ARGUMENT"), message_type="RpcStatus",
        message={"message": "page_token was not issued for this query (the same member, method, from_ms and to_ms); start again without a page_token",
                 "field": "page_token"}))
    add("client", frame(
        "request_update_weight", "Call 11 corrects a weight entry with Logging.UpdateWeight (method 310): the full entry with its id, applied only if it is still at revision 43.",
        "REQUEST", call_id=11, code=method("Logging.UpdateWeight"), message_type="UpdateWeightRequest",
        message={"entry": WEIGHT_ENTRY, "expectedRevision": "43"}))
    add("server", frame(
        "response_update_weight", "The OK answer to call 11: the entry at its new revision; it is the member's newest, so the profile's weight follows it.",
        "RESPONSE", call_id=11, code=status("OK"), message_type="UpdateWeightResponse",
        message={"entry": dict(WEIGHT_ENTRY, localDay=LOCAL_DAY, revision="44", createdAtMs="1743315060000"),
                 "profileWeightUpdated": True, "profileWeightKg": 61.2}))
    add("server", frame(
        "ping", "The server checks an idle connection with a PING on call id 0 carrying 8 opaque bytes.",
        "PING", raw_payload_hex="0000018fa3c2d4e5"))
    add("client", frame(
        "pong", "The client's PONG echoes the PING's 8 bytes unchanged.",
        "PONG", raw_payload_hex="0000018fa3c2d4e5"))
    add("server", frame(
        "goaway_graceful", "Graceful shutdown: GOAWAY with status OK, last call id 11 (calls above it were not processed), and a readable message.",
        "GOAWAY", call_id=11, code=status("OK"), message_type="RpcStatus",
        message={"message": "server shutting down"}))
    add("client", preface("client_preface_v2_v3", "A newer client offers only protocol versions 2 through 3.", 2, 3))
    add("server", preface("server_preface_refusal", "The server, which speaks only version 1, refuses with a preface of version 0/0.", 0, 0))
    add("server", frame(
        "goaway_version_mismatch", "After the refusal preface the server sends GOAWAY FAILED_PRECONDITION (9) on call id 0 naming the versions it speaks, then closes.",
        "GOAWAY", call_id=0, code=status("FAILED_PRECONDITION"), message_type="RpcStatus",
        message={"message": "this server speaks protocol versions 1...1; the client offered 2...3"}))
    add("server", frame(
        "goaway_bad_magic", "Sent after a refusal preface to a peer whose first 8 bytes were \"GET / HT\" (47 45 54 20 2F 20 48 54), not a preface: GOAWAY INVALID_ARGUMENT (3) naming the versions the server speaks, then close.",
        "GOAWAY", call_id=0, code=status("INVALID_ARGUMENT"), message_type="RpcStatus",
        message={"message": 'this server speaks protocol versions 1...1; bad preface magic 47 45 54 20, expected 57 4B 52 50 ("WKRP")'}))
    add("server", frame(
        "goaway_reserved_bytes", "Sent after a refusal preface to a client whose preface had reserved bytes 00 01 (57 4B 52 50 01 01 00 01): GOAWAY INVALID_ARGUMENT (3) naming the versions the server speaks, then close.",
        "GOAWAY", call_id=0, code=status("INVALID_ARGUMENT"), message_type="RpcStatus",
        message={"message": "this server speaks protocol versions 1...1; preface reserved bytes are 00 01, must be 00 00"}))
    add("server", frame(
        "goaway_min_above_max", "Sent after a refusal preface to a client whose preface offered versions 3 to 1 (57 4B 52 50 03 01 00 00): GOAWAY INVALID_ARGUMENT (3) naming the versions the server speaks, then close.",
        "GOAWAY", call_id=0, code=status("INVALID_ARGUMENT"), message_type="RpcStatus",
        message={"message": "this server speaks protocol versions 1...1; the client offered 3...1, min above max"}))
    add("server", frame(
        "goaway_frame_too_large", "A connection error: the client sent a frame longer than the server's limit, so GOAWAY RESOURCE_EXHAUSTED (8) names the last call the server had taken.",
        "GOAWAY", call_id=9, code=status("RESOURCE_EXHAUSTED"), message_type="RpcStatus",
        message={"message": "frame length 5000000 exceeds max_frame_size 4194304"}))
    return v


def encode(meaning):
    if meaning["kind"] == "preface":
        return encode_preface(meaning["min_version"], meaning["max_version"], meaning["magic"].encode("ascii"))
    return encode_frame(meaning)


def main():
    global MESSAGES
    MESSAGES = load_messages()
    vectors = build_vectors()
    call_methods = {}
    out = []
    for vector in vectors:
        meaning = vector["meaning"]
        if meaning["kind"] == "frame" and meaning["message_type"] is not None:
            # The canonical proto3 JSON form (default values left out).
            meaning["message"] = message_to_json(message_from_json(meaning["message_type"], meaning["message"]))
        data = encode(meaning)
        # Decode the bytes back and require exactly the same meaning.
        if meaning["kind"] == "preface":
            if meaning["min_version"] == 0 and meaning["max_version"] == 0:
                decoded = {"kind": "preface", "magic": data[:4].decode("ascii"),
                           "min_version": data[4], "max_version": data[5]}
            else:
                decoded = decode_preface(data)
        else:
            decoded = decode_frame(data, vector["sender"], call_methods)
        if decoded != meaning:
            raise SystemExit(f"{vector['name']}: decoded meaning differs:\n{decoded}\n!=\n{meaning}")
        out.append({"name": vector["name"], "description": vector["description"],
                    "sender": vector["sender"], "hex": data.hex(), "meaning": meaning})
    # Checks of the negotiation rule on the prefaces used above.
    assert choose_version(1, 1) == 1 and choose_version(2, 3) is None and choose_version(1, 5) == 1
    text = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
