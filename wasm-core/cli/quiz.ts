/**
 * An exercise on the command line, the way OSTEP's simulators hand out
 * homework: a seed draws the student's numbers, the questions print without
 * their answers, --answers prints the answers the model computes, --check
 * grades answers given.
 *
 *   npm run --silent sim -- scenarios/fault-around/window.tour.yaml --quiz --seed 3
 *   ... --quiz --seed 3 --answers [--json]
 *   ... --seed 3 --check faults=16 --check which=b
 *
 * Exit status: 0 (with --check: every question answered right), 1 (--check:
 * one wrong or not answered), 2 a bad exercise, seed or flag.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import type { Core } from '../ts/core.js';
import { exit, fail, io } from './io.js';
import { ScenarioErrors } from '../ts/errors.js';
import type { Limits } from '../ts/limits.js';
import { parseScenario } from '../ts/load/index.js';
import { parseTour, type Question, type Tour } from '../ts/load/tour.js';
import { applyOverrides } from '../ts/overrides.js';
import { answerQuestions, gradeAnswer, QuizError, type QuizAnswer } from '../ts/quiz.js';
import type { Scenario } from '../ts/scenario.js';

export interface QuizArgs {
  file: string;
  source: string;
  seed: number;
  answers: boolean;
  json: boolean;
  /** --check id=value, in the order given */
  checks: [string, string][];
  /** --set: on every beat's scenario, under the beat's own settings */
  sets: Record<string, string>;
  limits: Limits;
}

/** the tour's questions, each with its answer computed by the model (exits 2 with file:line:key when one has none) */
export function quizOf(core: Core, a: Pick<QuizArgs, 'file' | 'source' | 'seed' | 'sets' | 'limits'>) {
  let tour: Tour;
  try {
    tour = parseTour(a.source, a.file, { seed: a.seed });
  } catch (e) {
    if (e instanceof ScenarioErrors) fail(e.message);
    throw e;
  }
  const questions = tour.beats.flatMap((b) => (b.ask ? [b.ask] : []));
  if (!questions.length) fail(`${a.file}: this tour asks nothing (no beat has ask:): it is a talk, not an exercise`);
  /* scenarios/<group>/<name>.tour.yaml: its beats' scenarios are scenarios/<group/name>.yaml; an exercise
     written elsewhere uses the shipped scenarios */
  const roots = [join(dirname(a.file), '..'), fileURLToPath(new URL('../../scenarios', import.meta.url))];
  const cache = new Map<string, Scenario>();
  const scenario = (name: string): Scenario => {
    let s = cache.get(name);
    if (!s) {
      const path = roots.map((r) => join(r, `${name}.yaml`)).find((p) => existsSync(p));
      if (!path)
        fail(
          `${a.file}: there is no scenario '${name}' (looked in ${roots.map((r) => relative(process.cwd(), r) || '.').join(' and ')})`,
        );
      const text = readFileSync(path, 'utf8');
      try {
        s = applyOverrides(parseScenario(text, relative(process.cwd(), path), a.limits), a.sets);
      } catch (e) {
        if (e instanceof ScenarioErrors) fail(e.message);
        throw e;
      }
      cache.set(name, s);
    }
    return s;
  };
  let answers: QuizAnswer[];
  try {
    answers = answerQuestions(core, a.file, tour.beats, { scenario, limits: a.limits });
  } catch (e) {
    if (e instanceof QuizError) fail(e.message);
    throw e;
  }
  return { tour, questions, answers };
}

/** --quiz --json: {seed, parameters, questions: [{id, kind, prompt, tolerance | options, answer?}]}; no answer key without --answers */
export function quizJson(seed: number, tour: Tour, questions: Question[], answers: QuizAnswer[], withAnswers: boolean) {
  return {
    seed,
    parameters: tour.params?.values ?? {},
    questions: questions.map((q, i) => ({
      id: q.id,
      kind: q.kind,
      prompt: q.prompt,
      ...(q.kind === 'number' ? { tolerance: q.tolerance } : { options: answers[i].options }),
      ...(withAnswers ? { answer: answers[i].value } : {}),
    })),
  };
}

const n = (x: number) => x.toLocaleString('en-US');

function answerText(a: QuizAnswer): string {
  if (a.kind === 'number') return n(a.value as number);
  if (a.kind === 'order') return String(a.value).split(',').join(', ');
  if (a.kind === 'pick') return `pages ${String(a.value).split(',').join(', ')}`;
  const o = a.options.find((x) => x.id === a.value)!;
  return o.id === o.label ? o.id : `${o.id} (${o.label})`;
}

function kindText(q: Question): string {
  if (q.kind === 'number')
    return q.tolerance.value
      ? `a number, within ${q.tolerance.value}${q.tolerance.kind === 'pct' ? '%' : ''}`
      : 'a number';
  if (q.kind === 'pick') return `pick pages of ${q.vma}, numbered from 0: 16-31,40`;
  return q.kind === 'order' ? 'put in order: their names, comma-separated' : 'one of';
}

export function runQuiz(core: Core, a: QuizArgs): void {
  const { tour, questions, answers } = quizOf(core, a);
  const byId = new Map(questions.map((q, i) => [q.id, { q, a: answers[i] }]));
  for (const [id] of a.checks)
    if (!byId.has(id))
      fail(
        `--check ${id}: no question '${id}' in ${a.file}; its questions are ${questions.map((q) => q.id).join(', ')}`,
      );
  const params = tour.params?.values ?? {};

  if (a.checks.length) {
    const given = new Map(a.checks);
    const graded = questions.map((q, i) => {
      const typed = given.get(q.id);
      return { q, typed, right: typed !== undefined && gradeAnswer(q, answers[i], typed) };
    });
    if (a.json)
      io().out(
        `${JSON.stringify(
          {
            seed: a.seed,
            parameters: params,
            results: graded.map((g) => ({
              id: g.q.id,
              given: g.typed ?? null,
              verdict: g.typed === undefined ? 'unanswered' : g.right ? 'right' : 'wrong',
            })),
          },
          null,
          2,
        )}\n`,
      );
    else {
      for (const g of graded)
        io().out(
          `${g.q.id}: ${g.typed === undefined ? 'not answered' : g.right ? 'right' : `not yet (${g.typed})${g.q.hint ? `. Hint: ${g.q.hint}` : ''}`}\n`,
        );
      io().out(`${graded.filter((g) => g.right).length} of ${graded.length} right (seed ${a.seed})\n`);
    }
    exit(graded.every((g) => g.right) ? 0 : 1);
  }

  if (a.json) {
    io().out(`${JSON.stringify(quizJson(a.seed, tour, questions, answers, a.answers), null, 2)}\n`);
    return;
  }
  const lines = [`${tour.title}`, `seed ${a.seed}`];
  const ps = Object.entries(params);
  if (ps.length) lines.push(`your numbers: ${ps.map(([k, v]) => `${k} = ${v}`).join(', ')}`);
  lines.push('');
  questions.forEach((q, i) => {
    lines.push(`${i + 1}. [${q.id}] ${q.prompt} (${kindText(q)})`);
    if (q.kind !== 'number')
      for (const o of answers[i].options)
        lines.push(o.id === o.label || q.kind === 'order' ? `   - ${o.label}` : `   ${o.id}) ${o.label}`);
    if (a.answers) lines.push(`   answer: ${answerText(answers[i])}`);
    lines.push('');
  });
  if (!a.answers)
    lines.push(
      `answers: the same command with --answers; grade yours with --check ${questions[0].id}=VALUE (one per question)`,
    );
  io().out(`${lines.join('\n')}\n`);
}
