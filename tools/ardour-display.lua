-- Copyright 2026 The perlin4d authors
-- SPDX-License-Identifier: ISC
--
-- A perlin4d plugin rolling in headless Ardour 7, for tools/ardour-display.sh
-- (which runs it under gdb to catch the plugin's queue_draw calls and to call
-- Ardour's own LV2Plugin::render_inline_display: Ardour's Lua has no binding
-- for the inline display).  DISPLAY_DIR: the work folder; DISPLAY_URI: the
-- plugin (default Perlin4D Mod).
--
-- A session at 48 kHz on the "None (Dummy)" backend, a mono audio track with
-- the plugin inserted, the playhead located to 30 s, 1.5 s of rolling.

local here = debug.getinfo (1, "S").source:match ("^@?(.*/)") or "./"
local wait = dofile (here .. "ardour-wait.lua")

local dir = assert (os.getenv ("DISPLAY_DIR"), "set DISPLAY_DIR")
local uri = os.getenv ("DISPLAY_URI") or "urn:perlin4d:mod"

AudioEngine:set_backend ("None (Dummy)", "", "")
assert (create_session (dir .. "/session", "display", 48000), "cannot create a session")

local tl = Session:new_audio_track (1, 2, nil, 1, "display", ARDOUR.PresentationInfo.max_order,
                                    ARDOUR.TrackMode.Normal, true)
local proc = ARDOUR.LuaAPI.new_plugin (Session, uri, ARDOUR.PluginType.LV2, "")
assert (not proc:isnil (), "Ardour does not find " .. uri)
tl:front ():add_processor_by_index (proc, 0, nil, true)

Session:request_locate (48000 * 30, false, ARDOUR.LocateTransportDisposition.MustStop,
                        ARDOUR.TransportRequestSource.TRS_UI)
wait.located (48000 * 30)
Session:request_roll (ARDOUR.TransportRequestSource.TRS_UI)
wait.reached (48000 * 31.5)
Session:request_stop (false, false, ARDOUR.TransportRequestSource.TRS_UI)
wait.stopped ()
print ("rolled")
close_session ()
