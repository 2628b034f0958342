/**
 * The speaker's notes window (?tour=<group>/<name>&notes=1, or Z in the
 * presenter): the beat on the projector with its notes, the next beat's
 * caption, and a clock, kept in step with the presenter over a
 * BroadcastChannel. Its clicker keys and buttons move the presenter. It runs
 * no model: captions show their figures as the names they stand for.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { findTour } from '../tour-load.js';
import { tourChannel, type TourMessage } from '../tourChannel.js';
import { Markdown } from '../lib/markdown.js';

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function NotesWindow({ name, theme }: { name: string; theme: 'light' | 'dark' }) {
  const tour = useMemo(() => findTour(name), [name]);
  const [index, setIndex] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const started = useRef(Date.now());
  const post = useRef<(m: TourMessage) => void>(() => {});
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    const ch = tourChannel((m) => {
      if (m.tour === name && m.kind === 'beat') setIndex(m.index);
    });
    post.current = ch.post;
    ch.post({ kind: 'hello', tour: name });
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => {
      ch.close();
      clearInterval(t);
    };
  }, [name, theme]);
  const n = 'error' in tour ? 0 : tour.beats.length;
  const go = (i: number) => {
    if (index === null || i < 0 || i >= n) return;
    post.current({ kind: 'goto', tour: name, index: i });
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const fwd = ['PageDown', 'ArrowRight', ' '].includes(e.key);
      const back = ['PageUp', 'ArrowLeft'].includes(e.key);
      if (!fwd && !back) return;
      e.preventDefault();
      if (index !== null) go(index + (fwd ? 1 : -1));
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });
  useEffect(() => {
    document.title = `Notes · ${'error' in tour ? name : tour.title} · mmplay`;
  }, [tour, name]);
  if ('error' in tour)
    return (
      <main className="notes-window" data-testid="notes">
        <h1>Speaker's notes</h1>
        <p role="alert">{tour.error}</p>
      </main>
    );
  const beat = index !== null ? tour.beats[index] : null;
  const next = index !== null && index + 1 < n ? tour.beats[index + 1] : null;
  return (
    <main className="notes-window" data-testid="notes" data-beat={index !== null ? index + 1 : undefined}>
      <header className="notes-head">
        <h1>{tour.title}</h1>
        <span className="notes-clock" title="Time since this window opened, and the time of day">
          <b data-testid="notes-elapsed">{clock(now - started.current)}</b>{' '}
          <span className="muted">{new Date(now).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</span>
        </span>
      </header>
      {beat === null ? (
        <p className="notes-wait" role="status">
          Waiting for the presenter: open <code>?tour={name}&amp;present=1</code> in another window of this browser, or
          press <kbd>Z</kbd> there.
        </p>
      ) : (
        <>
          <section className="notes-now" aria-labelledby="notes-now-h">
            <h2 id="notes-now-h">
              Beat <span data-testid="notes-beat">{index! + 1}</span> of {n}
              <span className="muted"> · {beat.scenario}</span>
            </h2>
            <p className="notes-caption">{beat.caption}</p>
            {beat.notes ? (
              <Markdown text={beat.notes} className="notes-text" />
            ) : (
              <p className="muted">No notes for this beat.</p>
            )}
          </section>
          <section className="notes-next" aria-labelledby="notes-next-h">
            <h2 id="notes-next-h">Next</h2>
            <p data-testid="notes-next">{next ? next.caption : 'The end of the tour.'}</p>
          </section>
        </>
      )}
      <nav className="notes-nav" aria-label="Beats">
        <button type="button" className="btn" disabled={!index} onClick={() => go(index! - 1)}>
          ← Previous
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={index === null || index + 1 >= n}
          onClick={() => go(index! + 1)}
        >
          Next →
        </button>
        <span className="muted">PageDown / PageUp here move the presenter too.</span>
      </nav>
    </main>
  );
}
