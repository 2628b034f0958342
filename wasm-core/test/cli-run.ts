/**
 * The command line in a test: sim() runs cli/sim.ts's runCli() in this
 * process, its streams in buffers (a Node start, the modules and a wasm
 * compile each cost a process run about 0.3 s of CPU, 215 of them in the
 * suite); simProcess() is `npm run --silent sim -- ...` exactly as
 * docs/cli.md runs it (scripts/sim.mjs, the bundle, the process's exit
 * code). cli.test.ts checks that the two give the same output and status.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { runCli } from '../cli/sim.js';
import { repo } from './helpers.js';

export interface CliOutcome {
  code: number | null;
  out: string;
  err: string;
}

export function sim(...args: string[]): CliOutcome {
  /* the tests name files from the repository's root, as a process run there did */
  if (resolve(process.cwd()) !== resolve(repo))
    throw new Error(`the CLI's tests read files from the repository's root: run them there, not in ${process.cwd()}`);
  const out: string[] = [],
    err: string[] = [];
  const code = runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), tty: false });
  return { code, out: out.join(''), err: err.join('') };
}

export function simProcess(...args: string[]): CliOutcome {
  const r = spawnSync(process.execPath, ['scripts/sim.mjs', ...args], { cwd: repo, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
