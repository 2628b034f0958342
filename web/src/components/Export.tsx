/**
 * Export (X): what is on screen as files for slides, notes and scripts.
 * The counters at the cursor and at the end of every step (CSV, JSON), the
 * event log (JSON lines, one event per line with its sentence), each of
 * every run on screen (A, and B, C, D when comparing: a `run` field, a run
 * column); each view as PNG at 2x, whole (its scroll boxes at full height,
 * the event log as the rows around the cursor), with a caption line naming
 * the scenario, the cursor and the runs (and as SVG where the view is drawn
 * in SVG); and the <iframe> snippet that embeds this view in a page.
 */
import { useState } from 'react';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { exportRun, urlFor, workerId } from '../controller.js';
import { download, elementToPng, plainCsv, svgText } from '../lib/export.js';
import { copyText } from '../lib/keyboard.js';
import { stageViews, useRunLabels } from './Player.js';
import { ALL_VIEW_IDS, groupOf, shownViews } from '../views/ids.js';
import { store, useStore } from '../store/store.js';
import { otherRuns, type AppState } from '../store/state.js';
import type { RunLabels } from '../views/types.js';

/** mmplay-fault-around-sequential-event-812 */
function base(s: AppState): string {
  const name = (s.scenario?.name ?? 'edited').replace(/[^A-Za-z0-9_-]+/g, '-');
  return `mmplay-${name}`;
}

