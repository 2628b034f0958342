/**
 * An exercise's question, under the caption (which reads the question while
 * it is open): an answer box or the options, Check, Reveal, and what the
 * student gets back. The answer is the model's, computed in the worker; it
 * is drawn here only once revealed (right, two tries, or Reveal), or for a
 * teacher (&teacher=1). At the exercise's last beat, the score and a line to
 * hand in.
 */
import { useState } from 'react';
import type { QuizPicture } from '../engine/protocol.js';
import { pageList, type QuizAnswer } from '../../../wasm-core/ts/grade.js';
import type { Question as Q } from '../../../wasm-core/ts/load/tour.js';
import { momentText } from '../../../wasm-core/ts/moment.js';
import { fmt } from '../lib/format.js';
import { groupOf, viewsFor } from '../views/ids.js';
import { PictureContext } from '../views/picture.js';
import { componentOf } from '../views/registry.js';
import type { Beat } from '../../../wasm-core/ts/load/tour.js';
import { beatQuestion, questionOpen, type AppState, type QuestionProgress } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import './quiz.css';

const answerText = (a: QuizAnswer) =>
  a.kind === 'number'
    ? fmt(a.value as number)
    : a.kind === 'pick'
      ? `pages ${String(a.value).split(',').join(', ')}`
      : a.kind === 'order'
        ? String(a.value).split(',').join(' \u2192 ')
        : (a.options.find((o) => o.id === a.value)?.label ?? String(a.value));

/** an order question's list: each event moved up or down with its buttons (the keyboard's too) */
function OrderList({
  answer,
  order,
  setOrder,
}: {
  answer: QuizAnswer | null;
  order: string[];
  setOrder: (o: string[]) => void;
}) {
  const label = (id: string) => answer?.options.find((o) => o.id === id)?.label ?? id;
  const move = (i: number, d: -1 | 1) => {
    const j = i + d;
    if (j < 0 || j >= order.length) return;
    const next = [...order];
    [next[i], next[j]] = [next[j], next[i]];
    setOrder(next);
  };
  return (
    <ol className="q-order" aria-label="Your order, first to last">
      {/* the list's own numbers go with display: flex; these are drawn */}
      {order.map((id, i) => (
        <li key={id} data-event={id}>
          <span className="q-order-n" aria-hidden>
            {i + 1}.
          </span>
          <span className="q-order-label">{label(id)}</span>
          <button
            type="button"
            className="btn icon"
            disabled={i === 0}
            onClick={() => move(i, -1)}
            aria-label={`Move ${id} up`}
          >
            {'\u2191'}
          </button>
          <button
            type="button"
            className="btn icon"
            disabled={i === order.length - 1}
            onClick={() => move(i, 1)}
            aria-label={`Move ${id} down`}
          >
            {'\u2193'}
          </button>
        </li>
      ))}
    </ol>
  );
}

