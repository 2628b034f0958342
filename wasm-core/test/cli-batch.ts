/**
 * Runs the command line on many argument lists in one process, for the
 * hostile-input suite (hostile.test.ts starts it with `node --import tsx`):
 * stdin gives a JSON array of [id, args]; for each, cli-run.ts's sim() runs
 * runCli() with its streams in buffers and one JSON line goes to stdout: the id, the exit
 * status, stderr, the CPU time the run took and the process's peak RSS so
 * far (which bounds the run's own). The parent kills a run that hangs and
 * starts another batch after it.
 */
import { readFileSync } from 'node:fs';
import { sim } from './cli-run.js';

const cases = JSON.parse(readFileSync(0, 'utf8')) as [string, string[]][];
for (const [id, args] of cases) {
  const before = process.cpuUsage();
  const { code, err } = sim(...args);
  const cpu = process.cpuUsage(before);
  const line = {
    id,
    code,
    err,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
