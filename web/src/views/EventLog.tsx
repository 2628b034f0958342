/**
 * The event log: one plain sentence per event around the cursor, with the
 * kernel function that does it, linked to v6.19 source on elixir.bootlin.com.
 * Click a line, or move with ↑ ↓ (one tab stop for the list), to go there;
 * Enter opens the current event's kernel source.
 */
import { useRef } from 'react';
import { elixir } from '../../../wasm-core/ts/events.js';
import { dispatch } from '../store/store.js';
import { useKeepInView } from './keepInView.js';
import type { ViewProps } from './types.js';

export function EventLog({ frame }: ViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const cur = useRef<HTMLLIElement>(null);
  useKeepInView(
    box,
    () => cur.current,
    [frame.cursor],
    24,
    () => 48,
  );
  if (frame.big) {
    return (
      <div className="placeholder">
        A big run records no events (it would be millions): the views show its final state.
      </div>
    );
  }
  if (!frame.log.length) return <div className="placeholder">No events.</div>;
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      dispatch({ type: 'step', delta: e.key === 'ArrowDown' ? 1 : -1 });
      e.preventDefault();
    } else if (e.key === 'Enter' && frame.event?.fn) {
      window.open(elixir(frame.event.fn), '_blank', 'noopener');
      e.preventDefault();
    }
  };
  return (
    <div
      className="log"
      ref={box}
      role="region"
      tabIndex={0}
      data-rows
      onKeyDown={onKey}
      aria-label="Event log: ↑ ↓ to step, Enter opens the current event's kernel source"
    >
      <ol>
        {frame.log.map((l) => {
          const isCur = l.index === frame.cursor - 1;
          return (
            <li
              key={l.index}
              id={`ev-${l.index}`}
              aria-current={isCur ? 'step' : undefined}
              ref={isCur ? cur : undefined}
              className={`${isCur ? 'cur' : ''} ${l.index >= frame.cursor ? 'future' : ''} ${l.opStart ? 'op' : ''}`}
              onClick={() => dispatch({ type: 'seek', cursor: l.index + 1 })}
            >
              <span className="i">{l.index + 1}</span>
              <span className="what">{l.text}</span>
              <span className="fn">
                {l.fn && (
                  <a
                    href={elixir(l.fn)}
                    target="_blank"
                    rel="noreferrer"
                    tabIndex={-1}
                    onClick={(e) => e.stopPropagation()}
                    title={`${l.fn} in Linux v6.19 on elixir.bootlin.com`}
                  >
                    {l.fn}()
                  </a>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
