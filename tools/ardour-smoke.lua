-- Copyright 2026 The perlin4d authors
-- SPDX-License-Identifier: ISC
--
-- Loads the perlin4d plugins into a new Ardour session, as a user inserting
-- them on buses would, rolls the transport and prints the meters.  Not part
-- of the test suite (Ardour is large); run by hand:
--
--   LV2_PATH=$PWD/build/lv2:/usr/lib/lv2 ardour7-lua tools/ardour-smoke.lua
--
-- Ardour 7 loads Perlin4D Mod and Perlin4D Noise and refuses Perlin4D Mod CV
-- ("Port 25 ('CV 1') has no known data type"), which is why Mod CV exists.

local here = debug.getinfo (1, "S").source:match ("^@?(.*/)") or "./"
local wait = dofile (here .. "ardour-wait.lua")

AudioEngine:set_backend ("None (Dummy)", "", "")
local dir = os.tmpname ()
os.remove (dir)
assert (create_session (dir, "perlin4d-smoke", 48000), "cannot create a session")

for _, uri in ipairs ({"urn:perlin4d:mod", "urn:perlin4d:noise", "urn:perlin4d:mod-cv"}) do
  local bus = Session:new_audio_route (2, 2, nil, 1, uri, ARDOUR.PresentationInfo.Flag.AudioBus,
                                       ARDOUR.PresentationInfo.max_order)
  local proc = ARDOUR.LuaAPI.new_plugin (Session, uri, ARDOUR.PluginType.LV2, "")
  if proc:isnil () then
    print (uri, "refused by Ardour")
  else
    local added = bus:front ():add_processor_by_index (proc, 0, nil, true)
    local plugin = proc:to_insert ():plugin (0)
    print (uri, "loaded as", plugin:name (), "with", plugin:parameter_count (), "ports;",
           added == 0 and "inserted" or "not inserted")
  end
end

Session:request_roll (ARDOUR.TransportRequestSource.TRS_UI)
wait.reached (48000 * 1.5)
print ("transport at frame", Session:transport_sample ())
for route in Session:get_routes ():iter () do
  local meter = route:peak_meter ()
  print (route:name (), "peak dBFS", meter:meter_level (0, ARDOUR.MeterType.MeterPeak),
         meter:meter_level (1, ARDOUR.MeterType.MeterPeak))
end
Session:request_stop (false, false, ARDOUR.TransportRequestSource.TRS_UI)
wait.stopped ()
close_session ()
