/// <reference lib="webworker" />
/**
 * The engine worker's entry, kept small: it starts compiling the core (a
 * fetch and a streaming compile, off this thread) before anything else, then
 * loads the worker's script (./serve.ts, most of the worker's bytes) beside
 * it, keeping the page's messages that arrive meanwhile. A link that runs a
 * scenario waits for both: in sequence, the core was ready about 90 ms later.
 */
import wasmUrl from '../../../wasm-core/build/wasm/mmsim.wasm?url';
import { fetchCore } from '../../../wasm-core/ts/fetch.js';
import type { ToWorker } from './protocol.js';

declare const self: DedicatedWorkerGlobalScope;

const coreModule = fetchCore(new URL(wasmUrl, self.location.href));
/* not lost if the script below never loads: serve() reports it */
coreModule.catch(() => {});
const early: MessageEvent<ToWorker>[] = [];
self.onmessage = (e: MessageEvent<ToWorker>) => void early.push(e);
import('./serve.js').then(
  ({ serve }) => serve(coreModule, early),
  (e: Error) => self.postMessage({ t: 'fatal', message: `The simulation worker could not load: ${e.message}` }),
);
