/**
 * Counters of the runs side by side: every counter that is non-zero in any
 * run, as A, B (and C, D) at the cursor (the runs stand at the same
 * operation), with B − A for two runs; differences highlighted; the
 * model's own counters apart.
 */
import { COUNTERS, FIRST_MODEL_COUNTER, REQUIRED_COUNTERS } from '../../../wasm-core/ts/abi.js';
import type { Frame } from '../frames/types.js';
import type { RunLabels, RunOverlay } from './types.js';
import { dispatch, useStore } from '../store/store.js';
import { fmt } from '../lib/format.js';

export function CompareCounters({
  a,
  others,
  slots,
  labels,
}: {
  a: Frame;
  /** the runs beside A that have a frame at the cursor */
  others: RunOverlay[];
  /** every run beside A, in order (a run still recording has a column of "…") */
  slots: RunOverlay['slot'][];
  labels: RunLabels | null;
}) {
  const chart = useStore((s) => s.chart);
  const frameOf = (slot: RunOverlay['slot']) => others.find((o) => o.slot === slot)?.frame ?? null;
  const b = frameOf('b');
  /* with two runs, B − A; with more, each run's value is enough (its difference shows in colour) */
  const diff = slots.length === 1;
  const cols = 2 + slots.length + (diff ? 1 : 0);
  const rows = (from: number, to: number) =>
    COUNTERS.map((name, i) => ({ name, i })).filter(
      ({ name, i }) =>
        i >= from &&
        i < to &&
        (REQUIRED_COUNTERS.includes(name as never) ||
          a.counters[i] !== 0 ||
          others.some((o) => (o.frame.counters[i] ?? 0) !== 0)),
    );
  const row = ({ name, i }: { name: string; i: number }) => {
    const va = a.counters[i];
    const differs = others.some((o) => o.frame.counters[i] !== va);
    const vb = b?.counters[i];
    const d = vb !== undefined ? vb - va : null;
    return (
      <tr
        key={name}
        className={`${differs ? 'differs' : ''} ${chart.includes(name) ? 'sel' : ''}`}
        data-counter-row={name}
        onClick={() =>
          dispatch({
            type: 'setChart',
            chart: chart.includes(name) ? chart.filter((y) => y !== name) : [...chart, name].slice(-5),
          })
        }
        title={chart.includes(name) ? 'Click to take it off the chart' : 'Click to chart it over the run'}
      >
        <td>
          <code>{name}</code>
        </td>
        <td className="v" data-run="a">
          {fmt(va)}
        </td>
        {slots.map((slot) => {
          const v = frameOf(slot)?.counters[i];
          return (
            <td key={slot} className={`v ${v !== undefined && v !== va ? 'run-differs' : ''}`} data-run={slot}>
              {v !== undefined ? fmt(v) : '…'}
            </td>
          );
        })}
        {diff && <td className="d">{d ? `${d > 0 ? '+' : ''}${fmt(d)}` : d === 0 ? '·' : ''}</td>}
      </tr>
    );
  };
  const names = ['A', ...slots.map((x) => x.toUpperCase())].join(', ');
  return (
    <table className="ctr-table compare" aria-label={`Counters of runs ${names} at the cursor`}>
      <thead>
        <tr>
          <th scope="col">counter</th>
          <th scope="col" title={labels?.a}>
            A
          </th>
          {slots.map((slot) => (
            <th key={slot} scope="col" title={labels?.[slot]}>
              {slot.toUpperCase()}
            </th>
          ))}
          {diff && <th scope="col">B − A</th>}
        </tr>
      </thead>
      <tbody>
        <tr className="grp">
          <td colSpan={cols}>/proc/vmstat</td>
        </tr>
        {rows(0, FIRST_MODEL_COUNTER).map(row)}
        <tr className="grp">
          <td colSpan={cols}>the model&rsquo;s own (no kernel counter)</td>
        </tr>
        {rows(FIRST_MODEL_COUNTER, COUNTERS.length).map(row)}
      </tbody>
    </table>
  );
}
