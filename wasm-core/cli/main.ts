/**
 * The command line as a process (bundled to wasm-core/build/sim.mjs, which
 * scripts/sim.mjs runs): cli/sim.ts's runCli() on the process's arguments
 * and streams, its status the process's exit code.
 */
import { runCli } from './sim.js';

/* the hostile-input tests check peak memory and CPU time: MMPLAY_RUSAGE=1 reports them last on stderr */
if (process.env.MMPLAY_RUSAGE)
  process.on('exit', () => {
    const u = process.resourceUsage();
    process.stderr.write(
      `rusage: maxrss ${u.maxRSS} KiB cpu ${Math.round((u.userCPUTime + u.systemCPUTime) / 1000)} ms\n`,
    );
  });

const code = runCli(process.argv.slice(2));
if (code) process.exit(code);
