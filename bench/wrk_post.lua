-- wrk script for bench/wrk_compare.sh: POST one JSON body on every request (keep-alive, wrk's
-- default). The body is the first payload inferperf sent in the same run, so both clients ask the
-- mock for the same work; its path comes from WRK_BODY_FILE.
local f = assert(io.open(assert(os.getenv("WRK_BODY_FILE"), "WRK_BODY_FILE not set"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
