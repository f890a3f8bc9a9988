-- wrk script for scripts/stars-bench.js and scripts/bench-cpu: every request is one star PATCH with a uid never used
-- before.
-- usage: wrk … -s scripts/lib/star-rest.lua <url> -- <target> <body template with UID where the uid goes> [posts]
--        With posts, each star picks one of that many posts at random: POST in the template becomes its number and
--        AUTHOR its author's (the post's number mod 8, as `hearth bench stars` shares posts out among 8 authors).
--        wrk … -s scripts/lib/star-rest.lua <url> -- <target>   (no template: a plain GET of target, the ceiling)
-- When the run ends it prints one line: RESULT {"acked":…,"failed":…,"seconds":…,"perSecond":…,"p50":…,"p99":…}
-- (latencies in ms). In-flight stars when wrk stops are abandoned, not counted, and may still be applied.

local threads = {}

function setup(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    target = args[1]
    template = args[2]
    posts = tonumber(args[3])
    sent = 0
end

function request()
    if template == nil then
        return wrk.format("GET", target)
    end
    sent = sent + 1
    local uid = "t" .. thread_id .. "x" .. sent
    local body = string.gsub(template, "UID", uid)
    if posts then
        local post = math.random(0, posts - 1)
        body = string.gsub(string.gsub(body, "POST", tostring(post)), "AUTHOR", tostring(post % 8))
    end
    return wrk.format("PATCH", target, { ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
    local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
        + summary.errors.timeout
    local acked = summary.requests - summary.errors.status
    local seconds = summary.duration / 1e6
    io.write(string.format(
        'RESULT {"acked":%d,"failed":%d,"seconds":%.3f,"perSecond":%.1f,"p50":%.3f,"p99":%.3f}\n',
        acked, failed, seconds, acked / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
