/**
 * Transport: go to start, previous step, step back, play/pause, step,
 * next step, go to end; the jump targets (the shared ones and the
 * mechanism's: next fault, end of this fault, next major, next skip...);
 * speed; and a timeline scrubber with step starts and major faults marked.
 * Thin (presenter mode, embeds): the stepping buttons, the scrubber and the
 * place, plus presenter mode's type size, full screen and exit.
 */
import { Fragment, useMemo } from 'react';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { urlFor } from '../controller.js';
import { fmt } from '../lib/format.js';
import { bigRunNote } from './bigRun.js';
import { jumpsOf, mechanismOf } from '../mechanisms/registry.js';
import { jumpList } from '../store/reducer.js';
import { FONT_SCALES, questionOpen, SPEEDS } from '../store/state.js';
import { dispatch, store, useStore } from '../store/store.js';

/* inline icons: the Unicode media glyphs are missing from many fonts */
const ICONS = {
  start: 'M6 5h2v14H6zM20 5v14L9 12z',
  prevStep: 'M12 5v14L3 12zM21 5v14l-9-7z',
  back: 'M17 5v14L6 12z',
  fwd: 'M7 5v14l11-7z',
  nextStep: 'M3 5v14l9-7zM12 5v14l9-7z',
  end: 'M4 5v14l11-7zM16 5h2v14h-2z',
};
const FULLSCREEN = 'M7 14H5v5h5v-2H7v-3zm-2-4h2V7h3V5H5v5zm12 7h-3v2h5v-5h-2v3zM14 5v2h3v3h2V5h-5z';
const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 24 24" aria-hidden="true">
    <path d={d} />
  </svg>
);

