-- Copyright 2026 The perlin4d authors
-- SPDX-License-Identifier: ISC
--
-- Waiting in headless Ardour 7 for what the tools/ardour-*.lua scripts
-- need, instead of fixed sleeps: the transport at a place, rolling or
-- stopped, the engine a number of samples further (a control set from Lua
-- reaches the plugin at the engine's next cycle), or any condition.  On a
-- loaded machine the dummy backend runs late and drops cycles, so a sleep
-- long enough at rest may be too short; these wait for the thing itself.
-- Each polls every 10 ms and raises an error after 120 s (a hang, not a
-- slow machine).  Load it from a script beside it:
--
--   local here = debug.getinfo (1, "S").source:match ("^@?(.*/)") or "./"
--   local wait = dofile (here .. "ardour-wait.lua")

local wait = {}

local POLL_US = 10000
local LIMIT_S = 120

--- Poll ok () until it returns true; what names the wait in the error.
function wait.until_true (what, ok)
  for _ = 1, LIMIT_S * 1000000 // POLL_US do
    if ok () then return end
    ARDOUR.LuaAPI.usleep (POLL_US)
  end
  error ("gave up after " .. LIMIT_S .. " s waiting for " .. what)
end

--- The transport stopped at sample (after a request_locate).
function wait.located (sample)
  wait.until_true ("the locate to " .. sample, function ()
    return not Session:transport_rolling () and Session:transport_sample () == sample
  end)
end

--- The transport rolling at or past sample (after a request_roll).
function wait.reached (sample)
  wait.until_true ("the transport at " .. sample, function ()
    return Session:transport_rolling () and Session:transport_sample () >= sample
  end)
end

--- The transport stopped (after a request_stop).
function wait.stopped ()
  wait.until_true ("the transport to stop", function ()
    return not Session:transport_rolling ()
  end)
end

--- The engine n_samples further than now: controls set before reach the
--- plugin in the next cycle, whether the transport rolls or not.
function wait.processed (n_samples)
  local from = AudioEngine:processed_samples ()
  wait.until_true (n_samples .. " samples of processing", function ()
    return AudioEngine:processed_samples () >= from + n_samples
  end)
end

return wait
