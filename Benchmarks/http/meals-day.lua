-- wrk script: Queries.MealsOfDay over the HTTP face (Connect, JSON), one day of the preloaded
-- member's meals (10 meals with 2 items each), every connection kept alive with the same token.
-- Env: WORKOUT_TOKEN (base64 session token), WORKOUT_DAY (YYYY-MM-DD, a preloaded day).
local token = os.getenv("WORKOUT_TOKEN")
local y, m, d = string.match(os.getenv("WORKOUT_DAY"), "(%d+)-(%d+)-(%d+)")
wrk.method = "POST"
wrk.path = "/workout.v1.QueriesService/MealsOfDay"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.body = string.format('{"day": {"year": %d, "month": %d, "day": %d}}', y, m, d)

function done(summary, latency, requests)
  io.write(string.format('{"ops_per_s": %.1f, "p50_us": %d, "p99_us": %d, "requests": %d, "non_2xx": %d, "errors": %d}\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
