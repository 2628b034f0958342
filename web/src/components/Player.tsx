/**
 * The player: caption, transport, key figures with the tunables that matter,
 * and the views (panels from the registry that can be shown, hidden and
 * enlarged), plus the banners that say what went wrong and where.
 */
import { useEffect, useMemo, useState } from 'react';
import { COUNTERS, TUNABLES } from '../../../wasm-core/ts/abi.js';
import { DEFAULT_VERSION } from '../../../wasm-core/ts/tunables.js';
import { judgeExpects } from '../../../wasm-core/ts/judge.js';
import {
  changedTunables,
  kernelRunLabels,
  kernelsOfRuns,
  runLabels,
  withSettings,
} from '../../../wasm-core/ts/multirun.js';
import type { Scenario, SettingValue } from '../../../wasm-core/ts/scenario.js';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Timeline } from '../engine/protocol.js';
import { canRunAnyway, LimitAsk } from './LimitAsk.js';
import { QuestionCard, Worksheet } from './Question.js';
import { fmt, ratioText } from '../lib/format.js';
import { finalCounters } from '../store/reducer.js';
import {
  allRecorded,
  beatQuestion,
  questionOpen,
  otherRuns,
  scenarioTitle,
  type AppState,
  type CompareState,
  type ViewId,
} from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import { mechanismOf } from '../mechanisms/registry.js';
import { CompareCounters } from '../views/CompareCounters.js';
import { Charts } from '../views/Counters.js';
import { groupOf, isShown, shownViews, viewsFor, type ViewMeta } from '../views/ids.js';
import { componentOf } from '../views/registry.js';
import type { RunLabels, RunOverlay } from '../views/types.js';
import { SweepPanel } from './SweepPanel.js';
import { Transport } from './Transport.js';
import { bigRunNote } from './bigRun.js';
import { QuickTunables } from './Tunables.js';
import { firstParagraph } from '../lib/markdown.js';
import { captionParts, captionText } from '../../../wasm-core/ts/load/tour-format.js';

/** the scenario as written, without the UI's tunables: what its expect steps are about (compiled in the worker) */
function useOwnScenario(): Scenario | null {
  return useStore((s) => s.own);
}

type Overrides = typeof import('../../../wasm-core/ts/overrides.js');
let overridesModule: Overrides | null = null;
/** the loader's `--set` parsing (it brings the YAML parser): loaded when a run beside A is first asked for */
function useOverrides(wanted: boolean): Overrides | null {
  const [, loaded] = useState(0);
  useEffect(() => {
    if (wanted && !overridesModule)
      void import('../../../wasm-core/ts/overrides.js').then((m) => {
        overridesModule = m;
        loaded((n) => n + 1);
      });
  }, [wanted]);
  return overridesModule;
}

/**
 * each run named by the tunables that differ from A's, and by the kernel they stand for
 * ("3.14 · fault_around_bytes 4 KiB"); A by what B changes
 */
