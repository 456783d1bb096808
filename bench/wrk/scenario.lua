-- wrk script of npm run bench: every scenario is this one script, set up by environment variables
-- (bench/run.ts sets them; wrk takes one script per run). done() prints the figures as one JSON
-- line starting with BENCH_JSON, which run.ts reads.
--
--   BENCH_MODE          fixed | ids | mix
--                       fixed: the same request every time (wrk's prebuilt request, the cheapest)
--                       ids:   {id} in BENCH_PATH and BENCH_BODY takes the next id of
--                              BENCH_ID_FIRST..BENCH_ID_LAST, wrapping around (getPet, PATCH, orders)
--                       mix:   BENCH_PATH as GET, and every BENCH_WRITE_EVERY-th request
--                              BENCH_WRITE_METHOD BENCH_WRITE_PATH with BENCH_WRITE_BODY (95/5: 20)
--   BENCH_METHOD, BENCH_PATH, BENCH_BODY, BENCH_CONTENT_TYPE, BENCH_AUTHORIZATION
--
-- With several threads (-t), each thread starts at its own place in the id range.

local env = os.getenv
local mode = env("BENCH_MODE") or "fixed"
local method = env("BENCH_METHOD") or "GET"
local path = env("BENCH_PATH") or "/"
local body = env("BENCH_BODY")
if body == "" then body = nil end
local headers = {}
if env("BENCH_AUTHORIZATION") and env("BENCH_AUTHORIZATION") ~= "" then headers["Authorization"] = env("BENCH_AUTHORIZATION") end
if body then headers["Content-Type"] = env("BENCH_CONTENT_TYPE") or "application/json" end

local threads = {}
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
  table.insert(threads, thread)
end

local first = tonumber(env("BENCH_ID_FIRST") or "1")
local last = tonumber(env("BENCH_ID_LAST") or "1")
local span = last - first + 1
local next_id

function init(args)
  local threads_total = tonumber(env("BENCH_THREADS") or "1")
  next_id = math.floor((index or 0) * span / threads_total)
  if mode == "fixed" then
    wrk.method = method
    wrk.path = path
    -- Added to wrk's own table, which already holds the Host header (a request without it is a 400).
    for k, v in pairs(headers) do wrk.headers[k] = v end
    wrk.body = body
  end
end

local function take_id()
  local id = first + (next_id % span)
  next_id = next_id + 1
  return tostring(id)
end

if mode == "ids" then
  function request()
    local id = take_id()
    local b = body and string.gsub(body, "{id}", id) or nil
    return wrk.format(method, (string.gsub(path, "{id}", id)), headers, b)
  end
elseif mode == "mix" then
  local every = tonumber(env("BENCH_WRITE_EVERY") or "20")
  local write_method = env("BENCH_WRITE_METHOD") or "POST"
  local write_path = env("BENCH_WRITE_PATH") or path
  local write_body = env("BENCH_WRITE_BODY")
  local write_headers = {}
  for k, v in pairs(headers) do write_headers[k] = v end
  write_headers["Content-Type"] = env("BENCH_CONTENT_TYPE") or "application/json"
  local n = 0
  local read_request, write_request
  function request()
    n = n + 1
    if n % every == 0 then
      write_request = write_request or wrk.format(write_method, write_path, write_headers, write_body)
      return write_request
    end
    read_request = read_request or wrk.format("GET", path, headers, nil)
    return read_request
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d,"p999Us":%d,"meanUs":%.1f,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.mean, latency.max))
end
