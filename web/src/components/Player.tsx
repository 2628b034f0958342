/**
 * The player: caption, transport, key figures with the tunables that matter,
 * and the views (panels from the registry that can be shown, hidden and
 * enlarged), plus the banners that say what went wrong and where.
 */
import { useMemo } from 'react';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { fmt } from '../lib/format.js';
import { finalCounters } from '../store/reducer.js';
import type { AppState, ViewId } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import { VIEWS, type ViewDef } from '../views/registry.js';
import { Transport } from './Transport.js';
import { QuickTunables } from './Tunables.js';

export function Player() {
  const load = useStore((s) => s.load);
  const frame = useStore((s) => s.frame);
  const program = useStore((s) => s.program);
  const timeline = useStore((s) => s.timeline);
  const scenario = useStore((s) => s.scenario);
  const group = scenario?.name?.split('/')[0] ?? 'fault-around';
  return (
    <main className="player" aria-label="Scenario player">
      <Caption />
      <Transport />
      <div className="topline">
        <Figures />
        <QuickTunables group={group} />
      </div>
      <Banners />
      {load.status === 'error' && <div className="placeholder">Fix the scenario to run it: press <kbd>E</kbd> to open the editor.</div>}
      {frame && program && timeline && load.status === 'ready' ? <Views />
        : (load.status === 'compiling' || load.status === 'running') && <div className="loading">Preparing the machine&hellip;</div>}
    </main>
  );
}

function Caption() {
  const frame = useStore((s) => s.frame);
  const program = useStore((s) => s.program);
  const step = frame?.step ?? null;
  const info = step !== null ? program?.steps[step] : null;
  if (frame?.big) {
    return (
      <div className="caption" aria-live="polite">
        <span className="step-no">run complete</span>
        <span className="summary">{program?.scenario.about.split('\n')[0] ?? ''}</span>
      </div>
    );
  }
  return (
    <div className="caption" aria-live="polite">
      <span className="step-no">{step !== null ? `step ${step + 1}/${program?.steps.length}` : 'before step 1'}</span>
      {frame?.say ? <span className="say">{frame.say}</span> : null}
      {info && info.kind !== 'say' && <span className="summary">{frame?.say ? '· ' : ''}{info.summary}</span>}
      {!info && !frame?.say && <span className="summary">{program?.scenario.about.split('\n')[0] ?? ''}</span>}
    </div>
  );
}

const FIGURES: { key: string; label: string }[] = [
  { key: 'pgfault', label: 'Page faults' },
  { key: 'pgmajfault', label: 'Major faults' },
  { key: 'nr_mapped', label: 'Pages mapped' },
  { key: 'touches', label: 'Pages touched' },
];