/** the <iframe> that embeds this scenario at this cursor, showing these views */
export function embedSnippet(s: AppState): string {
  const views = stageViews(s.views, s.enlarged, groupOf(s.scenario?.name)).map((v) => v.id);
  const url = new URL(
    urlFor({
      ...s,
      embed: true,
      present: false,
      views: Object.fromEntries(ALL_VIEW_IDS.map((id) => [id, views.includes(id)])),
      enlarged: null,
    }),
    location.href,
  ).href;
  const title = (s.program?.scenario.name ?? s.scenario?.file ?? 'a scenario').replace(/[<>&"]/g, '');
  const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${esc(url)}" title="mmplay: ${esc(title)}" width="960" height="600" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}

export function copyEmbed(): void {
  copyText(store, embedSnippet(store.get()), 'Embed snippet copied: paste it into a page or a slide.');
}

/** counters as a JSON object, by name */
const byName = (c: number[]) => Object.fromEntries(COUNTERS.map((k, i) => [k, c[i]]));

/** every run on screen: A, and B, C, D where they are recorded, each with its label and worker id */
function runsOf(s: AppState, labels: RunLabels | null) {
  return [
    {
      run: 'a',
      label: labels?.a ?? 'A',
      set: s.overrides,
      id: workerId.a(s.runId),
      counters: s.frame?.counters ?? null,
    },
    ...otherRuns(s)
      .filter((r) => r.load.status === 'ready')
      .map((r) => ({
        run: r.slot,
        label: labels?.[r.slot] ?? r.slot.toUpperCase(),
        set: { ...s.overrides, ...r.set },
        id: workerId.other(r.slot, r.runId),
        counters: r.frame?.counters ?? null,
      })),
  ];
}

/** the line over an exported view: the scenario, the cursor, and each run by name */
export function exportCaption(s: AppState, labels: RunLabels | null): string {
  const name = s.program?.scenario.name ?? s.scenario?.file ?? 'a scenario';
  const at = s.timeline
    ? `event ${s.cursor.toLocaleString('en-US')} / ${s.timeline.nEvents.toLocaleString('en-US')}`
    : '';
  const runs = runsOf(s, labels);
  const named = runs.length > 1 ? runs.map((r) => `${r.run.toUpperCase()}: ${r.label}`).join(' \u00b7 ') : '';
  return [`mmplay \u00b7 ${name}`, at, named].filter(Boolean).join(' \u00b7 ');
}

function countersAtCursor(s: AppState, labels: RunLabels | null, fmt: 'csv' | 'json'): Blob {
  const runs = runsOf(s, labels).filter((r) => r.counters);
  const a = runs[0].counters!;
  if (fmt === 'json') {
    return new Blob(
      [
        `${JSON.stringify(
          {
            scenario: s.scenario?.name ?? null,
            tunables: s.overrides,
            event: s.cursor,
            counters: byName(a),
            /* comparing: every run, by its letter, with its tunables and name */
            ...(runs.length > 1
              ? {
                  compare: s.compare!.set,
                  countersB: runs[1].counters ? byName(runs[1].counters) : null,
                  runs: runs.map((r) => ({
                    run: r.run,
                    label: r.label,
                    tunables: r.set,
                    counters: byName(r.counters!),
                  })),
                }
              : {}),
          },
          null,
          2,
        )}\n`,
      ],
      { type: 'application/json' },
    );
  }
  const many = runs.length > 1;
  const rows = COUNTERS.map((k, i) => [k, ...runs.map((r) => r.counters![i])]);
  return new Blob([plainCsv([['counter', ...(many ? runs.map((r) => r.run.toUpperCase()) : ['value'])], ...rows])], {
    type: 'text/csv',
  });
}

export function ExportDialog({ onClose }: { onClose: () => void }) {
  const s = useStore((x) => x);
  const labels = useRunLabels();
  const runs = runsOf(s, labels);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ready = s.load.status === 'ready' && !!s.frame && !s.frame.big;
  const name = base(s);
  const run = async (what: string, f: () => Promise<void> | void) => {
    setBusy(what);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(`${what}: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  };
  /* every run's counters at the end of each step: a run column where there are several */
  const perStep = (fmt: 'csv' | 'json') =>
    run(`counters per step (${fmt})`, async () => {
      const all = await Promise.all(
        runs.map(async (x) => {
          const r = await exportRun(x.id, 'steps');
          if (!r || r.error || !r.steps) throw new Error(r?.error ?? 'the run was replaced');
          return r.steps.map((step) => ({ run: x.run, label: x.label, ...step }));
        }),
      );
      const steps = all.flat();
      const many = runs.length > 1;
      if (fmt === 'json')
        download(
          `${name}-steps.json`,
          new Blob(
            [
              `${JSON.stringify(
                steps.map((x) => ({ ...x, counters: byName(x.counters) })),
                null,
                2,
              )}\n`,
            ],
            {
              type: 'application/json',
            },
          ),
        );
      else
        download(
          `${name}-steps.csv`,
          new Blob(
            [
              plainCsv([
                [...(many ? ['run'] : []), 'step', 'line', 'kind', 'summary', 'event', ...COUNTERS],
                ...steps.map((x) => [
                  ...(many ? [x.run.toUpperCase()] : []),
                  x.step + 1,
                  x.line ?? '',
                  x.kind,
                  x.summary,
                  x.event,
                  ...x.counters,
                ]),
              ]),
            ],
            { type: 'text/csv' },
          ),
        );
    });
  /* every run's events, run by run, each line saying its run */
  const log = () =>
    run('event log', async () => {
      const parts = await Promise.all(
        runs.map(async (x) => {
          const r = await exportRun(x.id, 'log');
          if (!r || r.error || r.log === undefined) throw new Error(r?.error ?? 'the run was replaced');
          return r.log
            .split('\n')
            .filter(Boolean)
            .map((l) => `{"run":${JSON.stringify(x.run)},${l.slice(1)}`)
            .join('\n');
        }),
      );
      download(
        `${name}-events.jsonl`,
        new Blob([`${parts.filter(Boolean).join('\n')}\n`], { type: 'application/x-ndjson' }),
      );
    });
  const caption = exportCaption(s, labels);
  const visible = shownViews(s.views, groupOf(s.scenario?.name));
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="export-title"
      onClick={onClose}
      data-testid="export"
    >
      <div className="dialog wide" onClick={(e) => e.stopPropagation()}>
        <h2 id="export-title">Export</h2>
        {!ready && (
          <p className="muted">
            {s.frame?.big
              ? 'A big run records no events: only its final counters can be exported.'
              : 'Nothing is recorded yet.'}
          </p>
        )}
        <table className="export-table">
          <tbody>
            <tr>
              <th scope="row">Counters at event {s.cursor.toLocaleString('en-US')}</th>
              <td>
                <button
                  type="button"
                  className="btn"
                  disabled={!s.frame}
                  onClick={() =>
                    run('counters', () => download(`${name}-event-${s.cursor}.csv`, countersAtCursor(s, labels, 'csv')))
                  }
                  data-testid="export-counters-csv"
                >
                  CSV
                </button>{' '}
                <button
                  type="button"
                  className="btn"
                  disabled={!s.frame}
                  onClick={() =>
                    run('counters', () =>
                      download(`${name}-event-${s.cursor}.json`, countersAtCursor(s, labels, 'json')),
                    )
                  }
                  data-testid="export-counters-json"
                >
                  JSON
                </button>
              </td>
            </tr>
            <tr>
              <th scope="row">Counters at the end of each step</th>
              <td>
                <button
                  type="button"
                  className="btn"
                  disabled={!ready || !!busy}
                  onClick={() => perStep('csv')}
                  data-testid="export-steps-csv"
                >
                  CSV
                </button>{' '}
                <button
                  type="button"
                  className="btn"
                  disabled={!ready || !!busy}
                  onClick={() => perStep('json')}
                  data-testid="export-steps-json"
                >
                  JSON
                </button>
              </td>
            </tr>
            <tr>
              <th scope="row">The event log, one event per line</th>
              <td>
                <button
                  type="button"
                  className="btn"
                  disabled={!ready || !!busy}
                  onClick={log}
                  data-testid="export-log"
                >
                  JSON lines
                </button>
              </td>
            </tr>
            {visible.map((v) => {
              const el = () => document.querySelector<HTMLElement>(`[data-view="${v.id}"] .panel-body`);
              const svg = () => el()?.querySelector<SVGSVGElement>('svg[data-export]') ?? null;
              return (
                <tr key={v.id}>
                  <th scope="row">View: {v.title}</th>
                  <td>
                    <button
                      type="button"
                      className="btn"
                      disabled={!ready || !!busy}
                      data-testid={`export-png-${v.id}`}
                      onClick={() =>
                        run(`${v.title} as PNG`, async () => {
                          const e = el();
                          if (!e) throw new Error('the view is not on screen');
                          download(
                            `${name}-${v.id}-event-${s.cursor}@2x.png`,
                            await elementToPng(e, 2, { caption, whole: true }),
                          );
                        })
                      }
                    >
                      PNG 2×
                    </button>{' '}
                    {v.svg && (
                      <button
                        type="button"
                        className="btn"
                        disabled={!ready || !!busy}
                        data-testid={`export-svg-${v.id}`}
                        onClick={() =>
                          run(`${v.title} as SVG`, () => {
                            const g = svg();
                            if (!g) throw new Error('the view has no chart on screen');
                            download(
                              `${name}-${v.id}-event-${s.cursor}.svg`,
                              new Blob([svgText(g, caption)], { type: 'image/svg+xml' }),
                            );
                          })
                        }
                      >
                        SVG
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
            <tr>
              <th scope="row">Embed this view in a page</th>
              <td>
                <button
                  type="button"
                  className="btn"
                  disabled={!s.scenario}
                  onClick={copyEmbed}
                  data-testid="copy-embed"
                >
                  Copy &lt;iframe&gt; snippet
                </button>
              </td>
            </tr>
          </tbody>
        </table>
        <div className="export-status" role="status">
          {busy ? `Preparing ${busy}\u2026` : (error ?? '')}
        </div>
        <div style={{ marginTop: 12, display: 'flex', justifyContent: 'flex-end' }}>
          <button type="button" className="btn" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
