-- wrk script: replay precomputed requests, one per line "path<TAB>token<TAB>JSON body".
-- wrk -s wrk_replay.lua URL -- FILE [wrap]: without "wrap" a thread that runs out of lines
-- notes it ("exhausted") and repeats its last request (the benchmark then discards the run).
local lines, index, wrap = {}, 0, false
exhausted = 0  -- global: done() reads it through thread:get
refused = ""  -- global: status codes of non-2xx answers and how many, "409=3,422=1"
local counts = {}

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

local verified = false

function request()
  -- wrk calls request() once before the run to check what it returns (script_verify_request)
  -- and sends nothing of it: that call must not use up a line
  if not verified then
    verified = true
    return lines[1]
  end
  index = index + 1
  if index > #lines then
    if wrap then index = 1 else exhausted = exhausted + 1; index = #lines end
  end
  return lines[index]
end

function response(status, headers, body)
  if status >= 300 then
    counts[status] = (counts[status] or 0) + 1
    local parts = {}
    for code, n in pairs(counts) do parts[#parts + 1] = code .. "=" .. n end
    refused = table.concat(parts, ",")
  end
end

function done(summary, latency, requests)
  local out, codes = 0, {}
  for _, thread in ipairs(threads) do
    out = out + (thread:get("exhausted") or 0)
    local r = thread:get("refused")
    if r and r ~= "" then codes[#codes + 1] = r end
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d status_errors=%d socket_errors=%d exhausted=%d " ..
    "p50_us=%d p99_us=%d mean_us=%.1f refused=%s\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    out, latency:percentile(50), latency:percentile(99), latency.mean,
    #codes > 0 and table.concat(codes, ",") or "none"))
end
