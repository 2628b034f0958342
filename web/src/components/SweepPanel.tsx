/**
 * A sweep on screen: the scenario run once per value of one tunable (in the
 * worker, with progress and cancel), a counter charted against the value,
 * and the scenario's reference data (e.g. the patch series' benchmark table)
 * as a second series. `?scenario=...&sweep=fault_around_bytes&y=pgfault`.
 */
import { useMemo } from 'react';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { formatValue, tunableValue } from '../../../wasm-core/ts/multirun.js';
import { tunableInfo } from '../../../wasm-core/ts/tunables.js';
import { currentScenario } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import { useBoxSize } from '../views/useBoxSize.js';
import { canRunAnyway, LimitAsk } from './LimitAsk.js';
import { SweepChart, type SweepSeries } from './SweepChart.js';

/** the chart's bar of progress and export buttons above its plot, and the gap under it */
const CHART_BAR = 46;

interface Reference {
  source: string;
  x: string;
  y: string;
  points: { x: number; y: number }[];
}

export function SweepPanel() {
  const sweep = useStore((s) => s.sweep)!;
  const scenario = useStore(currentScenario);
  const reference = (scenario as { reference?: Reference } | undefined)?.reference;
  const yIdx = COUNTERS.indexOf(sweep.y as never);
  const t = tunableInfo(sweep.key);
  const numeric = sweep.points.length > 0 && sweep.points.every((p) => Number.isFinite(p.x));
  /* a choice or a boolean: a bar per value (a line from false to true says nothing) */
  const bars = sweep.points.length > 0 && (!numeric || t?.type === 'bool' || t?.type === 'choice');
  const log2x = numeric && !bars && !!t?.pow2;
  /* with a versus, the two series are named by the tunables they differ in: "large_mapcount true" / "... false" */
  const versus = sweep.versus;
  const own = useStore((s) => s.program?.scenario);
  const labelA = versus
    ? Object.keys(versus.set)
        .map((k) => `${k} ${own ? formatValue(k, tunableValue(own, k)) : '(as the scenario)'}`)
        .join(', ')
    : 'this model';
  const labelB = versus
    ? Object.entries(versus.set)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '';
  const series = useMemo<SweepSeries[]>(() => {
    const out: SweepSeries[] = [
      {
        id: 'model',
        label: labelA,
        kind: 'model',
        points: sweep.points.map((p, i) => ({
          x: bars ? i : p.x,
          y: p.counters && yIdx >= 0 ? p.counters[yIdx] : null,
        })),
      },
    ];
    if (versus)
      out.push({
        id: 'versus',
        label: labelB,
        kind: 'model',
        points: sweep.points.map((p, i) => ({
          x: bars ? i : p.x,
          y: versus.counters[i] && yIdx >= 0 ? versus.counters[i]![yIdx] : null,
        })),
      });
    if (!bars && reference && reference.x === sweep.key && reference.y === sweep.y)
      out.push({
        id: 'reference',
        label: 'the seed',
        kind: 'reference',
        points: reference.points.map((p) => ({ x: p.x, y: p.y })),
      });
    return out;
  }, [sweep.points, yIdx, reference, sweep.key, sweep.y, versus, labelA, labelB, bars]);
  /* the chart takes the panel's room (at least 300 px tall), so that it is all in the window */
  const [boxRef, box] = useBoxSize<HTMLDivElement>();
  const running = sweep.status === 'running';
  const errors = sweep.points.filter((p) => p.error);
  return (
    <section className="panel sweep-panel" aria-labelledby="sweep-title" data-testid="sweep-panel">
      <div className="panel-head">
        <h2 id="sweep-title">Sweep</h2>
        <span className="sub">
          {sweep.points.length ? `${sweep.points.length} runs of this scenario, one per value of ${sweep.key}` : ''}
        </span>
        <span className="spacer" />
        <label className="sweep-y">
          counter{' '}
          <select
            value={sweep.y}
            onChange={(e) => {
              dispatch({ type: 'setSweepY', y: e.target.value });
              e.currentTarget.blur();
            }}
            data-testid="sweep-y"
          >
            {COUNTERS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn"
          onClick={() => dispatch({ type: 'closeSweep' })}
          data-testid="close-sweep"
        >
          Back to the player
        </button>
      </div>
      <div className="panel-body">
        {sweep.status === 'error' ? (
          <div className="banner bad" role="alert" data-testid="sweep-error">
            The sweep cannot run: {sweep.error}
            {/* refused only by limits a user may raise: the same offer as for one run */}
            {canRunAnyway(sweep.limits) && <LimitAsk limits={sweep.limits} what="sweep" />}
          </div>
        ) : (
          <>
            {(numeric || bars) && (
              <div className="sweep-chart-box" ref={boxRef}>
                <SweepChart
                  title={`${sweep.y} against ${sweep.key}`}
                  xKey={sweep.key}
                  yKey={sweep.y}
                  xFormat={(x) =>
                    bars ? (sweep.points[x]?.label ?? String(x)) : formatValue(sweep.key, t?.type === 'sizes' ? [x] : x)
                  }
                  log2x={log2x}
                  bars={bars}
                  series={series}
                  progress={running ? { done: Math.floor(sweep.done), total: sweep.points.length } : null}
                  onCancel={() => dispatch({ type: 'cancelSweep' })}
                  source={series.length > 1 ? reference?.source : undefined}
                  width={box ? Math.max(480, box.w) : 1200}
                  height={box ? Math.max(300, box.h - CHART_BAR) : 540}
                />
              </div>
            )}
            <div className="sweep-status" role="status" data-testid="sweep-status">
              {running ? (
                `Running ${Math.min(sweep.points.length, Math.floor(sweep.done) + 1)} of ${sweep.points.length}…`
              ) : sweep.status === 'cancelled' ? (
                <>
                  Cancelled after {Math.floor(sweep.done)} of {sweep.points.length} runs.{' '}
                  <button
                    type="button"
                    className="btn"
                    onClick={() =>
                      dispatch({
                        type: 'openSweep',
                        key: sweep.key,
                        values: sweep.asked,
                        y: sweep.y,
                        versus: sweep.versus?.set ?? null,
                      })
                    }
                  >
                    Run it again
                  </button>
                </>
              ) : (
                `Done: ${sweep.points.length} runs.`
              )}
              {errors.length > 0 &&
                ` ${errors.length} run${errors.length > 1 ? 's' : ''} stopped with an error: ${errors[0].label}: ${errors[0].error}`}
            </div>
            {scenario?.letter && (
              <div className="sweep-note" data-testid="sweep-letter">
                The letter ({scenario.letter.source}):{' '}
                {scenario.letter.rows
                  .filter((r) => r.check !== 'none')
                  .map((r) => r.label)
                  .join('; ')}
                . Seed vs model (<kbd>Y</kbd>) sets its figures beside the model&rsquo;s.
              </div>
            )}
            {reference && (reference.x !== sweep.key || reference.y !== sweep.y) && (
              <div className="sweep-note">
                The scenario&rsquo;s reference data is {reference.y} against {reference.x}; choose those to see it.
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
