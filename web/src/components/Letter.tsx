/**
 * Seed vs model: the cover letter's table beside the model's (the
 * scenario's `letter:`, wasm-core/ts/letter.ts). The worker runs the
 * scenario once per column (with the page's tunables) and judges each row
 * as the CLI does; this draws the cells, grouped by the letter's rows: the
 * letter's figure and the model's per column, the verdict, and the reason
 * where they differ or cannot be compared. Text from the scenario is text,
 * never HTML.
 */
import type { ReferenceCell } from '../../../wasm-core/ts/letter.js';
import { useStore } from '../store/store.js';

const num = (x: number | null, unit: string, change: boolean) =>
  x === null
    ? '–'
    : `${change && x > 0 ? '+' : ''}${x.toLocaleString('en-US', { maximumFractionDigits: Math.abs(x) < 10 ? 3 : 2 })}${unit === '%' ? '%' : ''}`;

function Verdict({ agrees }: { agrees: boolean | null }) {
  if (agrees === null) return <span className="verdict none">not compared</span>;
  return agrees ? <span className="verdict yes">✓ agrees</span> : <span className="verdict no">✗ differs</span>;
}

export function LetterPanel() {
  const program = useStore((s) => s.program);
  const letter = useStore((s) => s.letter);
  const l = program?.scenario.letter;
  if (!l) return <div className="placeholder">This scenario has no letter to set beside the model.</div>;
  /* the cells grouped by the letter's rows, in its order */
  const groups = new Map<string, ReferenceCell[]>();
  for (const c of letter?.cells ?? []) groups.set(c.row, [...(groups.get(c.row) ?? []), c]);
  const p = letter?.progress;
  return (
    <div className="letter" data-testid="letter">
      <p className="source">{l.source}</p>
      {l.note && <p className="muted">{l.note}</p>}
      {letter?.status === 'running' && (
        <div className="letter-progress" role="status" data-testid="letter-progress">
          Running the scenario once per column
          {p ? ` (${p.column + 1} of ${p.columns}: ${p.label})` : ''}&hellip;
          <progress value={p ? p.column + p.fraction : 0} max={p?.columns ?? 1} />
        </div>
      )}
      {letter?.status === 'error' && (
        <p className="bad" role="alert">
          The letter's runs stopped: {letter.error}
        </p>
      )}
      {letter?.status === 'done' && letter.cells && (
        <table className="letter-table" data-testid="letter-table">
          <thead>
            <tr>
              <th scope="col">The letter's row, and its columns</th>
              <th scope="col" className="num">
                letter
              </th>
              <th scope="col" className="num">
                model
              </th>
              <th scope="col">verdict</th>
            </tr>
          </thead>
          {[...groups.entries()].map(([row, cells]) => {
            const judged = cells.filter((c) => c.agrees !== null);
            const verdict = judged.length ? judged.every((c) => c.agrees) : null;
            const why = cells.find((c) => c.why)?.why;
            const instead = cells.find((c) => c.instead)?.instead;
            return (
              <tbody key={row} data-letter-row={row}>
                <tr className="letter-row">
                  <th scope="rowgroup" colSpan={3}>
                    {row}
                    {cells[0].unit && cells[0].unit !== '%' ? <span className="muted"> ({cells[0].unit})</span> : null}
                  </th>
                  <td>
                    <Verdict agrees={verdict} />
                  </td>
                </tr>
                {cells.map((c) => (
                  <tr key={c.column} className={c.agrees === false ? 'differs' : undefined}>
                    <td className="col">{c.column}</td>
                    <td className="num">{num(c.seed, c.unit, c.change)}</td>
                    <td className="num">{num(c.model, c.unit, c.change)}</td>
                    <td>{c.agrees === null ? '' : c.agrees ? '✓' : '✗'}</td>
                  </tr>
                ))}
                {(instead || (why && verdict !== true)) && (
                  <tr className="why">
                    <td colSpan={4}>
                      {instead && <span>The model counts instead: {instead}. </span>}
                      {why && verdict !== true && <span>{why}</span>}
                    </td>
                  </tr>
                )}
              </tbody>
            );
          })}
        </table>
      )}
    </div>
  );
}
