/**
 * Loaded with `--require` into every process of a platform the throughput
 * benchmark starts with `--profile DIR` (through NODE_OPTIONS, which the
 * services inherit). Nothing happens until the benchmark signals: the first
 * SIGUSR2 starts V8's sampling profiler through the inspector, the second
 * writes `DIR/<service>-<pid>.cpuprofile` (Chrome DevTools' format). Node
 * refuses `--cpu-prof` in NODE_OPTIONS, and it would cover start-up too; this
 * covers exactly one phase.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';

export const PROFILE_DIR_VARIABLE = 'BENCH_CPU_PROFILE_DIR';

/** `services/<name>/dist/main.js` gives `<name>`; anything else its script's name. */
export function processLabel(script: string | undefined): string {
  if (!script) return 'node';
  const match = /services\/([^/]+)\/dist\/main\.js$/.exec(script);
  return match?.[1] ?? basename(script, '.js');
}

function install(dir: string): void {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) {
        process.stderr.write(`cpu profile not written: ${error.message}\n`);
        return;
      }
      // The script's own name decides the label: converter families share one main.js, so the family joins it.
      const family = process.env['TRANSMUTE_CONVERTER_FAMILY'];
      const label = `${processLabel(process.argv[1])}${family ? `-${family}` : ''}`;
      writeFileSync(join(dir, `${label}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}

const dir = process.env[PROFILE_DIR_VARIABLE];
if (dir) install(dir);