function Figures() {
  const frame = useStore((s) => s.frame);
  const previous = useStore((s) => s.previous);
  const timeline = useStore((s) => s.timeline);
  /* selectors must return stable values: derive the final counters here */
  const whole = useMemo(() => finalCounters({ timeline }), [timeline]);
  return (
    <div className="figures" aria-label="Key counters">
      {FIGURES.map(({ key, label }) => {
        const i = COUNTERS.indexOf(key as never);
        const v = frame?.counters[i];
        const end = whole?.[i];
        const before = previous?.counters[i];
        const ratio = before && end !== undefined && before !== end ? end / before : null;
        return (
          <div className="figure" key={key} data-testid={`figure-${key}`}>
            <div className="k">{label} <code>{key}</code></div>
            <div className="v" data-testid={`value-${key}`}>{v !== undefined ? fmt(v) : '–'}</div>
            <div className="was">
              {end !== undefined && <>whole run <b>{fmt(end)}</b></>}
              {before !== undefined && before !== end && (
                <span title={`with ${previous!.label}`}> · before {fmt(before)}{ratio ? ` (×${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2).replace(/\.?0+$/, '')})` : ''}</span>
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function Banners() {
  const load = useStore((s) => s.load);
  const overrides = useStore((s) => s.overrides);
  const timeline = useStore((s) => s.timeline);
  const file = useStore((s) => s.scenario?.file);
  if (load.status === 'error') {
    return (
      <div className="banner bad" role="alert" data-testid="error-banner">
        <strong>This scenario cannot run.</strong>
        <ul>
          {load.issues.slice(0, 8).map((i, k) => (
            <li key={k}><span className="loc">{file}{i.line ? `:${i.line}` : ''}</span>{i.path && <> <code>{i.path}</code></>}: {i.message}</li>
          ))}
        </ul>
        <button className="btn" style={{ marginTop: 8 }} onClick={() => dispatch({ type: 'openDrawer', drawer: 'editor' })}>Open in the editor</button>
      </div>
    );
  }
  if (load.status === 'cancelled') {
    return (
      <div className="banner" role="status">
        The run was cancelled.{' '}
        <button className="btn" onClick={() => dispatch({ type: 'rerun' })}>Run it again</button>{' '}
        {Object.keys(overrides).length > 0 && <button className="btn" onClick={() => dispatch({ type: 'resetTunables' })}>Run with the scenario&rsquo;s tunables</button>}
      </div>
    );
  }
  if (!timeline || load.status !== 'ready') return null;
  if (timeline.error) {
    const at = timeline.error.at;
    return (
      <div className="banner bad" role="alert" data-testid="run-error">
        <strong>The run stopped</strong> {at && <span className="loc">at {file}:{at.line} ({at.path})</span>}: {timeline.error.message}
        <div style={{ marginTop: 4 }}>Everything up to the error can still be stepped through.</div>
      </div>
    );
  }
  if (timeline.expectFailures.length) {
    return (
      <div className="banner bad" role="status" data-testid="expect-failures">
        <strong>{timeline.expectFailures.length} expect check{timeline.expectFailures.length > 1 ? 's' : ''} failed</strong> with these tunables:
        <ul>
          {timeline.expectFailures.slice(0, 5).map((f, k) => (
            <li key={k}>{f.at && <span className="loc">line {f.at.line} </span>}{f.message}</li>
          ))}
        </ul>
      </div>
    );
  }
  if (timeline.big) {
    return (
      <div className="banner" role="status">
        A big run: {fmt(timeline.work)} operations were simulated without recording events, so the views show the final state and
        aggregates (heat strips), not every page.
      </div>
    );
  }
  return null;
}

function Views() {
  const views = useStore((s) => s.views);
  const enlarged = useStore((s) => s.enlarged);
  const hidden = VIEWS.filter((v) => !views[v.id]);
  const visible = (col: ViewDef['column']) => VIEWS.filter((v) => views[v.id] && v.column === col);
  return (
    <>
      {hidden.length > 0 && (
        <div className="hidden-views">
          Hidden views: {hidden.map((v) => (
            <button key={v.id} className="btn" onClick={() => dispatch({ type: 'toggleView', id: v.id })}>Show {v.title}</button>
          ))}
        </div>
      )}
      {enlarged ? (
        <div className="views one"><Panel def={VIEWS.find((v) => v.id === enlarged)!} /></div>
      ) : (
        <div className={`views ${!visible('main').length || !visible('side').length ? 'one' : ''}`}>
          {visible('main').length > 0 && <div className="col">{visible('main').map((v) => <Panel key={v.id} def={v} />)}</div>}
          {visible('side').length > 0 && <div className="col">{visible('side').map((v) => <Panel key={v.id} def={v} />)}</div>}
        </div>
      )}
    </>
  );
}

function subtitle(id: ViewId, s: AppState): string {
  const f = s.frame;
  if (!f) return '';
  if (id === 'address') {
    const mm = f.mms[f.focusMm];
    return mm ? `process ${mm.name}, ${mm.vmas.length} VMA${mm.vmas.length === 1 ? '' : 's'}` : '';
  }
  if (id === 'walk') return f.walk ? `0x${f.walk.addr.toString(16)}` : '';
  if (id === 'log') return f.event ? `event ${fmt(f.cursor)}: ${f.event.label}` : '';
  return '';
}

function Panel({ def }: { def: ViewDef }) {
  const enlarged = useStore((s) => s.enlarged === def.id);
  const frame = useStore((s) => s.frame)!;
  const program = useStore((s) => s.program)!;
  const timeline = useStore((s) => s.timeline)!;
  const prevCounters = useStore((s) => s.prevCounters);
  const theme = useStore((s) => s.theme);
  const sub = useStore((s) => subtitle(def.id, s));
  const C = def.component;
  return (
    <section className="panel" aria-labelledby={`view-${def.id}`} aria-describedby={`view-${def.id}-d`} data-view={def.id}>
      <div className="panel-head">
        <h2 id={`view-${def.id}`}>{def.title}</h2>
        <span className="sub" id={`view-${def.id}-d`} title={def.description}>{sub || def.description}</span>
        <span className="spacer" />
        <button className="btn icon" onClick={() => dispatch({ type: 'enlarge', id: enlarged ? null : def.id })}
          aria-label={enlarged ? `Restore ${def.title}` : `Enlarge ${def.title}`} title={enlarged ? 'Restore' : 'Enlarge'}>{enlarged ? '⤡' : '⤢'}</button>
        <button className="btn icon" onClick={() => dispatch({ type: 'toggleView', id: def.id })} aria-label={`Hide ${def.title}`} title="Hide">✕</button>
      </div>
      <div className="panel-body">
        <C frame={frame} program={program} timeline={timeline} prevCounters={prevCounters} theme={theme} />
      </div>
    </section>
  );
}
