-- Copyright 2026 The perlin4d authors
-- SPDX-License-Identifier: ISC
--
-- The two Ardour passes of tools/ardour-midi.sh (read it first).
--   MIDI_PASS=create: a session with a MIDI bus "p4d" holding Perlin4D Mod
--     and an audio bus "target"; writes the target's gain control id to
--     $MIDI_DIR/gain_id.txt.
--   MIDI_PASS=run: loads the session (the shell script has bound the gain
--     in Generic MIDI meanwhile), connects the bus's MIDI out to "MIDI
--     Control In", sets Perlin4D Mod's channel 1 to MIDI_MODE (0 7-bit CC 7,
--     2 pitch bend), rolls MIDI_SECONDS and writes "sample frame gain out_1"
--     every 10 ms to $MIDI_DIR/result.txt, then "done".
local here = debug.getinfo (1, "S").source:match ("^@?(.*/)") or "./"
local wait = dofile (here .. "ardour-wait.lua")

AudioEngine:set_backend ("None (Dummy)", "", "")
local work = os.getenv ("MIDI_DIR")
local dir = work .. "/session"

-- Ranks of Perlin4D Mod's control ports among all its control ports, as
-- ARDOUR.LuaAPI.set_processor_param counts them (port index minus the two
-- atom ports; midi_mode_1 is port 25).
local RATE_HZ, CC_1, OUT_1, MIDI_MODE_1 = 1, 15, 19, 23

function create ()
  assert (create_session (dir, "midi", 48000), "cannot create a session")
  local bus = Session:new_midi_route (nil, 1, "p4d", false, ARDOUR.PluginInfo (), nil,
    ARDOUR.PresentationInfo.Flag.MidiBus, ARDOUR.PresentationInfo.max_order):front ()
  local p = ARDOUR.LuaAPI.new_plugin (Session, "urn:perlin4d:mod", ARDOUR.PluginType.LV2, "")
  assert (not p:isnil (), "Perlin4D Mod refused")
  bus:add_processor_by_index (p, 0, nil, true)
  local target = Session:new_audio_route (2, 2, nil, 1, "target",
    ARDOUR.PresentationInfo.Flag.AudioBus, ARDOUR.PresentationInfo.max_order):front ()
  local f = io.open (work .. "/gain_id.txt", "w")
  f:write (target:gain_control ():id ():to_s (), "\n")
  f:close ()
  Session:save_state ("", false, false, false, false, false)
end

function run ()
  assert (load_session (dir, "midi"), "cannot load the session")
  local _, t = Session:engine ():get_ports (ARDOUR.DataType ("midi"), ARDOUR.PortList ())
  local source, control_in
  for port in t[2]:iter () do
    if port:name () == "MIDI Control In" then control_in = port:name () end
    if port:name ():find ("^p4d/midi_out") then source = port end
  end
  assert (source and control_in, "no MIDI Control In: is Generic MIDI active?")
  assert (source:connect (control_in) == 0, "cannot connect")

  local p = Session:route_by_name ("p4d"):nth_plugin (0)
  local mode = tonumber (os.getenv ("MIDI_MODE") or "2")
  ARDOUR.LuaAPI.set_processor_param (p, MIDI_MODE_1, mode)
  ARDOUR.LuaAPI.set_processor_param (p, CC_1, mode == 2 and 128 or 7)
  ARDOUR.LuaAPI.set_processor_param (p, RATE_HZ, tonumber (os.getenv ("MIDI_RATE") or "1"))
  local gain = Session:route_by_name ("target"):gain_control ()
  local out = io.open (work .. "/result.txt", "w")
  wait.processed (14400) -- 0.3 s: the controls reach the plugin, its MIDI the fader
  Session:request_roll (ARDOUR.TransportRequestSource.TRS_UI)
  local seconds = tonumber (os.getenv ("MIDI_SECONDS") or "4")
  -- a row at each poll (10 ms) until the transport is seconds in
  wait.until_true ("the transport at " .. seconds .. " s", function ()
    local sample = Session:transport_sample ()
    out:write (string.format ("sample %d %.9g %.9g\n", sample,
      gain:get_value (), ARDOUR.LuaAPI.get_processor_param (p, OUT_1)))
    return Session:transport_rolling () and sample >= seconds * 48000
  end)
  Session:request_stop (false, false, ARDOUR.TransportRequestSource.TRS_UI)
  wait.stopped ()
  out:write ("done\n")
  out:close ()
end

if os.getenv ("MIDI_PASS") == "create" then create () else run () end
collectgarbage ()
close_session ()
