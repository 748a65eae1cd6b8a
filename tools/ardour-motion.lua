-- Copyright 2026 The perlin4d authors
-- SPDX-License-Identifier: ISC
--
-- Perlin4D Motion on an audio track in headless Ardour 7 (issue 12 item 5).
-- Not part of the test suite; tools/ardour-motion.sh runs it and compares
-- the result with perlin4d-render.  By hand:
--
--   MOTION_DIR=/tmp/x MOTION_PRESET="Breathing tremolo" \
--   MOTION_EXPORT_PRESET=75969a1c-3133-4694-864b-a1fa50e43348 \
--   LV2_PATH=$PWD/build/lv2 ardour7-lua tools/ardour-motion.lua
--
-- (75969a1c-... is Ardour's shipped "WAV @ session-rate", 16-bit with
-- dither: fine to listen to, not for a bit-for-bit comparison).
--
-- What it does, as a user would in the editor:
--   1. a new session at 48 kHz on the "None (Dummy)" backend, whose capture
--      ports play generated sines (-18 dBFS; MOTION_DEVICE to change);
--   2. a mono audio track, record-armed, records MOTION_SECONDS (default 5)
--      from the transport at 0: a region at the session start;
--   3. Perlin4D Motion inserted pre-fader on the track (mono in: Ardour feeds
--      both plugin inputs), MOTION_PRESET loaded (a preset label), then
--      MOTION_SET ("Label=value;Label=value", labels as in the plugin's
--      generic GUI, e.g. "Gain depth=12;Rate=2") applied;
--   4. Track > Bounce (with processing) of the region's range, through the
--      fader (unity) but not the panner, and a bounce of the same range with
--      no processing: the exact input the track played;
--   5. with MOTION_EXPORT_PRESET (an export preset's uuid, found in
--      $XDG_CONFIG_HOME/ardour7/export/ or Ardour's shipped ones), the
--      session range set to the bounced range and Session > Export of it
--      (the master bus) into MOTION_DIR/export/export.wav.
-- It writes MOTION_DIR/result.txt: the region position (song frame), its
-- length, the bounced range (MOTION_START to MOTION_SECONDS), the plugin's
-- latency, the paths of the two bounced sources and of the export.

local here = debug.getinfo (1, "S").source:match ("^@?(.*/)") or "./"
local wait = dofile (here .. "ardour-wait.lua")

local dir     = assert (os.getenv ("MOTION_DIR"), "set MOTION_DIR")
local device  = os.getenv ("MOTION_DEVICE") or "Sine Wave 1K, 1/3 Oct"
local seconds = tonumber (os.getenv ("MOTION_SECONDS") or "5")
local preset  = os.getenv ("MOTION_PRESET") or ""
local sets    = os.getenv ("MOTION_SET") or ""
local start   = tonumber (os.getenv ("MOTION_START") or "0")
local export_preset = os.getenv ("MOTION_EXPORT_PRESET") or ""
local uri     = "urn:perlin4d:motion"

AudioEngine:set_backend ("None (Dummy)", "", "")
AudioEngine:set_device_name (device)
assert (create_session (dir .. "/session", "motion", 48000), "cannot create a session")

local out = assert (io.open (dir .. "/result.txt", "w"))
local function report (k, v) print (k, v); out:write (k, "\t", tostring (v), "\n") end

function run ()
  local tl = Session:new_audio_track (1, 2, nil, 1, "motion", ARDOUR.PresentationInfo.max_order,
                                      ARDOUR.TrackMode.Normal, true)
  local track = tl:front ()
  -- the track's input: the first capture port that plays a signal
  local inp = track:input ()
  inp:disconnect_all (nil)
  local _, t = AudioEngine:get_backend_ports ("", ARDOUR.DataType ("audio"),
                 ARDOUR.PortFlags.IsOutput | ARDOUR.PortFlags.IsPhysical, C.StringVector ())
  local src = t[4]:table ()[1]
  inp:audio (0):connect (src)
  report ("capture_port", src)

  -- record from the session start
  Session:request_locate (0, false, ARDOUR.LocateTransportDisposition.MustStop, ARDOUR.TransportRequestSource.TRS_UI)
  wait.located (0)
  track:rec_enable_control ():set_value (1, PBD.GroupControlDisposition.NoGroup)
  Session:maybe_enable_record (false)
  Session:request_roll (ARDOUR.TransportRequestSource.TRS_UI)
  wait.reached (math.floor ((seconds + 0.7) * 48000))
  Session:request_stop (false, false, ARDOUR.TransportRequestSource.TRS_UI)
  wait.stopped ()
  -- the capture becomes a region once the butler has written it
  local region
  wait.until_true ("the recorded region", function ()
    for r in track:playlist ():region_list ():iter () do region = r end
    return region ~= nil
  end)
  track:rec_enable_control ():set_value (0, PBD.GroupControlDisposition.NoGroup)
  wait.until_true ("the track disarmed", function ()
    return track:rec_enable_control ():get_value () == 0 and not Session:actively_recording ()
  end)

  local pos = region:position ():samples ()
  local len = region:length ():samples ()
  report ("recorded_position", pos)
  report ("recorded_length", len)
  -- the range the check bounces: from MOTION_START seconds (default 0, the
  -- session start) to MOTION_SECONDS
  local s = pos + math.floor (start * 48000)
  local e = pos + math.floor (seconds * 48000)
  assert (e <= pos + len, "recorded less than asked")

  -- Motion on the track, pre-fader
  local proc = ARDOUR.LuaAPI.new_plugin (Session, uri, ARDOUR.PluginType.LV2, "")
  assert (not proc:isnil (), "Ardour refused " .. uri)
  assert (track:add_processor_by_index (proc, 0, nil, true) == 0, "cannot insert the plugin")
  local plugin = proc:to_insert ():plugin (0)
  if preset ~= "" then
    local pr = plugin:preset_by_label (preset)
    assert (pr and pr.valid, "no preset " .. preset)
    assert (plugin:load_preset (pr), "cannot load preset " .. preset)
    report ("preset", pr.label .. " " .. pr.uri)
  end
  -- labels to control ranks
  local rank = {}
  local n = 0
  while true do
    local id, ok = plugin:nth_parameter (n, false)
    if not ok[2] then break end
    rank[plugin:parameter_label (id)] = n
    n = n + 1
  end
  for label, value in string.gmatch (sets, "([^=;]+)=([^;]+)") do
    assert (rank[label], "no control labelled " .. label)
    assert (ARDOUR.LuaAPI.set_processor_param (proc, rank[label], tonumber (value)), "cannot set " .. label)
    report ("set", label .. "=" .. value)
  end
  wait.processed (4800) -- the controls reach the plugin
  for label, r in pairs (rank) do
    local v = ARDOUR.LuaAPI.get_processor_param (proc, r)
    out:write ("control\t", label, "\t", tostring (v), "\n")
  end
  report ("plugin_latency", proc:signal_latency ())

  local function bounce (endpoint, name)
    assert (track:bounceable (endpoint, false), "cannot bounce " .. name)
    local b = track:bounce_range (s, e, ARDOUR.InterThreadInfo (), endpoint, false, name)
    assert (not b:isnil (), "bounce failed: " .. name)
    for c = 0, b:to_audioregion ():n_channels () - 1 do
      report (name .. "_" .. c, b:source (c):to_filesource ():path ())
    end
  end
  bounce (ARDOUR.LuaAPI.nil_proc (), "dry")    -- no processing: the input
  bounce (track:main_outs (), "wet")           -- through Motion and the fader
  report ("range_start", s)
  report ("range_end", e)

  -- Session > Export > Export to Audio File, as the editor's dialog does it
  -- (ARDOUR::SimpleExport: the master bus, through the track's panner and
  -- both faders at unity, freewheeling, not real time) with the preset
  -- MOTION_EXPORT_PRESET (a uuid: tools/ardour-motion.sh writes one for
  -- BWAV 32-bit float at the session rate into
  -- $XDG_CONFIG_HOME/ardour7/export/).  The range is the session range,
  -- set here from the bounced range as the editor's "Markers" ruler would.
  if export_preset ~= "" then
    local loc = Session:locations ():session_range_location ()
    if loc then
      report ("session_range_before", loc:start ():samples () .. ".." .. loc:_end ():samples ())
    end
    local ex = Session:simple_export ()
    if loc then
      loc:set (Temporal.timepos_t (s), Temporal.timepos_t (e))
      loc = Session:locations ():session_range_location ()
      report ("session_range", loc:start ():samples () .. ".." .. loc:_end ():samples ())
    else
      ex:set_range (s, e)   -- no session range: the export's own range
      report ("export_range", s .. ".." .. e)
    end
    Session:save_state ("", false, false, false, false, false)
    assert (ex:set_preset (export_preset), "no export preset " .. export_preset)
    assert (ex:check_outputs (), "nothing to export: no master bus")
    ex:set_name ("export")
    ex:set_folder (dir .. "/export")
    assert (ex:run_export (), "export failed")
    report ("export", dir .. "/export/export.wav")
  end
  Session:save_state ("", false, false, false, false, false)
end

run ()
collectgarbage ()
out:write ("done\t1\n")
out:close ()
close_session ()