/** a short checksum of what the student answered, so that a handed-in line cannot be edited unseen */
export function resultChecksum(tour: string, seed: number, progress: Record<string, QuestionProgress>): string {
  const text = `${tour}|${seed}|${Object.entries(progress)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, p]) => `${id}=${p.given}:${p.verdict}:${p.tries}:${p.revealed ? 1 : 0}`)
    .join(',')}`;
  /* FNV-1a, 32 bits */
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** the exercise's score: right at the first or second try (without Reveal), over its questions */
export function score(s: Pick<AppState, 'tour' | 'quiz'>): { right: number; total: number; revealed: number } {
  const qs = s.tour?.beats.flatMap((b) => (b.ask ? [b.ask] : [])) ?? [];
  const p = s.quiz?.progress ?? {};
  return {
    right: qs.filter((q) => p[q.id]?.verdict === 'right').length,
    total: qs.length,
    revealed: qs.filter((q) => p[q.id]?.revealed && p[q.id]?.verdict !== 'right').length,
  };
}

export function resultLine(s: Pick<AppState, 'tour' | 'quiz'>): string {
  const { right, total } = score(s);
  const p = s.quiz?.progress ?? {};
  const qs = s.tour?.beats.flatMap((b) => (b.ask ? [b.ask] : [])) ?? [];
  const marks = qs.map((q) => `${q.id} ${p[q.id]?.verdict === 'right' ? '\u2713' : '\u2717'}`).join(', ');
  return `mmplay ${s.tour?.name} seed ${s.quiz?.seed}: ${right}/${total} right (${marks}) #${resultChecksum(s.tour?.name ?? '', s.quiz?.seed ?? 0, p)}`;
}

function Answering({ q, answer }: { q: Q; answer: QuizAnswer | null }) {
  const progress = useStore((s) => s.quiz?.progress[q.id] ?? null);
  const [typed, setTyped] = useState(progress?.given ?? (q.kind === 'order' ? q.events.join(',') : ''));
  const picked = useStore((s) => s.quiz?.picked[q.id]);
  const group = useStore((s) => groupOf(s.scenario?.name));
  /* a pick question's answer is the pages clicked on the address space */
  const given = q.kind === 'pick' ? pageList(picked ?? []) : typed;
  const check = () => dispatch({ type: 'checkAnswer', id: q.id, typed: given });
  return (
    <form
      className="q-form"
      onSubmit={(e) => {
        e.preventDefault();
        check();
      }}
    >
      {q.kind === 'pick' ? (
        <span className="q-pick" data-testid="q-picked">
          Click the pages of <b>{q.vma}</b> on the address space:{' '}
          {picked?.length ? `${picked.length} picked (${pageList(picked).split(',').join(', ')})` : 'none picked yet'}{' '}
          {picked?.length ? (
            <button type="button" className="btn" onClick={() => dispatch({ type: 'clearPick', id: q.id })}>
              Clear
            </button>
          ) : null}
        </span>
      ) : q.kind === 'order' ? (
        <OrderList answer={answer} order={typed.split(',')} setOrder={(o) => setTyped(o.join(','))} />
      ) : q.kind === 'number' ? (
        <label className="q-number">
          <span>Your answer</span>
          <input
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-describedby={`q-${q.id}-verdict`}
            /* keys typed here are the answer's, not the player's shortcuts */
            onKeyDown={(e) => e.stopPropagation()}
          />
        </label>
      ) : (
        <fieldset className="q-options">
          <legend className="visually-hidden">Options</legend>
          {(answer?.options ?? []).map((o) => (
            <label key={o.id}>
              <input
                type="radio"
                name={`q-${q.id}`}
                value={o.id}
                checked={typed === o.id}
                onChange={() => setTyped(o.id)}
              />{' '}
              {o.label}
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" className="btn primary" disabled={!answer || !given.trim()}>
        Check
      </button>
      <button
        type="button"
        className="btn"
        disabled={!answer}
        onClick={() => dispatch({ type: 'revealAnswer', id: q.id })}
        title="Show the answer and play the moment"
      >
        Reveal
      </button>
      {q.explain && progress?.verdict === 'wrong' && (
        <button
          type="button"
          className="btn"
          onClick={() => dispatch({ type: 'explainWith', view: q.explain! })}
          data-testid="q-explain"
        >
          Look at the {viewsFor(group).find((v) => v.id === q.explain)?.title ?? q.explain}
        </button>
      )}
      <span className="q-verdict" id={`q-${q.id}-verdict`} aria-live="polite">
        {!answer
          ? 'Working out the answer with the model\u2026'
          : progress?.verdict === 'wrong'
            ? `Not yet: ${progress.given} is not it.${q.hint ? ` Hint: ${q.hint}` : ''} One more try, then the answer.`
            : q.kind === 'number' && q.tolerance.value
              ? `Within ${q.tolerance.value}${q.tolerance.kind === 'pct' ? '%' : ''} counts.`
              : ''}
      </span>
    </form>
  );
}

/**
 * The exercise on paper (window.print(), or the browser's Print): its questions with this seed's numbers and
 * room to write, and for a teacher (&teacher=1) an answer key on a page of its own. Drawn only for print.
 */
/** views a picture never is: the run's numbers and its story (they would tell the answer), and whole-run charts */
const NOT_PICTURED = new Set(['counters', 'log', 'steps']);

/** the view that pictures a question: a pick's address space, else the beat's view, else its mechanism's first */
export function pictureView(b: Beat, q: Q): string | null {
  const views = viewsFor(groupOf(b.scenario)).filter((v) => !v.wholeRun && !NOT_PICTURED.has(v.id));
  const ok = (id: string | undefined) => (id && views.some((v) => v.id === id) ? id : null);
  if (q.kind === 'pick') return ok('address');
  return (
    ok(b.highlight?.kind === 'view' ? b.highlight.view : undefined) ??
    (b.views ?? []).map(ok).find((v) => v !== null) ??
    views[0]?.id ??
    null
  );
}

/** a question's picture: its view drawn where the question starts, in run A, in the sheet's light colours */
function QuestionPicture({ b, q, p, root }: { b: Beat; q: Q; p: QuizPicture; root: HTMLElement }) {
  const id = pictureView(b, q);
  const C = id ? componentOf(id) : undefined;
  const title = id ? viewsFor(groupOf(b.scenario)).find((v) => v.id === id)?.title : undefined;
  if (!C) return null;
  return (
    <figure className="ws-picture" data-picture={q.id}>
      <div className="ws-picture-box">
        <PictureContext.Provider value={{ highlight: b.highlight, vma: q.kind === 'pick' ? q.vma : null, root }}>
          <C frame={p.frame} program={p.program} timeline={p.timeline} prevCounters={null} theme="light" />
        </PictureContext.Provider>
      </div>
      <figcaption>
        {title}, where the question starts (event {fmt(p.frame.cursor)})
      </figcaption>
    </figure>
  );
}

export function Worksheet() {
  const tour = useStore((s) => s.tour);
  const quiz = useStore((s) => s.quiz);
  /* the sheet's element, once laid out: the pictures read their colours from it */
  const [root, setRoot] = useState<HTMLElement | null>(null);
  if (!tour || !quiz) return null;
  const asks = tour.beats.flatMap((b) => (b.ask ? [{ b, q: b.ask }] : []));
  /* two questions that start at one moment, in one run, in one view share a picture: the later says whose */
  const firstOf = new Map<string, number>();
  const sameAs = asks.map(({ b, q }, n) => {
    const p = quiz.pictures?.[q.id];
    if (!p) return null;
    const key = `${b.scenario}\u0000${JSON.stringify(b.set)}\u0000${p.frame.cursor}\u0000${pictureView(b, q)}`;
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, n + 1);
    return first ?? null;
  });
  return (
    /* laid out off screen (the views measure their boxes), shown only on paper */
    <section className="worksheet" aria-hidden="true" inert data-theme="light" data-testid="worksheet" ref={setRoot}>
      <h1>{tour.title}</h1>
      <p className="ws-meta">Seed {quiz.seed} · Name: ______________________ · Date: ____________</p>
      <p className="ws-about">{tour.about}</p>
      <ol className="ws-questions">
        {asks.map(({ b, q }, n) => {
          const a = quiz.answers?.[q.id];
          return (
            <li key={q.id}>
              <p className="ws-prompt">{q.prompt}</p>
              <p className="ws-scene">
                Scenario {b.scenario}, up to {momentText(b.at)}.{q.hint ? ` Hint: ${q.hint}` : ''}
              </p>
              {sameAs[n] !== null ? (
                <p className="ws-scene">The picture is question {sameAs[n]}'s.</p>
              ) : (
                root && quiz.pictures?.[q.id] && <QuestionPicture b={b} q={q} p={quiz.pictures[q.id]} root={root} />
              )}
              {q.kind === 'pick' ? (
                <p className="ws-line">Pages of {q.vma}: ______________________________________</p>
              ) : q.kind === 'order' ? (
                <p className="ws-line">Number them in order: {q.events.map((e) => `____ ${e}`).join('   ')}</p>
              ) : q.kind === 'choice' ? (
                <ul className="ws-options">
                  {(a?.options ?? []).map((o) => (
                    <li key={o.id}>
                      {'\u2610'} {o.label}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="ws-line">Answer: ____________________ Why: ______________________________________</p>
              )}
            </li>
          );
        })}
      </ol>
      {quiz.teacher && (
        <div className="ws-key">
          <h2>Answer key · seed {quiz.seed}</h2>
          {tour.params && <p>Parameters: {paramsText(tour.params.values)}</p>}
          <ol>
            {asks.map(({ q }) => {
              const a = quiz.answers?.[q.id];
              return (
                <li key={q.id}>
                  {q.id}: {a ? answerText(a) : 'not computed yet'}
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </section>
  );
}

/** "cap = 2, window = 8KiB": an exercise's parameters for this seed, as the teacher and the key show them */
const paramsText = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');

/** the worksheet (the browser's Print; the sheet is drawn for print only) */
function PrintWorksheet({ title }: { title: string }) {
  return (
    <button type="button" className="btn" onClick={() => window.print()} title={title}>
      Print worksheet
    </button>
  );
}

export function QuestionCard() {
  const q = useStore(beatQuestion);
  const open = useStore(questionOpen);
  const quiz = useStore((s) => s.quiz);
  const tour = useStore((s) => s.tour);
  const last = !!tour && tour.index === tour.to;
  const [copied, setCopied] = useState(false);
  if (!quiz || !tour) return null;
  if (quiz.status === 'error')
    return (
      <div className="q-card error" role="alert">
        This exercise's answers cannot be computed: {quiz.error}
      </div>
    );
  const answer = q ? (quiz.answers?.[q.id] ?? null) : null;
  const p = q ? quiz.progress[q.id] : undefined;
  const sc = score({ tour, quiz });
  const summary = last && !open && (
    <div className="q-summary" data-testid="quiz-summary">
      <span>
        {sc.right} of {sc.total} right
        {sc.revealed ? `, ${sc.revealed} revealed` : ''} · seed {quiz.seed}
      </span>
      <code className="q-result">{resultLine({ tour, quiz })}</code>
      <button
        type="button"
        className="btn"
        onClick={() => {
          void navigator.clipboard?.writeText(resultLine({ tour, quiz })).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy result'}
      </button>
      <button type="button" className="btn" onClick={() => dispatch({ type: 'restartQuiz' })}>
        Start again
      </button>
      <PrintWorksheet title="The questions on paper, with room to write" />
    </div>
  );
  if (!q) return summary ? <div className="q-card">{summary}</div> : null;
  return (
    <section
      className={`q-card ${open ? 'open' : 'done'}`}
      data-question={q.id}
      data-verdict={p?.verdict ?? undefined}
      aria-label={`Question: ${q.prompt}`}
    >
      {quiz.teacher && (
        <div className="q-teacher" data-testid="teacher">
          Teacher: the answer is <b>{answer ? answerText(answer) : '\u2026'}</b>
          {tour.params && Object.keys(tour.params.values).length > 0 && (
            <>
              {' '}
              · seed {quiz.seed}: {paramsText(tour.params.values)}
            </>
          )}{' '}
          <PrintWorksheet title="The worksheet for this seed, and its answer key on a page of its own" />
        </div>
      )}
      {open ? (
        <Answering key={q.id} q={q} answer={answer} />
      ) : (
        answer && (
          <p className="q-answer" data-testid="answer">
            {p?.verdict === 'right' ? 'Right: ' : 'The answer: '}
            <b>{answerText(answer)}</b>
            {p?.given && p.verdict !== 'right' ? ` (you said ${p.given})` : ''}
            {q.kind === 'number'
              ? ` (${q.counter}, from event ${fmt(answer.from)} to event ${fmt(answer.at)})`
              : q.kind === 'order'
                ? ` (each event's first time, from event ${fmt(answer.from)} to event ${fmt(answer.at)})`
                : q.kind === 'pick'
                  ? ` (the pages of ${q.vma} mapped from event ${fmt(answer.from)} to event ${fmt(answer.at)})`
                  : ` (the ${q.over === 'runs' ? 'run' : 'counter'} where ${q.over === 'runs' ? q.counter : 'the count'} grows ${q.fewest ? 'least' : 'most'})`}
          </p>
        )
      )}
      {summary}
    </section>
  );
}
