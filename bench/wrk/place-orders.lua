-- Closed model: each connection places orders one after another, one line for a random SKU in
-- [SKU_FROM, SKU_TO] (one SKU for a flash sale), as a member whose token comes from TOKENS_FILE.
-- Prints one JSON line at the end: requests by status, and latency percentiles in microseconds.
local sku_from = tonumber(os.getenv("SKU_FROM"))
local sku_to = tonumber(os.getenv("SKU_TO"))
local tokens = {}
for line in io.lines(os.getenv("TOKENS_FILE")) do
  if line ~= "token" then tokens[#tokens + 1] = line end
end

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  math.randomseed(os.time() + id * 7919)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local sku = math.random(sku_from, sku_to)
  local token = tokens[math.random(1, #tokens)]
  wrk.headers["Authorization"] = "Bearer " .. token
  return wrk.format(nil, "/api/orders", nil, '{"items":[{"skuId":' .. sku .. ',"quantity":1}]}')
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      counts[tostring(status)] = (counts[tostring(status)] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(counts) do parts[#parts + 1] = '"' .. status .. '":' .. n end
  io.write(string.format('WRK_RESULT {"durationUs":%d,"requests":%d,"errors":%d,"statuses":{%s},'
      .. '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
      summary.duration, summary.requests,
      summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
      table.concat(parts, ","), latency:percentile(50), latency:percentile(90), latency:percentile(99),
      latency.max, latency.mean))
end
