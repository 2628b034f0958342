/**
 * The offer a refusal by limits makes when every limit it names may be raised: what the limits are for,
 * how long the work would take, and Run anyway (which raises them and runs again). A run's refusal and a
 * sweep's show the same offer; the caller adds its own ways out.
 */
import type { ReactNode } from 'react';
import { formatDuration } from '../../../wasm-core/ts/limits.js';
import type { WorkerLimit } from '../engine/protocol.js';
import { dispatch } from '../store/store.js';

/** "about 40 s" from the operations a refusal names (one run's, or a sweep's together) */
function timeOf(limits: WorkerLimit[]): string {
  const ops = limits.find((l) => l.key === 'operations' || l.key === 'sweep_operations');
  return ops ? formatDuration(ops.needed) : 'a while';
}

/** whether Run anyway can help: every limit named may be raised */
export const canRunAnyway = (limits: WorkerLimit[] | null | undefined): limits is WorkerLimit[] =>
  !!limits && limits.every((l) => l.raisable);

export function LimitAsk({
  limits,
  what,
  testId,
  children,
}: {
  limits: WorkerLimit[];
  what: 'run' | 'sweep';
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <div className="limit-ask" data-testid={testId}>
      <p>
        These limits keep a browser tab responsive and its memory safe. The {what} can take {timeOf(limits)} and stays
        cancellable.
      </p>
      <button type="button" className="btn primary" onClick={() => dispatch({ type: 'runAnyway', limits })}>
        Run anyway
      </button>
      {children}
    </div>
  );
}