export function useRunLabels(): RunLabels | null {
  const a = useStore((s) => s.program?.scenario ?? null);
  const compare = useStore((s) => s.compare);
  const more = useStore((s) => s.more);
  const overrides = useOverrides(otherRuns({ compare, more }).some((r) => !r.program));
  /* named again only when a run comes, goes or is compiled (not at each frame) */
  const key = `${otherRuns({ compare, more })
    .map((r) => `${r.slot}${r.runId}${r.program ? '+' : ''}`)
    .join(' ')}${overrides ? ' o' : ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the runs are read through key
  return useMemo(() => {
    const runs = otherRuns({ compare, more });
    if (!runs.length) return null;
    const plain = (set: Record<string, string>, slot: string) =>
      `${slot.toUpperCase()}: ${Object.entries(set)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`;
    /* a run still recording is named from A and its settings already, not "B: key=value" */
    const scenarioOf = (r: CompareState) => {
      if (r.program) return r.program.scenario;
      try {
        return a && overrides ? overrides.applyOverrides(a, r.set) : null;
      } catch {
        return null;
      }
    };
    const out: RunLabels = { a: 'A', b: '' };
    runs.forEach((r, i) => {
      const x = scenarioOf(r);
      const pair = a && x ? kernelRunLabels(a, x) : null;
      if (i === 0 && pair) out.a = pair.a;
      out[r.slot] = pair?.b ?? plain(r.set, r.slot);
    });
    return out;
  }, [a, key]);
}

export function Player() {
  const load = useStore((s) => s.load);
  const frame = useStore((s) => s.frame);
  const program = useStore((s) => s.program);
  const timeline = useStore((s) => s.timeline);
  const scenario = useStore((s) => s.scenario);
  const present = useStore((s) => s.present);
  const title = useStore(scenarioTitle);
  const embed = useStore((s) => s.embed);
  const tour = useStore((s) => s.tour !== null);
  const quiz = useStore((s) => s.quiz !== null);
  const asking = useStore(questionOpen);
  const group = scenario?.name?.split('/')[0] ?? mechanismOf(null).id;
  const compare = useStore((s) => s.compare !== null);
  const sweep = useStore((s) => s.sweep !== null);
  const own = useOwnScenario();
  /* an exercise changes tunables on purpose: the scenario's own expect checks are not its business */
  const notes = !quiz && !present && !embed && load.status === 'ready' ? expectNotes(own, program, timeline) : null;
  if (sweep && !present && !embed) {
    return (
      <main className="player" aria-label="Scenario sweep">
        <Banners errorsOnly />
        <SweepPanel />
      </main>
    );
  }
  /* while a run records: its first frame (a big run), or the frame of the run it replaces (a tunable
     changed), drawn dimmed, never "Preparing the machine" over nothing */
  const recording = load.status === 'running' || load.status === 'compiling';
  const views =
    frame && program && timeline && (load.status === 'ready' || recording) ? (
      <Views
        bar={
          compare && !present && !embed ? (
            <>
              <CompareBar />
              {notes && <ExpectNotes {...notes} />}
            </>
          ) : notes ? (
            <ExpectNotes {...notes} />
          ) : null
        }
      />
    ) : load.status === 'error' ? (
      <div className="views-empty">
        {/* one paragraph: the panel is a grid, and bare text around <kbd> would be three of its cells */}
        {load.limits ? (
          <p>
            Run it anyway above, or make it smaller: press <kbd>E</kbd> to open the editor.
          </p>
        ) : (
          <p>
            Fix the scenario to run it: press <kbd>E</kbd> to open the editor.
          </p>
        )}
      </div>
    ) : (
      <div className="views-empty loading">
        {load.status === 'cancelled' ? 'Nothing was recorded.' : 'Preparing the machine\u2026'}
      </div>
    );
  if (present || embed) {
    /* presenter mode and embeds: the caption (presenter), a thin transport, one or two views filling the rest */
    return (
      <main className="player stage" aria-label={present ? 'Scenario player, presenter mode' : 'Scenario player'}>
        <h1 className="visually-hidden">{title}</h1>
        {(present || tour) && <Caption large={present} bare />}
        {quiz && <QuestionCard />}
        <Transport thin group={group} />
        {load.status === 'error' && <Banners errorsOnly />}
        {views}
      </main>
    );
  }
  return (
    <main className="player" aria-label="Scenario player">
      <Caption />
      {quiz && <QuestionCard />}
      <Transport group={group} />
      <div className={`topline ${compare || asking ? '' : 'with-actions'}`}>
        <Figures />
        {/* an open question's answer is the model's with the beat's tunables: they stay as they are until it is answered */}
        {!asking && <QuickTunables group={group} />}
        {!compare && !asking && <CompareBar />}
      </div>
      {/* an exercise changes tunables on purpose: the scenario's own expect checks are not its business */}
      <Banners errorsOnly={quiz} />
      {views}
      {quiz && <Worksheet />}
    </main>
  );
}

/**
 * The caption: where the cursor is in the scenario, the current `say` in
 * full (two lines; the About drawer has all of it), and before step 1 the
 * scenario's story, its first paragraph, with a way to read the rest.
 */
/** large: presenter mode's; bare: on stage or in an embed, without the drawers' buttons */
export function Caption({ large = false, bare = large }: { large?: boolean; bare?: boolean }) {
  const frame = useStore((s) => s.frame);
  const program = useStore((s) => s.program);
  const step = frame?.step ?? null;
  const info = step !== null ? program?.steps[step] : null;
  const about = program ? firstParagraph(program.scenario.about) : '';
  const hasLetter = !!program?.scenario.letter;
  const tour = useStore((s) => s.tour);
  const countersB = useStore((s) => s.compare?.frame?.counters ?? null);
  const more = useStore((s) => s.more);
  const asking = useStore((s) => (questionOpen(s) ? beatQuestion(s) : null));
  let where: string, text: React.ReactNode;
  if (tour && asking) {
    /* an exercise's open question: the caption would tell the answer; it asks instead */
    where = `${tour.index - tour.from + 1} / ${tour.to - tour.from + 1}`;
    text = (
      <span className="say" data-testid="beat-caption">
        {asking.prompt}
      </span>
    );
  } else if (tour) {
    /* a tour's beat: its caption, for the audience, and where the talk is */
    /* an embed of beats 3-7 counts its own: 1 / 5 */
    where = `${tour.index - tour.from + 1} / ${tour.to - tour.from + 1}`;
    text = (
      <span className="say" data-testid="beat-caption">
        {captionText(
          captionParts(tour.beats[tour.index].caption),
          frame?.counters ?? null,
          countersB,
          more.map((r) => r.frame?.counters ?? null),
        )}
      </span>
    );
  } else if (frame?.big) {
    where = 'run complete';
    text = <span className="summary">{about}</span>;
  } else if (step === null) {
    where = 'before step 1';
    text = <span className="summary">{about}</span>;
  } else {
    where = `step ${step + 1}/${program?.steps.length}`;
    text = (
      <>
        {frame?.say ? (
          <span className="say" data-testid="say">
            {frame.say}
          </span>
        ) : null}
        {/* an expect clause is the operator's, not the audience's */}
        {info && info.kind !== 'say' && !(large && info.kind === 'expect') && (
          <span className="summary">
            {frame?.say ? ' \u00b7 ' : ''}
            {info.summary}
          </span>
        )}
      </>
    );
  }
  return (
    <div className={`caption ${large ? 'large' : ''}`} aria-live="polite" data-testid="caption">
      <span className="step-no">{where}</span>
      <p className="text">{text}</p>
      {!bare && hasLetter && (
        <button
          type="button"
          className="btn"
          onClick={() => dispatch({ type: 'openDrawer', drawer: 'letter' })}
          title="The seed's cover letter beside the model: its table, each figure with the model's (Y)"
          data-testid="open-letter"
        >
          Seed vs model <span className="kbd">Y</span>
        </button>
      )}
      {!bare && (
        <button
          type="button"
          className="btn"
          onClick={() => dispatch({ type: 'openDrawer', drawer: 'about' })}
          title="About this scenario (A)"
          data-testid="open-about"
        >
          About <span className="kbd">A</span>
        </button>
      )}
    </div>
  );
}

/** a key figure's card: its name and counter, outlined when a beat points at it */
function FigureCard({
  counter,
  label,
  spot,
  children,
}: {
  counter: string;
  label: string;
  spot: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className={`figure ${spot ? 'spot' : ''}`} data-testid={`figure-${counter}`}>
      <div className="k" title={`${label} (${counter})`}>
        {label} <code>{counter}</code>
      </div>
      {children}
    </div>
  );
}

function Figures() {
  const asking = useStore(questionOpen);
  return asking ? (
    <div className="figures q-hidden" role="group" aria-label="Key counters">
      The key figures are hidden until you answer.
    </div>
  ) : (
    <ShownFigures />
  );
}

function ShownFigures() {
  const group = useStore((s) => s.scenario?.name?.split('/')[0]);
  const FIGURES = mechanismOf(group).figures;
  const frame = useStore((s) => s.frame);
  const previous = useStore((s) => s.previous);
  const timeline = useStore((s) => s.timeline);
  const compare = useStore((s) => s.compare);
  const more = useStore((s) => s.more);
  /* selectors must return stable values: derive the final counters here (none while a run records: the
     timeline on screen is its first frame's, or the last run's) */
  const ready = useStore((s) => s.load.status === 'ready');
  const whole = useMemo(() => (ready ? finalCounters({ timeline }) : undefined), [timeline, ready]);
  const wholeB = useMemo(() => finalCounters({ timeline: compare?.timeline ?? null }), [compare?.timeline]);
  const fb = compare?.frame ?? null;
  const spot = useStore((s) => (s.highlight?.kind === 'figure' ? s.highlight.counter : null));
  const labels = useRunLabels();
  const runs = otherRuns({ compare, more });
  return (
    <div
      className={`figures ${compare ? 'compare' : ''} ${runs.length > 1 ? `runs-${runs.length + 1}` : ''}`}
      role="group"
      aria-label="Key counters"
      data-recording={!ready || undefined}
      data-at={frame?.cursor}
    >
      {FIGURES.map(({ key, label }) => {
        const i = COUNTERS.indexOf(key as never);
        const v = frame?.counters[i];
        const end = whole?.[i];
        if (compare && runs.length > 1) {
          /* three or four runs: each run's value, and each beside A as a ratio ("÷16", "−93%") */
          return (
            <FigureCard key={key} counter={key} label={label} spot={spot === key}>
              <div className="ab">
                <span className="run-a" data-run="a" data-counter={key} data-value={v ?? ''} title={`A: ${labels?.a}`}>
                  {v !== undefined ? fmt(v) : '–'}
                </span>
                {runs.map((r) => {
                  const w = r.frame?.counters[i];
                  return (
                    <span
                      key={r.slot}
                      className={`run-${r.slot}`}
                      data-run={r.slot}
                      data-counter={key}
                      data-value={w ?? ''}
                      title={`${r.slot.toUpperCase()}: ${labels?.[r.slot]}`}
                    >
                      {w !== undefined ? fmt(w) : '–'}
                    </span>
                  );
                })}
              </div>
              <div className="was" data-testid={`diff-${key}`}>
                {v !== undefined
                  ? `${runs
                      .map((r) => {
                        const w = r.frame?.counters[i];
                        const t = w === undefined ? '…' : w === v ? '=' : v ? ratioText(w / v) : `+${fmt(w)}`;
                        return `${r.slot.toUpperCase()} ${t}`;
                      })
                      .join(' \u00b7 ')} vs A`
                  : ' '}
              </div>
            </FigureCard>
          );
        }
        if (compare) {
          const w = fb?.counters[i];
          const d = v !== undefined && w !== undefined ? w - v : undefined;
          return (
            <FigureCard key={key} counter={key} label={label} spot={spot === key}>
              <div className="ab">
                <span className="run-a" data-run="a" data-counter={key} data-value={v ?? ''} title="run A">
                  {v !== undefined ? fmt(v) : '–'}
                </span>
                <span className="run-b" data-run="b" data-counter={key} data-value={w ?? ''} title="run B">
                  {w !== undefined ? fmt(w) : '–'}
                </span>
              </div>
              <div className={`was ${d ? 'differs' : ''}`} data-testid={`diff-${key}`}>
                {d !== undefined ? (
                  <>
                    B − A{' '}
                    <b>
                      {d > 0 ? '+' : ''}
                      {fmt(d)}
                    </b>
                    {v && w !== undefined && d ? ` (${ratioText(w / v)})` : ''}
                  </>
                ) : (
                  ' '
                )}
                {end !== undefined && wholeB && (
                  <>
                    {' '}
                    · whole run {fmt(end)} / {fmt(wholeB[i])}
                  </>
                )}
              </div>
            </FigureCard>
          );
        }
        const before = previous?.counters[i];
        const ratio = before && end !== undefined && before !== end ? end / before : null;
        /* the line whole, for a short window's two lines (styles.css) */
        const was = [
          end !== undefined ? `whole run ${fmt(end)}` : '',
          before !== undefined && before !== end
            ? `before ${fmt(before)}${ratio ? ` (${ratioText(ratio)})` : ''}, with ${previous!.label}`
            : '',
        ]
          .filter(Boolean)
          .join(' · ');
        return (
          <FigureCard key={key} counter={key} label={label} spot={spot === key}>
            <div className="v" data-testid={`value-${key}`} data-run="a" data-counter={key} data-value={v ?? ''}>
              {v !== undefined ? fmt(v) : '–'}
            </div>
            <div className="was" title={was || undefined}>
              {end !== undefined ? (
                <>
                  whole run <b>{fmt(end)}</b>
                </>
              ) : (
                /* recording: the line keeps its place (nothing moves when the run arrives) */
                !ready && (
                  <>
                    whole run <b>&hellip;</b>
                  </>
                )
              )}
              {before !== undefined && before !== end && (
                <span title={`with ${previous!.label}`}>
                  {' '}
                  · before {fmt(before)}
                  {ratio ? ` (${ratioText(ratio)})` : ''}
                </span>
              )}
            </div>
          </FigureCard>
        );
      })}
    </div>
  );
}

/** compare on or off (the scenario's natural comparison in one click), sweep, and the runs' labels */
function CompareBar() {
  const compare = useStore((s) => s.compare);
  const more = useStore((s) => s.more);
  const group = useStore((s) => groupOf(s.scenario?.name));
  const scenario = useStore((s) => s.program?.scenario ?? s.running);
  const labels = useRunLabels();
  const natural = (scenario as { compare?: Record<string, unknown> } | null | undefined)?.compare;
  let naturalSet = natural
    ? Object.fromEntries(
        Object.entries(natural).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(', ')}]` : String(v)]),
      )
    : null;
  /* offered as run B's label; not when run A has those tunables already (the drawer, set=): B would be A */
  let naturalLabel = '';
  /* the kernel run B stands for, when its settings name one ("2.6.38" rather than "invalidate-only") */
  let naturalKernel: string | null = null;
  if (naturalSet && scenario && natural) {
    /* the scenario's own compare: is typed and checked already: no parsing on the page */
    const b = withSettings(scenario, natural as Record<string, SettingValue>);
    if (changedTunables(scenario, b).length) {
      naturalLabel = kernelRunLabels(scenario, b).b;
      naturalKernel = kernelsOfRuns(scenario, b)?.b ?? null;
    } else naturalSet = null;
  }
  const mech = mechanismOf(group);
  const sweepY = mech.sweepY ?? 'pgfault';
  /* the tunable the compare button sits beside: the natural compare's, or the group's first quick one */
  const quick = scenario
    ? (Object.keys(naturalSet ?? {})[0] ??
      TUNABLES.find((t) => t.quick && t.mechanism === mechanismOf(group).id)?.key ??
      null)
    : null;
  /*
   * beside its quick tunable the button names only the value ("Compare with 4 KiB"); its title says all.
   * A tunable not shown there (the LRU's workingset), or a true/false one (large_mapcount), keeps its
   * name: "Compare with true" says nothing.
   */
  const besideIt =
    !!quick &&
    TUNABLES.some((t) => t.key === quick && t.quick && t.type !== 'bool' && t.mechanism === mechanismOf(group).id);
  /* a value reads alone when it is a quantity ("4 KiB") or the tunable says its choices name themselves
     ('mm-wide'); a bare "off" or "always" says nothing: such values keep the tunable's name */
  const quickInfo = TUNABLES.find((t) => t.key === quick);
  const readsAlone = !!quickInfo && (quickInfo.type === 'choice' ? !!quickInfo.readsAlone : quickInfo.type !== 'bool');
  const shortLabel = naturalKernel
    ? naturalKernel
    : naturalSet &&
        quick &&
        besideIt &&
        Object.keys(naturalSet).length === 1 &&
        naturalLabel.startsWith(`${quick} `) &&
        readsAlone
      ? naturalLabel.slice(quick.length + 1)
      : naturalLabel;
  return (
    <div className={`comparebar ${compare ? '' : 'actions'} ${more.length ? 'many' : ''}`} data-testid="comparebar">
      {compare ? (
        <>
          <span className="run-label a" data-testid="run-label-a">
            <b>A</b> {labels?.a}
          </span>
          {otherRuns({ compare, more }).map((r) => {
            /* a run's progress fills its own label, taking no room: as text beside the labels, four runs'
               progress pushed the bar onto three rows at 1280x720 and the page scrolled while they recorded */
            const pct =
              r.load.status === 'running' ? Math.round((100 * r.load.done) / Math.max(1, r.load.total)) : null;
            return (
              <span
                key={r.slot}
                className={`run-label ${r.slot} ${pct !== null ? 'recording' : ''}`}
                data-testid={`run-label-${r.slot}`}
                style={pct !== null ? ({ '--rec': `${pct}%` } as React.CSSProperties) : undefined}
                title={pct !== null ? `Recording run ${r.slot.toUpperCase()}: ${pct}%` : undefined}
              >
                <b>{r.slot.toUpperCase()}</b> {labels?.[r.slot]}
                {pct !== null && <span className="visually-hidden">, recording, {pct}%</span>}
              </span>
            );
          })}
          {otherRuns({ compare, more }).map((r) =>
            r.load.status === 'error' ? (
              <span className="bad" role="alert" key={`e${r.slot}`}>
                Run {r.slot.toUpperCase()} cannot run: {r.load.issues[0]?.message}
              </span>
            ) : null,
          )}
          <span className="spacer" />
          <button
            type="button"
            className="btn"
            onClick={() => dispatch({ type: 'setCompare', set: null })}
            data-testid="stop-compare"
          >
            Stop comparing
          </button>
        </>
      ) : (
        <>
          {naturalSet && (
            <button
              type="button"
              className="btn"
              onClick={() => dispatch({ type: 'setCompare', set: naturalSet })}
              data-testid="compare-natural"
              aria-label={`Compare with ${naturalLabel}`}
              title={`Compare with ${naturalLabel}: run the scenario a second time with it, side by side, stepped together`}
            >
              Compare with {shortLabel}
            </button>
          )}
          {/* a seed's kernel beside today's: the question after every talk */}
          {scenario && scenario.kernel.version !== DEFAULT_VERSION && (
            <button
              type="button"
              className="btn"
              onClick={() => dispatch({ type: 'setCompare', set: { version: DEFAULT_VERSION } })}
              data-testid="compare-today"
              aria-label={`Compare ${scenario.kernel.version} with today's kernel, ${DEFAULT_VERSION}`}
              title={`Run it again under ${DEFAULT_VERSION}'s rules (every key the scenario does not set itself), side by side`}
            >
              Today: {DEFAULT_VERSION}
            </button>
          )}
        </>
      )}
      {quick && (
        <button
          type="button"
          className="btn"
          onClick={() =>
            dispatch({
              type: 'openSweep',
              key: mech.sweepKey ?? quick,
              values: null,
              y: sweepY,
              versus: compare ? null : (mech.sweepVersus ?? null),
            })
          }
          data-testid="open-sweep"
          aria-label={`Sweep ${mech.sweepKey ?? quick}`}
          title={`Sweep ${mech.sweepKey ?? quick}: run the scenario once per value and chart ${sweepY}${
            !compare && mech.sweepVersus
              ? `, and again with ${Object.entries(mech.sweepVersus)
                  .map(([k, v]) => `${k} ${v}`)
                  .join(', ')}`
              : ''
          }`}
        >
          {compare ? 'Sweep' : 'Sweep every value'}
        </button>
      )}
    </div>
  );
}

