-- wrk script: Queries.MealsOfDay by Connect's GET form, revalidated: every request carries the
-- ETag of the day's answer, so an unchanged day is answered 304 Not Modified without a body.
-- Env: WORKOUT_TOKEN (base64 session token), WORKOUT_DAY (YYYY-MM-DD, a preloaded day),
-- WORKOUT_ETAG (the day's ETag, from one GET before the run).
local token = os.getenv("WORKOUT_TOKEN")
local y, m, d = string.match(os.getenv("WORKOUT_DAY"), "(%d+)-(%d+)-(%d+)")
local message = string.format('{"day":{"year":%d,"month":%d,"day":%d}}', y, m, d)
local encoded = string.gsub(message, "[^%w]", function(c) return string.format("%%%02X", string.byte(c)) end)
wrk.method = "GET"
wrk.path = "/workout.v1.QueriesService/MealsOfDay?connect=v1&encoding=json&message=" .. encoded
wrk.headers["Authorization"] = "Bearer " .. token
wrk.headers["If-None-Match"] = os.getenv("WORKOUT_ETAG")

function done(summary, latency, requests)
  io.write(string.format('{"ops_per_s": %.1f, "p50_us": %d, "p99_us": %d, "requests": %d, "non_2xx": %d, "errors": %d}\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
