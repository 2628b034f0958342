/**
 * Export (X): what is on screen as files for slides, notes and scripts.
 * The counters at the cursor and at the end of every step (CSV, JSON), the
 * run's event log (JSON lines, one event per line with its sentence), each
 * view as PNG at 2x (and as SVG where the view is drawn in SVG), and the
 * <iframe> snippet that embeds this view in a page.
 */
import { useState } from 'react';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { exportRun, urlFor, workerId } from '../controller.js';
import { download, elementToPng, plainCsv, svgText } from '../lib/export.js';
import { copyText } from '../lib/keyboard.js';
import { stageViews } from './Player.js';
import { ALL_VIEW_IDS, groupOf, shownViews } from '../views/ids.js';
import { store, useStore } from '../store/store.js';
import type { AppState } from '../store/state.js';

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

function countersAtCursor(s: AppState, fmt: 'csv' | 'json'): Blob {
  const a = s.frame!.counters,
    b = s.compare?.frame?.counters;
  if (fmt === 'json') {
    return new Blob(
      [
        `${JSON.stringify(
          {
            scenario: s.scenario?.name ?? null,
            tunables: s.overrides,
            event: s.cursor,
            counters: byName(a),
            ...(b ? { compare: s.compare!.set, countersB: byName(b) } : {}),
          },
          null,
          2,
        )}\n`,
      ],
      { type: 'application/json' },
    );
  }
  const rows = COUNTERS.map((k, i) => [k, a[i], ...(b ? [b[i]] : [])]);
  return new Blob([plainCsv([['counter', b ? 'A' : 'value', ...(b ? ['B'] : [])], ...rows])], { type: 'text/csv' });
}

export function ExportDialog({ onClose }: { onClose: () => void }) {
  const s = useStore((x) => x);
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
  const perStep = (fmt: 'csv' | 'json') =>
    run(`counters per step (${fmt})`, async () => {
      const r = await exportRun(workerId.a(s.runId), 'steps');
      if (!r || r.error || !r.steps) throw new Error(r?.error ?? 'the run was replaced');
      if (fmt === 'json')
        download(
          `${name}-steps.json`,
          new Blob(
            [
              `${JSON.stringify(
                r.steps.map((x) => ({ ...x, counters: byName(x.counters) })),
                null,
                2,
              )}\n`,
            ],
            { type: 'application/json' },
          ),
        );
      else
        download(
          `${name}-steps.csv`,
          new Blob(
            [
              plainCsv([
                ['step', 'line', 'kind', 'summary', 'event', ...COUNTERS],
                ...r.steps.map((x) => [x.step + 1, x.line ?? '', x.kind, x.summary, x.event, ...x.counters]),
              ]),
            ],
            { type: 'text/csv' },
          ),
        );
    });
  const log = () =>
    run('event log', async () => {
      const r = await exportRun(workerId.a(s.runId), 'log');
      if (!r || r.error || r.log === undefined) throw new Error(r?.error ?? 'the run was replaced');
      download(`${name}-events.jsonl`, new Blob([r.log], { type: 'application/x-ndjson' }));
    });
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
                    run('counters', () => download(`${name}-event-${s.cursor}.csv`, countersAtCursor(s, 'csv')))
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
                    run('counters', () => download(`${name}-event-${s.cursor}.json`, countersAtCursor(s, 'json')))
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
                          download(`${name}-${v.id}-event-${s.cursor}@2x.png`, await elementToPng(e, 2));
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
                              new Blob([svgText(g)], { type: 'image/svg+xml' }),
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
