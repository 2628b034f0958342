/**
 * For the mechanisms' frame-provider tests: a scenario recorded by the
 * engine with one provider, its events, and the cursor just after an event.
 */
import { Engine } from '../frames/engine.js';
import type { FrameProvider } from '../frames/types.js';
import type { EventName } from '../../../wasm-core/ts/abi.js';
import type { SimEvent, SimEventOf } from '../../../wasm-core/ts/events.js';
import { loadCore, programOf } from '../../../wasm-core/test/helpers.js';

/** the scenario recorded with `provider` (or none: the core's own frame), and every event of the run */
export async function recorded(file: string, provider?: FrameProvider, sets: Record<string, string> = {}) {
  const eng = new Engine(await loadCore(), programOf(file, sets), {}, provider ? [provider] : []);
  const tl = eng.recordAll();
  const events = Array.from({ length: tl.nEvents }, (_, i) => eng.event(i));
  return { eng, tl, events };
}

/** the cursor just after the first event named `name` (matching `where`) at or after `from` */
export function after<N extends EventName>(
  events: SimEvent[],
  name: N,
  where: (e: SimEventOf<N>) => boolean = () => true,
  from = 0,
): number {
  const i = events.findIndex((e, k) => k >= from && e.name === name && where(e as unknown as SimEventOf<N>));
  if (i < 0) throw new Error(`no event ${name}`);
  return i + 1;
}
