// Loaded with NODE_OPTIONS=--import (where --cpu-prof is not allowed) when CPU_PROF_DIR is set: samples the
// process's CPU through the inspector and writes <dir>/<pid>.cpuprofile when it exits (profile-mix.ts).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // The inspector answers a session's own post synchronously, so the profile is written at once.
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  // On SIGTERM first: the bench stops the server with it, and a slow shutdown may end in SIGKILL.
  process.prependListener('SIGTERM', write);
  process.on('exit', write);
}
