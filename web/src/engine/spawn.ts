/**
 * Starting the engine worker, and starting it early: the page's entry
 * (main.tsx) calls prestartWorker() for a link that runs something, before
 * the page's own modules have loaded, so that the worker's script and the
 * core's compilation overlap them (the worker was asked for only once they
 * had run: its wasm was ready about 100 ms later than it needed to be). The
 * engine client takes that worker with what it has said meanwhile.
 */

/**
 * The engine worker. Served, it is the module worker Vite builds. The offline
 * single-file build (scripts/build-offline.mjs) defines
 * import.meta.env.MMPLAY_OFFLINE_WORKER as the worker's code, a classic script
 * with the wasm inline: a file:// page cannot start a module worker from a
 * URL, so it runs from a Blob URL. In every other build the constant is
 * undefined and that branch is dropped.
 */
let offlineWorkerUrl: string | undefined;
export function newWorker(): Worker {
  performance.mark('mmplay:worker-start');
  const inline: string | undefined = import.meta.env.MMPLAY_OFFLINE_WORKER;
  if (inline) {
    offlineWorkerUrl ??= URL.createObjectURL(new Blob([inline], { type: 'text/javascript' }));
    return new Worker(offlineWorkerUrl, { name: 'mmplay-engine' });
  }
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'mmplay-engine' });
}

/** what the worker said before the client took it, each with when it arrived (the boot's marks keep that time) */
export interface EarlyWorker {
  worker: Worker;
  said: { e: MessageEvent; at: number }[];
  failed: ErrorEvent[];
}
let early: EarlyWorker | null = null;

/** start the worker now; what it says before the client takes it is kept for the client */
export function prestartWorker(): void {
  if (early) return;
  const worker = newWorker();
  const said: EarlyWorker['said'] = [],
    failed: ErrorEvent[] = [];
  worker.onmessage = (e) => said.push({ e, at: performance.now() });
  worker.onerror = (e) => failed.push(e);
  early = { worker, said, failed };
}

/** the worker started early, with what it has said so far (once: null after) */
export function takeWorker(): EarlyWorker | null {
  const e = early;
  early = null;
  return e;
}

/** the link opens a tour's speaker's notes window: no model, no controller, no worker (boot.tsx) */
export const notesWindow = (q: URLSearchParams): boolean => q.get('notes') === '1' && !!q.get('tour');

/** the link runs something (a scenario, a tour, an edited text), and is not a speaker's notes window */
export function linkRuns(search: string, hash: string): boolean {
  const q = new URLSearchParams(search),
    h = new URLSearchParams(hash.replace(/^#/, ''));
  if (notesWindow(q)) return false;
  return q.has('scenario') || q.has('tour') || q.has('src') || h.has('src');
}
