-- wrk script: the REST PATCH star on the realtime benchmark's data. Each request stars or un-stars (toggles) one of 500
-- users per wrk thread on one of 20 posts, as `hearth bench stars --mode increment` toggles its users' stars, so each
-- post's stars map stays near 500 children instead of growing by one with every PATCH (scripts/lib/star-rest.lua).
-- Compared with star-rest.lua it tells what a REST star costs beyond a realtime one apart from what the growing maps
-- cost (docs/benchmarks.md, "restpath (session 31)").
-- usage: wrk -t2 -c64 -d15s -s scripts/lib/star-rest-toggle.lua <url> -- <run id>
local threads = {}

function setup(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    run = args[1]
    starred = {}
end

function request()
    local post = math.random(0, 19)
    local user = "u" .. ((thread_id - 1) * 500 + math.random(0, 499))
    local pair = post .. "/" .. user
    local starring = not starred[pair]
    starred[pair] = starring
    local value = starring and "true" or "null"
    local increment = starring and 1 or -1
    local postPath = "posts/" .. run .. "-p" .. post
    local copyPath = "user-posts/" .. run .. "-a" .. (post % 8) .. "/" .. run .. "-p" .. post
    local members = {}
    for _, base in ipairs({ postPath, copyPath }) do
        table.insert(members, '"' .. base .. '/stars/' .. user .. '":' .. value)
        table.insert(members, '"' .. base .. '/starCount":{".sv":{"increment":' .. increment .. '}}')
    end
    return wrk.format("PATCH", "/.json", { ["Content-Type"] = "application/json" }, "{" .. table.concat(members, ",") .. "}")
end
