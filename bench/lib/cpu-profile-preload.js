// Preloaded into a service process (NODE_OPTIONS=--require, since --cpu-prof is not allowed
// there) when BENCH_CPU_PROF names a directory: profiles the whole process with the inspector
// and writes <dir>/<pid>.cpuprofile when SIGTERM starts the graceful shutdown.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.once('SIGTERM', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