export function Transport({ thin = false, group }: { thin?: boolean; group: string }) {
  const timeline = useStore((s) => s.timeline);
  const present = useStore((s) => s.present);
  const embed = useStore((s) => s.embed);
  const fontScale = useStore((s) => s.fontScale);
  const counters = useStore((s) => s.frame?.counters ?? null);
  /* in a comparison the stage shows B's figures beside A's */
  const countersB = useStore((s) => s.compare?.frame?.counters ?? null);
  /* and C's and D's, in a four-way comparison */
  const more = useStore((s) => s.more);
  const spot = useStore((s) => (s.highlight?.kind === 'figure' ? s.highlight.counter : null));
  const cursor = useStore((s) => s.cursor);
  const playing = useStore((s) => s.playing);
  const speed = useStore((s) => s.speed);
  const ready = useStore((s) => s.load.status === 'ready');
  /* a run recording: how far, in the transport (the views show its first frame, or the last run's) */
  const recordingPct = useStore((s) =>
    s.load.status === 'running'
      ? Math.floor((100 * s.load.done) / Math.max(1, s.load.total))
      : s.load.status === 'compiling'
        ? 0
        : null,
  );
  const n = timeline?.nEvents ?? 0;
  const big = !!timeline?.big;
  const off = !ready || big || !n;

  const asking = useStore(questionOpen);
  const marks = useMemo(() => {
    if (!timeline || !n) return null;
    const pct = (i: number) => `${(100 * (i + 1)) / n}%`;
    /* one mark per 1/800 of the bar at most: 16,000 steps were 16,000 elements to lay out */
    const thin = (evs: readonly number[]) => {
      const out: number[] = [];
      let last = -1;
      for (const i of evs) {
        const slot = Math.floor((800 * (i + 1)) / n);
        if (slot !== last) {
          out.push(i);
          last = slot;
        }
      }
      return out;
    };
    return (
      <div className="marks" aria-hidden>
        {thin(timeline.stepEvents).map((i) => (
          <i key={`s${i}`} className="step" style={{ left: pct(i) }} />
        ))}
        {/* an open question's answer may be a count of these: they show once it is answered */}
        {!asking && thin(timeline.majorEvents).map((i) => <i key={`m${i}`} style={{ left: pct(i) }} />)}
      </div>
    );
  }, [timeline, n, asking]);

  return (
    <div className={`transport ${thin ? 'thin' : ''}`} role="toolbar" aria-label="Transport">
      <div className="buttons">
        {!thin && (
          <button
            type="button"
            className="btn icon"
            disabled={off}
            onClick={() => dispatch({ type: 'seek', cursor: 0 })}
            aria-label="Go to the start (Home)"
            title="Start (Home)"
          >
            <Icon d={ICONS.start} />
          </button>
        )}
        <button
          type="button"
          className="btn icon"
          disabled={off}
          onClick={() => dispatch({ type: 'jump', kind: 'step', dir: -1 })}
          aria-label="Previous scenario step (Shift+Left)"
          title="Previous step (Shift+←)"
        >
          <Icon d={ICONS.prevStep} />
        </button>
        <button
          type="button"
          className="btn icon"
          disabled={off}
          onClick={() => dispatch({ type: 'step', delta: -1 })}
          aria-label="Step back one event (Left)"
          title="Back one event (←)"
        >
          <Icon d={ICONS.back} />
        </button>
        <button
          type="button"
          className="btn primary play"
          disabled={off}
          onClick={() => dispatch({ type: 'togglePlay' })}
          aria-label={playing ? 'Pause (Space)' : 'Play (Space)'}
          title={playing ? 'Pause (Space)' : 'Play (Space)'}
          data-testid="play"
        >
          {playing ? (
            <>
              <Icon d="M6 5h4v14H6zM14 5h4v14h-4z" /> Pause
            </>
          ) : (
            <>
              <Icon d={ICONS.fwd} /> Play
            </>
          )}
        </button>
        <button
          type="button"
          className="btn icon"
          disabled={off}
          onClick={() => dispatch({ type: 'step', delta: 1 })}
          aria-label="Step forward one event (Right)"
          title="Forward one event (→)"
          data-testid="step"
        >
          <Icon d={ICONS.fwd} />
        </button>
        <button
          type="button"
          className="btn icon"
          disabled={off}
          onClick={() => dispatch({ type: 'jump', kind: 'step', dir: 1 })}
          aria-label="Next scenario step (Shift+Right)"
          title="Next step (Shift+→)"
        >
          <Icon d={ICONS.nextStep} />
        </button>
        {!thin && (
          <button
            type="button"
            className="btn icon"
            disabled={off}
            onClick={() => dispatch({ type: 'seek', cursor: n })}
            aria-label="Go to the end (End)"
            title="End (End)"
          >
            <Icon d={ICONS.end} />
          </button>
        )}
        {!thin &&
          jumpsOf(group).map((j) => (
            <button
              type="button"
              key={j.id}
              className="btn"
              disabled={off || !timeline || !jumpList(timeline, j.id).length}
              onClick={() => dispatch({ type: 'jump', kind: j.id, dir: 1 })}
              title={`Jump to ${j.title} (${j.key}; Shift+${j.key}: back)`}
              aria-label={`Jump to the next: ${j.label.toLowerCase()} (${j.key})`}
              aria-keyshortcuts={j.key}
              data-testid={`jump-${j.id}`}
            >
              {j.label}{' '}
              <span className="kbd" aria-hidden>
                {j.key}
              </span>
            </button>
          ))}
        {!thin && (
          <>
            <label className="visually-hidden" htmlFor="speed">
              Speed
            </label>
            <select
              id="speed"
              value={speed}
              onChange={(e) => dispatch({ type: 'setSpeed', speed: Number(e.target.value) })}
              disabled={off}
              title="Playback speed"
            >
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {/* "10k ev/s": the longest label as short as "300 ev/s", so that a projector's
                      1280 px transport keeps it whole beside six jump buttons */}
                  {s >= 1000 ? `${s / 1000}k` : s} ev/s
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <div className="scrub">
        <input
          type="range"
          min={0}
          max={Math.max(1, n)}
          value={cursor}
          disabled={off}
          aria-label="Timeline"
          aria-valuetext={`event ${fmt(cursor)} of ${fmt(n)}`}
          data-testid="scrubber"
          onChange={(e) => dispatch({ type: 'seek', cursor: Number(e.target.value) })}
        />
        {marks}
      </div>
      <div
        className="where num"
        aria-live="off"
        title={big && timeline ? bigRunNote(timeline.work) : undefined}
        data-testid="cursor"
        style={{ '--where-ch': (big ? 20 : `event ${fmt(n)} / ${fmt(n)}`.length) + 1 } as React.CSSProperties}
      >
        {recordingPct !== null && timeline ? (
          `recording\u2026 ${recordingPct}%`
        ) : big ? (
          'big run: final state'
        ) : (
          <>
            <span className="where-word">event </span>
            {`${fmt(cursor)} / ${fmt(n)}`}
          </>
        )}
      </div>
      {thin && counters && !asking && (
        <div
          className={`thin-figures num ${countersB ? 'runs' : ''} ${more.length ? 'many' : ''}`}
          role="group"
          aria-label="Key counters"
        >
          {mechanismOf(group)
            .figures.slice(0, 3)
            .map(({ key, label }) => (
              <span key={key} title={key} className={spot === key ? 'spot' : undefined}>
                {label}{' '}
                <b data-testid={`value-${key}`} data-run="a" data-counter={key}>
                  {fmt(counters[COUNTERS.indexOf(key as never)])}
                </b>
                {countersB && (
                  <>
                    {' / '}
                    <b className="run-b" data-run="b" data-counter={key}>
                      {fmt(countersB[COUNTERS.indexOf(key as never)])}
                    </b>
                  </>
                )}
                {countersB &&
                  more.map((r) =>
                    r.frame ? (
                      <Fragment key={r.slot}>
                        {' / '}
                        <b className={`run-${r.slot}`} data-run={r.slot} data-counter={key}>
                          {fmt(r.frame.counters[COUNTERS.indexOf(key as never)])}
                        </b>
                      </Fragment>
                    ) : null,
                  )}
              </span>
            ))}
        </div>
      )}
      {thin && present && (
        <div className="buttons">
          <button
            type="button"
            className="btn icon"
            aria-label="Smaller type (−)"
            title="Smaller type (−)"
            disabled={fontScale === FONT_SCALES[0]}
            onClick={() => dispatch({ type: 'stepFontScale', dir: -1 })}
          >
            A−
          </button>
          <button
            type="button"
            className="btn icon"
            aria-label="Larger type (+)"
            title="Larger type (+)"
            disabled={fontScale === FONT_SCALES[FONT_SCALES.length - 1]}
            onClick={() => dispatch({ type: 'stepFontScale', dir: 1 })}
          >
            A+
          </button>
          {document.fullscreenEnabled && (
            <button
              type="button"
              className="btn icon"
              aria-label="Full screen"
              title="Full screen (the browser's own: Esc leaves it)"
              onClick={() =>
                (document.fullscreenElement
                  ? document.exitFullscreen()
                  : document.documentElement.requestFullscreen()
                ).catch(() => undefined)
              }
            >
              <Icon d={FULLSCREEN} />
            </button>
          )}
          <button
            type="button"
            className="btn"
            onClick={() => dispatch({ type: 'setPresent', on: false })}
            title="Leave presenter mode (Esc)"
            data-testid="leave-present"
          >
            Exit
          </button>
        </div>
      )}
      {thin && embed && (
        <a
          className="btn"
          href={new URL(urlFor({ ...store.get(), embed: false }), location.href).href}
          target="_blank"
          rel="noopener"
          title="Open this in the full playground (a new tab)"
        >
          mmplay ↗
        </a>
      )}
    </div>
  );
}
