-- wrk script: Logging.LogWeight over the HTTP face (Connect, JSON): a durable weigh-in per
-- request, each with its own Idempotency-Key, so the server makes a new id for each (a retry
-- with the same key would be a replay).
-- Env: WORKOUT_TOKEN (base64 session token), WORKOUT_NOW_MS (the measurement time, ms).
local token = os.getenv("WORKOUT_TOKEN")
local now = os.getenv("WORKOUT_NOW_MS")
local counter = 0
local thread_tag = ""

function setup(thread)
  thread:set("tag", tostring(math.random(1, 1e9)))
end

function init(args)
  thread_tag = tag or tostring(math.random(1, 1e9))
end

function request()
  counter = counter + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = "wrk-" .. thread_tag .. "-" .. counter,
  }
  local body = string.format('{"entry": {"weightKg": 72.4, "measuredAtMs": "%s"}}', now)
  return wrk.format("POST", "/workout.v1.LoggingService/LogWeight", headers, body)
end

function done(summary, latency, requests)
  io.write(string.format('{"ops_per_s": %.1f, "p50_us": %d, "p99_us": %d, "requests": %d, "non_2xx": %d, "errors": %d}\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
