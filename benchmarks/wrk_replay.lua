-- wrk script: replay precomputed requests, one per line "path<TAB>token<TAB>JSON body".
-- wrk -s wrk_replay.lua URL -- FILE [wrap]: without "wrap" a thread that runs out of lines
-- notes it ("exhausted") and repeats its last request (the benchmark then discards the run).
local lines, index, wrap = {}, 0, false
exhausted = 0  -- global: done() reads it through thread:get

function setup(thread)
  threads = threads or {}
  table.insert(threads, thread)
end

function init(args)
  wrap = args[2] == "wrap"
  for line in io.lines(args[1]) do
    local path, token, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = {["Content-Type"] = "application/json"}
    if token ~= "" then headers["Authorization"] = "Bearer " .. token end
    lines[#lines + 1] = wrk.format("POST", path, headers, body)
  end
end

function request()
  index = index + 1
  if index > #lines then
    if wrap then index = 1 else exhausted = exhausted + 1; index = #lines end
  end
  return lines[index]
end

function done(summary, latency, requests)
  local out = 0
  for _, thread in ipairs(threads) do out = out + (thread:get("exhausted") or 0) end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d status_errors=%d socket_errors=%d exhausted=%d " ..
    "p50_us=%d p99_us=%d mean_us=%.1f\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    out, latency:percentile(50), latency:percentile(99), latency.mean))
end
