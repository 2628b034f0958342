/** Progress of a run (with cancel), keyboard help, and toasts. */
import { useEffect, useState } from 'react';
import { fmt } from '../lib/format.js';
import { scenarioTitle } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import { KEYS } from '../lib/keyboard.js';
import { jumpKeys } from '../mechanisms/registry.js';

export function Progress() {
  const load = useStore((s) => s.load);
  const name = useStore(scenarioTitle);
  /* compiling: the worker parses and checks the text (a big link takes seconds); cancellable too */
  const running = load.status === 'running' || load.status === 'compiling';
  const [shown, setShown] = useState(false);
  /* quick runs finish before the dialog would flash */
  useEffect(() => {
    if (!running) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), 350);
    return () => clearTimeout(t);
  }, [running]);
  if (!running || !shown) return null;
  /* one dialog for both phases: the title, the bar and the line under it change, Cancel stays (and keeps focus) */
  const reading = load.status === 'compiling';
  const pct = !reading && load.total ? Math.min(100, (100 * load.done) / load.total) : 0;
  return (
    /* not modal: the page stays usable while the worker records (keys, theme, the drawers); Cancel is a click or Esc */
    <div className="run-progress" role="region" aria-labelledby="progress-title" data-testid="progress">
      <div className="dialog">
        <h2 id="progress-title">
          {reading ? 'Reading the scenario' : load.big ? 'Running a big scenario' : 'Recording the run'}
        </h2>
        <div>{name}</div>
        {reading ? (
          <div className="progress indeterminate" role="progressbar" aria-label="reading the scenario">
            <i />
          </div>
        ) : (
          <div
            className="progress"
            role="progressbar"
            aria-label="recording the run"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(pct)}
          >
            <i style={{ width: `${pct}%` }} />
          </div>
        )}
        <div className="num" style={{ color: 'var(--muted)', fontSize: '0.9rem' }}>
          {reading ? (
            'parsing and checking it against the limits, in the background'
          ) : (
            <>
              {fmt(load.done)} of {fmt(load.total)} operations ({pct.toFixed(0)}%)
              {load.big && ' · events are not recorded for a run this size; the views will show aggregates'}
            </>
          )}
        </div>
        <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
          <button type="button" className="btn" onClick={() => dispatch({ type: 'cancelRun' })} data-testid="cancel">
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}

export function Help() {
  const open = useStore((s) => s.help);
  if (!open) return null;
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="help-title"
      onClick={() => dispatch({ type: 'toggleHelp' })}
    >
      <div className="dialog" onClick={(e) => e.stopPropagation()}>
        <h2 id="help-title">Keyboard</h2>
        <div className="keys">
          {[
            ...KEYS,
            ...jumpKeys().map((j): [string, string] => [
              `${j.key}  Shift+${j.key}`,
              `jump to ${j.title} (Shift: back)`,
            ]),
          ].map(([k, d]) => (
            <div key={k} style={{ display: 'contents' }}>
              <span>
                {k.split('  ').map((x) => (
                  <kbd key={x} style={{ marginRight: 4 }}>
                    {x}
                  </kbd>
                ))}
              </span>
              <span>{d}</span>
            </div>
          ))}
        </div>
        <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
          <button type="button" className="btn" onClick={() => dispatch({ type: 'toggleHelp' })} autoFocus>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

export function Toast() {
  const toast = useStore((s) => s.toast);
  if (!toast) return null;
  return (
    <div className="toast" role="status" data-testid="toast">
      {toast.text}
    </div>
  );
}
