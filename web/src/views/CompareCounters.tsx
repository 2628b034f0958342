/**
 * Counters of two runs overlaid: every counter that is non-zero in either
 * run, as A, B and B − A at the cursor (both runs stand at the same
 * operation), differences highlighted; the model's own counters apart.
 */
import { COUNTERS, FIRST_MODEL_COUNTER, REQUIRED_COUNTERS } from '../../../wasm-core/ts/abi.js';
import type { Frame } from '../frames/types.js';
import { fmt } from '../lib/format.js';

export function CompareCounters({
  a,
  b,
  labels,
}: {
  a: Frame;
  b: Frame | null;
  labels: { a: string; b: string } | null;
}) {
  const rows = (from: number, to: number) =>
    COUNTERS.map((name, i) => ({ name, i })).filter(
      ({ name, i }) =>
        i >= from &&
        i < to &&
        (REQUIRED_COUNTERS.includes(name as never) || a.counters[i] !== 0 || (b?.counters[i] ?? 0) !== 0),
    );
  const row = ({ name, i }: { name: string; i: number }) => {
    const va = a.counters[i],
      vb = b?.counters[i];
    const d = vb !== undefined ? vb - va : null;
    return (
      <tr key={name} className={d ? 'differs' : ''} data-counter-row={name}>
        <td>
          <code>{name}</code>
        </td>
        <td className="v" data-run="a">
          {fmt(va)}
        </td>
        <td className="v" data-run="b">
          {vb !== undefined ? fmt(vb) : '…'}
        </td>
        <td className="d">{d ? `${d > 0 ? '+' : ''}${fmt(d)}` : d === 0 ? '·' : ''}</td>
      </tr>
    );
  };
  return (
    <table className="ctr-table compare" aria-label="Counters of run A and run B at the cursor">
      <thead>
        <tr>
          <th scope="col">counter</th>
          <th scope="col" title={labels?.a}>
            A
          </th>
          <th scope="col" title={labels?.b}>
            B
          </th>
          <th scope="col">B − A</th>
        </tr>
      </thead>
      <tbody>
        <tr className="grp">
          <td colSpan={4}>/proc/vmstat</td>
        </tr>
        {rows(0, FIRST_MODEL_COUNTER).map(row)}
        <tr className="grp">
          <td colSpan={4}>the model&rsquo;s own (no kernel counter)</td>
        </tr>
        {rows(FIRST_MODEL_COUNTER, COUNTERS.length).map(row)}
      </tbody>
    </table>
  );
}