/** a tunable other than the scenario's own turned its expect checks into notes: what they say, or null */
function expectNotes(
  own: ReturnType<typeof useOwnScenario>,
  program: Program | null,
  timeline: Timeline | null,
): { label: string; notes: string[] } | null {
  if (!own || !program || !timeline || timeline.error || !timeline.expectFailures.length) return null;
  const j = judgeExpects(own, program.scenario, { expectFailures: timeline.expectFailures });
  if (!j.changed.length) return null;
  return { label: runLabels(own, program.scenario).b, notes: j.notes.map((n) => n.message) };
}

/**
 * The notes, one line in the view bar (a row of its own pushed prefault/sequential's views 124 px under a
 * 1280x720 window and 35 px under 1920x1080), opening to their list.
 */
function ExpectNotes({ label, notes }: { label: string; notes: string[] }) {
  const lead = 'With other tunables than the scenario\u2019s own';
  const rest = ` (${label}), its expect checks are a comparison, not a test: ${notes.length} differ`;
  return (
    <>
      {/* said once, as the run comes in; the line itself is a control, not a live region */}
      <span className="visually-hidden" role="status">
        {lead}
        {rest}
      </span>
      <details className="expect-notes" data-testid="expect-notes">
        <summary>
          <strong>{lead}</strong>
          {rest}
        </summary>
        <ul>
          {notes.slice(0, 5).map((n, k) => (
            <li key={k}>{n}</li>
          ))}
        </ul>
      </details>
    </>
  );
}

