/**
 * The event log: one plain sentence per event around the cursor, with the
 * kernel function that does it, linked to v6.19 source on elixir.bootlin.com.
 * Click a line to go there.
 */
import { useLayoutEffect, useRef } from 'react';
import { elixir } from '../../../wasm-core/ts/events.js';
import { dispatch } from '../store/store.js';
import type { ViewProps } from './registry.js';

export function EventLog({ frame }: ViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const cur = useRef<HTMLLIElement>(null);
  useLayoutEffect(() => {
    const b = box.current, c = cur.current;
    if (!b || !c) return;
    /* keep the current line in view without scrolling the page */
    const top = c.offsetTop - b.offsetTop;
    if (top < b.scrollTop + 24 || top > b.scrollTop + b.clientHeight - 48) b.scrollTop = top - b.clientHeight / 3;
  }, [frame.cursor]);
  if (frame.big) {
    return <div className="placeholder">A big run records no events (it would be millions): the views show its final state.</div>;
  }
  if (!frame.log.length) return <div className="placeholder">No events.</div>;
  return (
    <div className="log" ref={box} aria-label="Event log">
      <ol>
        {frame.log.map((l) => {
          const isCur = l.index === frame.cursor - 1;
          return (
            <li key={l.index} ref={isCur ? cur : undefined} className={`${isCur ? 'cur' : ''} ${l.index >= frame.cursor ? 'future' : ''} ${l.opStart ? 'op' : ''}`}
              onClick={() => dispatch({ type: 'seek', cursor: l.index + 1 })} aria-current={isCur ? 'step' : undefined}>
              <span className="i">{l.index + 1}</span>
              <span>{l.text}</span>
              <span className="fn">{l.fn && <a href={elixir(l.fn)} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()} title={`${l.fn} in Linux v6.19 on elixir.bootlin.com`}>{l.fn}()</a>}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
