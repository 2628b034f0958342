/**
 * Where the command line writes, and how it ends. A process run
 * (cli/main.ts) writes to its stdout and stderr and exits with the code;
 * the tests run the same runCli() in their own process with buffers
 * instead (test/cli-run.ts), hundreds of runs without a Node start each.
 */

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: the progress line is drawn */
  readonly tty: boolean;
}

export const processIo: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  get tty() {
    return !!process.stderr.isTTY;
  },
};

/**
 * Thrown to end a run with an exit code, caught by runCli(). Not an Error:
 * a catch that reports any Error's message must not take it for one.
 */
export class CliExit {
  constructor(readonly code: number) {}
}

let current: CliIo = processIo;

/** the run's streams */
export const io = (): CliIo => current;

/** run fn with these streams (runs are synchronous: one at a time) */
export function withIo<T>(streams: CliIo, fn: () => T): T {
  const before = current;
  current = streams;
  try {
    return fn();
  } finally {
    current = before;
  }
}

export function exit(code: number): never {
  throw new CliExit(code);
}

/** the message on stderr, exit status 2 (invalid input) */
export function fail(msg: string): never {
  current.err(`${msg}\n`);
  exit(2);
}