/** "about 40 s" of work, from the operations limit's refusal; "a while" when only memory was over */
function Banners({ errorsOnly = false }: { errorsOnly?: boolean }) {
  const own = useOwnScenario();
  const program = useStore((s) => s.program);
  const load = useStore((s) => s.load);
  const overrides = useStore((s) => s.overrides);
  const timeline = useStore((s) => s.timeline);
  const file = useStore((s) => s.scenario?.file);
  if (load.status === 'error' && load.tunables) {
    return (
      <div className="banner bad" role="alert" data-testid="error-banner">
        <strong>These tunables cannot be used with this scenario.</strong>
        <ul>
          {load.issues.slice(0, 8).map((i, k) => (
            <li key={k}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
        <div className="limit-ask">
          <button
            type="button"
            className="btn primary"
            onClick={() => dispatch({ type: 'resetTunables' })}
            data-testid="reset-tunables"
          >
            Run with the scenario&rsquo;s own tunables
          </button>{' '}
          <button type="button" className="btn" onClick={() => dispatch({ type: 'openDrawer', drawer: 'tunables' })}>
            Open the tunables
          </button>
        </div>
      </div>
    );
  }
  if (load.status === 'error') {
    return (
      <div className="banner bad" role="alert" data-testid="error-banner">
        <strong>{load.limits ? 'This scenario is bigger than the limits allow.' : 'This scenario cannot run.'}</strong>
        <ul>
          {load.issues.slice(0, 8).map((i, k) => (
            <li key={k}>
              <span className="loc">
                {file}
                {i.line ? `:${i.line}` : ''}
              </span>
              {i.path && (
                <>
                  {' '}
                  <code>{i.path}</code>
                </>
              )}
              : {i.message}
            </li>
          ))}
        </ul>
        {canRunAnyway(load.limits) ? (
          <LimitAsk limits={load.limits} what="run" testId="limit-ask">
            {' '}
            <button type="button" className="btn" onClick={() => dispatch({ type: 'openGallery' })}>
              Back to the gallery
            </button>{' '}
            <button type="button" className="btn" onClick={() => dispatch({ type: 'openDrawer', drawer: 'editor' })}>
              Open in the editor
            </button>
          </LimitAsk>
        ) : (
          <button
            type="button"
            className="btn"
            style={{ marginTop: 8 }}
            onClick={() => dispatch({ type: 'openDrawer', drawer: 'editor' })}
          >
            Open in the editor
          </button>
        )}
      </div>
    );
  }
  if (load.status === 'cancelled') {
    return (
      <div className="banner" role="status">
        The run was cancelled.{' '}
        <button type="button" className="btn" onClick={() => dispatch({ type: 'rerun' })}>
          Run it again
        </button>{' '}
        {Object.keys(overrides).length > 0 && (
          <button type="button" className="btn" onClick={() => dispatch({ type: 'resetTunables' })}>
            Run with the scenario&rsquo;s tunables
          </button>
        )}
      </div>
    );
  }
  if (!timeline || load.status !== 'ready') return null;
  if (errorsOnly && !timeline.error) return null;
  if (timeline.error) {
    const at = timeline.error.at;
    return (
      <div className="banner bad" role="alert" data-testid="run-error">
        <strong>The run stopped</strong>{' '}
        {at && (
          <span className="loc">
            at {file}:{at.line} ({at.path})
          </span>
        )}
        : {timeline.error.message}
        <div style={{ marginTop: 4 }}>Everything up to the error can still be stepped through.</div>
      </div>
    );
  }
  /* a tunable other than the scenario's own turned the expect checks into notes: the view bar says so */
  if (expectNotes(own, program, timeline)) return null;
  if (timeline.expectFailures.length) {
    return (
      <div className="banner bad" role="status" data-testid="expect-failures">
        <strong>
          {timeline.expectFailures.length} expect check{timeline.expectFailures.length > 1 ? 's' : ''} failed
        </strong>{' '}
        with these tunables:
        <ul>
          {timeline.expectFailures.slice(0, 5).map((f, k) => (
            <li key={k}>
              {f.at && <span className="loc">line {f.at.line} </span>}
              {f.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (timeline.big) {
    return (
      <div className="banner big-run" role="status">
        {bigRunNote(timeline.work)}
      </div>
    );
  }
  return null;
}

/**
 * Presenter mode and embeds show at most two views, in this order of
 * preference: the mechanism's own views, the address space, then the walk,
 * the log, the counters and the steps.
 */
const STAGE_ORDER: ViewId[] = ['address', 'walk', 'log', 'counters', 'steps'];

export function stageViews(views: Record<ViewId, boolean>, enlarged: ViewId | null, group: string | null): ViewMeta[] {
  const all = viewsFor(group);
  if (enlarged) return all.filter((v) => v.id === enlarged);
  const rank = (v: ViewMeta) => (STAGE_ORDER.includes(v.id) ? STAGE_ORDER.indexOf(v.id) : -1);
  const shown = shownViews(views, group)
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, 2);
  return shown.length ? shown : all.filter((v) => v.id === 'address');
}

/** a window no taller than a projector's 1280x720 (800 px): there the views not chosen are two, as on stage */
const SHORT = '(max-height: 800px)';
function useShortWindow(): boolean {
  const [short, setShort] = useState(() => typeof matchMedia !== 'undefined' && matchMedia(SHORT).matches);
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return;
    const m = matchMedia(SHORT);
    const on = () => setShort(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return short;
}

/**
 * The views on screen when nobody chose them in a short window: the two the stage would show (every view
 * in a 335 px band was unreadable), or null where the choice (or the default, every view) stands.
 */
function useDefaultShortViews(): ViewId[] | null {
  const short = useShortWindow();
  const views = useStore((s) => s.views);
  const enlarged = useStore((s) => s.enlarged);
  const group = useStore((s) => groupOf(s.scenario?.name));
  if (!short || enlarged || Object.keys(views).length > 0) return null;
  return stageViews(views, null, group).map((v) => v.id);
}

/* lists in a side panel: two runs side by side, each over the panel's whole height (stacked in the short
   panel under the walk, each run had 0 to 13 px of rows at 1920x1080) */
const SIDE_BY_SIDE: ReadonlySet<ViewId> = new Set(['log', 'steps']);

/** the views; `bar` (the comparison's run names and actions) shares the row of the hidden views' buttons */
function Views({ bar = null }: { bar?: React.ReactNode }) {
  const views = useStore((s) => s.views);
  const enlarged = useStore((s) => s.enlarged);
  const stage = useStore((s) => s.present || s.embed);
  const group = useStore((s) => groupOf(s.scenario?.name));
  const onScreen = useDefaultShortViews();
  const all = viewsFor(group);
  /* recorded: the views are the run's; recording, they are its first frame or the last run's, dimmed */
  const ready = useStore((s) => s.load.status === 'ready' && s.fresh);
  const recorded = useStore(allRecorded);
  const sizes = useStore((s) => s.viewSizes);
  if (stage) {
    const chosen = stageViews(views, enlarged, group);
    /* a beat's sizes: the columns' shares (side by side on stage) */
    const cols =
      sizes && chosen.length === 2 ? chosen.map((v) => `minmax(0, ${sizes[v.id] ?? 1}fr)`).join(' ') : undefined;
    return (
      <div
        style={cols ? { gridTemplateColumns: cols } : undefined}
        className={`views stage-views n${chosen.length}`}
        data-testid="views"
        data-ready={recorded || undefined}
        data-recording={!ready || undefined}
      >
        {chosen.map((v) => (
          <Panel key={v.id} def={v} />
        ))}
      </div>
    );
  }
  const shownHere = (v: ViewMeta) => (onScreen ? onScreen.includes(v.id) : isShown(views, v.id, group));
  const hidden = all.filter((v) => !shownHere(v));
  const inColumn = (col: ViewMeta['column']) => all.filter((v) => shownHere(v) && v.column === col);
  /* a short window's default views, all of one column (the folio above the address space): side by side,
     as on stage, where stacked the first got its header only */
  const split = onScreen && onScreen.length > 1 && (!inColumn('main').length || !inColumn('side').length);
  const shownAll = all.filter(shownHere);
  const visible = (col: ViewMeta['column']) =>
    split ? (col === 'main' ? shownAll.slice(0, 1) : shownAll.slice(1)) : inColumn(col);
  return (
    <>
      {(hidden.length > 0 || bar) && (
        <div className="viewbar">
          {bar}
          {hidden.length > (bar ? 1 : 3) ? (
            /* many (or beside a comparison's run names): one menu, so that the row never wraps */
            <div className="hidden-views">
              <select
                aria-label={`Show a hidden view (${hidden.length} hidden)`}
                value=""
                onChange={(e) =>
                  e.target.value &&
                  dispatch({ type: 'toggleView', id: e.target.value as ViewId, shown: onScreen ?? undefined })
                }
                data-testid="show-view"
              >
                <option value="">{`Views: ${hidden.length} hidden…`}</option>
                {hidden.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.title}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            hidden.length > 0 && (
              <div className="hidden-views" role="group" aria-label="Hidden views">
                <span aria-hidden>Hidden:</span>
                {hidden.map((v) => (
                  <button
                    type="button"
                    key={v.id}
                    className="btn"
                    onClick={() => dispatch({ type: 'toggleView', id: v.id, shown: onScreen ?? undefined })}
                    aria-label={`Show ${v.title}`}
                    title={`Show ${v.title}`}
                  >
                    + {v.title}
                  </button>
                ))}
              </div>
            )
          )}
        </div>
      )}
      {enlarged ? (
        <div
          className="views one"
          data-testid="views"
          data-ready={recorded || undefined}
          data-recording={!ready || undefined}
        >
          <Panel def={all.find((v) => v.id === enlarged) ?? all[0]} />
        </div>
      ) : (
        <div
          className={`views ${!visible('main').length || !visible('side').length ? 'one' : ''}`}
          data-testid="views"
          data-ready={recorded || undefined}
          data-recording={!ready || undefined}
        >
          {visible('main').length > 0 && (
            <div className="col">
              {visible('main').map((v) => (
                <Panel key={v.id} def={v} shown={onScreen} />
              ))}
            </div>
          )}
          {visible('side').length > 0 && (
            <div className="col">
              {visible('side').map((v) => (
                <Panel key={v.id} def={v} shown={onScreen} />
              ))}
            </div>
          )}
        </div>
      )}
    </>
  );
}

function subtitle(id: ViewId, s: AppState): string {
  const f = s.frame;
  if (!f) return '';
  if (id === 'address') {
    /* the process the view shows: the one picked on its tabs, else the one in focus */
    const mm = f.mms[s.mmSel ?? f.focusMm] ?? f.mms[0];
    if (mm && !mm.alive) return `process ${mm.name}, ${mm.exited ? 'exited' : 'not forked yet'}`;
    return mm
      ? `process ${mm.name}, ${fmt(mm.nrVmas)} VMA${mm.nrVmas === 1 ? '' : 's'}${mm.nrVmas > mm.vmas.length ? ` (the first ${fmt(mm.vmas.length)} drawn)` : ''}`
      : '';
  }
  if (id === 'walk') return f.walk ? `0x${f.walk.addr.toString(16)}` : '';
  if (id === 'log') return f.event ? `event ${fmt(f.cursor)}: ${f.event.label}` : '';
  return '';
}

/** shown: the views on screen when nobody chose them (useDefaultShortViews), for the close button */
function Panel({ def, shown = null }: { def: ViewMeta; shown?: ViewId[] | null }) {
  const enlarged = useStore((s) => s.enlarged === def.id);
  const frame = useStore((s) => s.frame)!;
  const program = useStore((s) => s.program)!;
  const timeline = useStore((s) => s.timeline)!;
  const prevCounters = useStore((s) => s.prevCounters);
  const theme = useStore((s) => s.theme);
  const sub = useStore((s) => subtitle(def.id, s));
  const compare = useStore((s) => s.compare);
  const labels = useRunLabels();
  const stage = useStore((s) => s.present || s.embed);
  const C = componentOf(def.id)!;
  const spot = useStore((s) => s.highlight?.kind === 'view' && s.highlight.view === def.id);
  const asking = useStore(questionOpen);
  /* a beat's sizes: over the view's own share */
  const size = useStore((s) => s.viewSizes?.[def.id] ?? null);
  const more = useStore((s) => s.more);
  const chart = useStore((s) => s.chart);
  const b = compare?.frame && compare.program && compare.timeline ? compare : null;
  /* the runs beside A that have a frame, for the views that overlay them (and the counters table) */
  const others: RunOverlay[] = otherRuns({ compare, more }).flatMap((r) =>
    r.frame && r.program && r.timeline
      ? [{ slot: r.slot, frame: r.frame, program: r.program, timeline: r.timeline, label: labels?.[r.slot] ?? r.slot }]
      : [],
  );
  return (
    <section
      className={`panel ${spot ? 'spot' : ''}`}
      style={
        {
          '--grow': size ?? def.grow ?? 1,
          minHeight: def.minRem ? `${def.minRem}rem` : undefined,
        } as React.CSSProperties
      }
      aria-labelledby={`view-${def.id}`}
      aria-describedby={`view-${def.id}-d`}
      data-view={def.id}
    >
      <div className="panel-head">
        <h2 id={`view-${def.id}`}>{def.title}</h2>
        <span className="sub" id={`view-${def.id}-d`} title={def.description}>
          {sub || def.description}
        </span>
        <span className="spacer" />
        {!stage && (
          <>
            <button
              type="button"
              className="btn icon"
              onClick={() => dispatch({ type: 'enlarge', id: enlarged ? null : def.id })}
              aria-label={enlarged ? `Restore ${def.title}` : `Enlarge ${def.title}`}
              title={enlarged ? 'Restore' : 'Enlarge'}
            >
              {enlarged ? '⤡' : '⤢'}
            </button>
            <button
              type="button"
              className="btn icon"
              onClick={() => dispatch({ type: 'toggleView', id: def.id, shown: shown ?? undefined })}
              aria-label={`Hide ${def.title}`}
              title="Hide"
            >
              ✕
            </button>
          </>
        )}
      </div>
      <div
        tabIndex={def.id === 'walk' ? 0 : undefined}
        className={`panel-body ${def.fit ? 'fit' : ''} ${compare && def.id !== 'counters' && !def.overlay ? `ab-grid ${def.column === 'side' && !SIDE_BY_SIDE.has(def.id) ? 'stacked' : ''}` : ''}`}
      >
        {asking && def.wholeRun ? (
          <div className="q-hidden">Hidden until you answer: this view shows the whole run.</div>
        ) : compare && def.id === 'counters' ? (
          /* every run's counters, and the charted ones over the run, every run's line on the same axes */
          <div className="ctr-wrap">
            <div className="ctr-list" tabIndex={0} role="region" aria-label="Every run's counters at the cursor">
              <CompareCounters
                a={frame}
                others={others}
                slots={otherRuns({ compare, more }).map((r) => r.slot)}
                labels={labels}
              />
            </div>
            <Charts chart={chart} frame={frame} timeline={timeline} others={others} />
          </div>
        ) : compare && def.overlay ? (
          <C
            frame={frame}
            program={program}
            timeline={timeline}
            prevCounters={prevCounters}
            theme={theme}
            label={labels?.a ?? 'A'}
            others={others}
          />
        ) : compare ? (
          <>
            <div className="ab-run" data-run-view="a">
              <div className="ab-head run-a">
                <b>A</b> {labels?.a}
              </div>
              <C frame={frame} program={program} timeline={timeline} prevCounters={prevCounters} theme={theme} />
            </div>
            <div className="ab-run" data-run-view="b">
              <div className="ab-head run-b">
                <b>B</b> {labels?.b}
              </div>
              {b ? (
                <C frame={b.frame!} program={b.program!} timeline={b.timeline!} prevCounters={null} theme={theme} />
              ) : (
                <div className="loading">
                  {compare.load.status === 'error' ? 'Run B cannot run.' : 'Recording run B…'}
                </div>
              )}
            </div>
          </>
        ) : (
          <C frame={frame} program={program} timeline={timeline} prevCounters={prevCounters} theme={theme} />
        )}
      </div>
    </section>
  );
}
