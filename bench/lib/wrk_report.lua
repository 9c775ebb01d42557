-- The figures bench/lib/load.ts reads, as one JSON line after wrk's own report: the totals, p50 and
-- p99, and the latency distribution as [percentile, µs] pairs (every percent, every tenth of a
-- percent above 90, and the maximum), from which slices of one measurement are pooled.
done = function(summary, latency, requests)
  local pairs = {}
  local function add(p)
    pairs[#pairs + 1] = string.format('[%g,%d]', p, latency:percentile(p))
  end
  for p = 1, 90 do add(p) end
  for tenth = 901, 999 do add(tenth / 10) end
  pairs[#pairs + 1] = string.format('[100,%d]', latency.max)
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50_us":%d,"p99_us":%d,"quantiles_us":[%s]}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.status, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), table.concat(pairs, ',')))
end
