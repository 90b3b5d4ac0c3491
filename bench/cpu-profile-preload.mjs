// Loaded with `node --import ./bench/cpu-profile-preload.mjs server.mjs` by bench/profile-create.ts: the first SIGUSR2
// starts a CPU profile of this process (node:inspector, in-process), the second stops it and writes it to
// $CPU_PROFILE_FILE (a .cpuprofile), so the profile covers the measured load only, not the start-up or the warm-up.
import inspector from "node:inspector";
import fs from "node:fs";

const session = new inspector.Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 500 }, () => session.post("Profiler.start")));
    return;
  }
  running = false;
  session.post("Profiler.stop", (error, result) => {
    if (error) console.error(`cpu profile: ${error.message}`);
    else fs.writeFileSync(process.env.CPU_PROFILE_FILE, JSON.stringify(result.profile));
  });
});
