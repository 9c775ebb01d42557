-- The figures bench/lib/load.ts reads, as one JSON line after wrk's own report.
done = function(summary, latency, requests)
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.status, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
