-- wrk script for scripts/stars-bench.js and scripts/bench-cpu: every request is one star PATCH.
-- usage: wrk … -s scripts/lib/star-rest.lua <url> -- <target> <body template> [posts [users per thread]]
--        The template's UID becomes the star's user. Without users, a uid never used before (the star only ever
--        adds), and with posts each star picks one of that many posts at random.
--        With users (and posts), stars toggle, as `hearth bench stars --mode increment` and the Redis peer
--        (scripts/peer-stars.js, 1,000 users) do: wrk thread t's k-th star is user `t<t>u<k mod users>` on post
--        (k div users) mod posts, starring on even passes over its users × posts pairs and un-starring on odd ones
--        (VALUE becomes true or null, DELTA 1 or -1). A pair comes back only users × posts stars later, long after
--        its last star was answered, so no two stars of one pair are ever in flight together and each post's maps
--        stay under 2 × users children. Each thread's first request is a shallow GET of target: wrk calls its first
--        thread's `request` once to check it and never sends what it got, which would skip a star the toggling
--        counts on.
--        POST becomes the post's number and AUTHOR its author's (the post's number mod 8, as `hearth bench stars`
--        shares posts out among 8 authors).
--        wrk … -s scripts/lib/star-rest.lua <url> -- <target>   (no template: a plain GET of target, the ceiling)
-- When the run ends it prints one line: RESULT {"acked":…,"failed":…,"seconds":…,"perSecond":…,"p50":…,"p99":…,
-- "sent":[stars made by each wrk thread]} (latencies in ms). In-flight stars when wrk stops are abandoned, not
-- counted, and may still be applied.

local threads = {}

function setup(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    target = args[1]
    template = args[2]
    posts = tonumber(args[3])
    users = tonumber(args[4])
    sent = 0
    checked = false
end

function request()
    if template == nil then
        return wrk.format("GET", target)
    end
    if users and posts and not checked then
        checked = true
        return wrk.format("GET", target .. (target:find("?", 1, true) and "&" or "?") .. "shallow=true")
    end
    local k = sent
    sent = sent + 1
    local uid, post, value, delta
    if users and posts then
        post = math.floor(k / users) % posts
        local starring = math.floor(k / (users * posts)) % 2 == 0
        uid = "t" .. thread_id .. "u" .. (k % users)
        value, delta = starring and "true" or "null", starring and "1" or "-1"
    else
        uid = "t" .. thread_id .. "x" .. sent
        post = posts and math.random(0, posts - 1)
        value, delta = "true", "1"
    end
    local body = template:gsub("UID", uid):gsub("VALUE", value):gsub("DELTA", delta)
    if post then
        body = body:gsub("POST", tostring(post)):gsub("AUTHOR", tostring(post % 8))
    end
    return wrk.format("PATCH", target, { ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
    local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
        + summary.errors.timeout
    local acked = summary.requests - summary.errors.status
    local seconds = summary.duration / 1e6
    local made = {}
    for _, thread in ipairs(threads) do
        table.insert(made, tostring(thread:get("sent") or 0))
    end
    io.write(string.format(
        'RESULT {"acked":%d,"failed":%d,"seconds":%.3f,"perSecond":%.1f,"p50":%.3f,"p99":%.3f,"sent":[%s]}\n',
        acked, failed, seconds, acked / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        table.concat(made, ",")))
end
