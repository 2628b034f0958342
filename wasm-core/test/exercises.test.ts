/**
 * The shipped exercises (tours whose beats ask), answered by the model: for
 * every one and seeds 1, 2 and 3 the questions without answers are the
 * questions with answers minus the answers; each mechanism has an exercise
 * whose answers change with the seed; --check grades the model's answers
 * right and any number off by more than its tolerance wrong; bad exercises,
 * seeds and flags are refused with the file, line and key (or the flag).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quizJson } from '../cli/quiz.js';
import type { Core } from '../ts/core.js';
import { gradeAnswer, pageList, parsePages } from '../ts/grade.js';
import { parseScenario } from '../ts/load/index.js';
import { drawParams, parseSeed } from '../ts/load/params.js';
import { parseTour, type Question } from '../ts/load/tour.js';
import { answerQuestions, QuizError, type QuizAnswer } from '../ts/quiz.js';
import { sim } from './cli-run.js';
import { loadCore, repo } from './helpers.js';

const EXERCISES = readdirSync(join(repo, 'scenarios'))
  .flatMap((g) =>
    readdirSync(join(repo, 'scenarios', g))
      .filter((f) => f.endsWith('.tour.yaml'))
      .map((f) => `scenarios/${g}/${f}`),
  )
  .filter((f) => /^\s+ask:/m.test(readFileSync(join(repo, f), 'utf8')));

const scenario = (name: string) => {
  const file = `scenarios/${name}.yaml`;
  return parseScenario(readFileSync(join(repo, file), 'utf8'), file);
};

function answer(core: Core, file: string, seed: number, source = readFileSync(join(repo, file), 'utf8')) {
  const tour = parseTour(source, file, { seed });
  const questions = tour.beats.flatMap((b) => (b.ask ? [b.ask] : []));
  return { tour, questions, answers: answerQuestions(core, file, tour.beats, { scenario }) };
}

/** the answer as a student would type it */
const typed = (a: QuizAnswer) => String(a.value);

describe('the shipped exercises', () => {
  it('at least three per mechanism, fifteen in all', () => {
    const groups = readdirSync(join(repo, 'scenarios')).filter((g) => g !== 'README.md');
    for (const g of groups)
      expect(EXERCISES.filter((f) => f.startsWith(`scenarios/${g}/`)).length, `${g}: exercises`).toBeGreaterThanOrEqual(
        3,
      );
    expect(EXERCISES.length).toBeGreaterThanOrEqual(15);
  });

  for (const file of EXERCISES)
    it(`${file}: seeds 1-3 answered by the model; the quiz is the answers minus the answers; the model's answers grade right`, async () => {
      const core = await loadCore();
      const results = [1, 2, 3].map((seed) => ({ seed, ...answer(core, file, seed) }));
      for (const { seed, tour, questions, answers } of results) {
        const withAnswers = quizJson(seed, tour, questions, answers, true);
        const quiz = quizJson(seed, tour, questions, answers, false);
        expect(quiz.seed).toBe(seed);
        expect(quiz.questions).toEqual(withAnswers.questions.map(({ answer: _, ...q }) => q));
        for (const q of quiz.questions) expect(q).not.toHaveProperty('answer');
        questions.forEach((q: Question, i) => {
          const a = answers[i];
          expect(gradeAnswer(q, a, typed(a)), `${q.id}: the model's own answer`).toBe(true);
          if (q.kind === 'number') {
            const tol =
              q.tolerance.kind === 'abs' ? q.tolerance.value : (Math.abs(a.value as number) * q.tolerance.value) / 100;
            const off = Math.floor(tol) + 1;
            expect(gradeAnswer(q, a, String((a.value as number) + off)), `${q.id}: ${off} over`).toBe(false);
            expect(gradeAnswer(q, a, String((a.value as number) + 1000)), `${q.id}: +1000`).toBe(false);
          } else if (q.kind === 'pick') {
            /* one page more, or one fewer, is not the set */
            const pages = parsePages(String(a.value))!;
            expect(gradeAnswer(q, a, pageList([...pages, Math.max(...pages) + 1])), `${q.id}: a page more`).toBe(false);
            if (pages.length > 1)
              expect(gradeAnswer(q, a, pageList(pages.slice(1))), `${q.id}: a page fewer`).toBe(false);
            /* written another way, the same set */
            expect(gradeAnswer(q, a, pages.join(', ')), `${q.id}: page by page`).toBe(true);
          } else {
            const wrong = a.options.find((o) => o.id !== a.value)!;
            expect(gradeAnswer(q, a, wrong.id), `${q.id}: another option`).toBe(false);
          }
        });
      }
    });

  it('each mechanism has an exercise whose answers differ from seed to seed', async () => {
    const core = await loadCore();
    const varies = new Set<string>();
    for (const file of EXERCISES) {
      const group = file.split('/')[1];
      if (varies.has(group) || !/^params:/m.test(readFileSync(join(repo, file), 'utf8'))) continue;
      const seen = new Set(
        [1, 2, 3, 4, 5].map((seed) => JSON.stringify(answer(core, file, seed).answers.map((a) => a.value))),
      );
      if (seen.size > 1) varies.add(group);
    }
    expect([...varies].sort()).toEqual(
      readdirSync(join(repo, 'scenarios'))
        .filter((g) => g !== 'README.md')
        .sort(),
    );
  });

  it('a seed draws the same parameters every time, and different seeds draw different ones', () => {
    const specs: Parameters<typeof drawParams>[0] = [
      ['size', { kind: 'range', lo: 8, hi: 64, step: 4 }],
      ['order', { kind: 'choose', values: ['sequential', 'random'] }],
    ];
    expect(drawParams(specs, 7)).toEqual(drawParams(specs, 7));
    const drawn = new Set(Array.from({ length: 20 }, (_, s) => JSON.stringify(drawParams(specs, s))));
    expect(drawn.size).toBeGreaterThan(5);
    for (let s = 0; s < 50; s++) {
      const v = drawParams(specs, s).size as number;
      expect(v >= 8 && v <= 64 && (v - 8) % 4 === 0).toBe(true);
    }
  });
});

describe('the CLI, OSTEP style', () => {
  const ex = 'scenarios/fault-around/window.tour.yaml';

  it('--quiz --json has no answers; --answers --json adds them; --check grades them (exit 0, 1)', () => {
    const q = sim(ex, '--quiz', '--seed', '2', '--json');
    const a = sim(ex, '--quiz', '--answers', '--seed', '2', '--json');
    expect(q.code).toBe(0);
    expect(a.code).toBe(0);
    const quiz = JSON.parse(q.out),
      full = JSON.parse(a.out);
    expect(quiz.seed).toBe(2);
    expect(Object.keys(quiz.parameters)).toEqual(['window']);
    expect(quiz.questions).toEqual(full.questions.map(({ answer: _, ...x }: { answer: unknown }) => x));
    const right = full.questions.map((x: { id: string; answer: number }) => `${x.id}=${x.answer}`);
    expect(sim(ex, '--seed', '2', ...right.flatMap((r: string) => ['--check', r])).code).toBe(0);
    const wrong = full.questions.map((x: { id: string; answer: number }) => `${x.id}=${x.answer + 1000}`);
    const w = sim(ex, '--seed', '2', ...wrong.flatMap((r: string) => ['--check', r]));
    expect(w.code).toBe(1);
    expect(w.out).toMatch(/not yet/);
    /* the text form: the questions, the student's numbers, no answer */
    const text = sim(ex, '--quiz', '--seed', '2');
    expect(text.out).toMatch(/your numbers: window = /);
    expect(text.out).not.toMatch(/answer: \d/);
  });

  it('bad seeds, unknown question ids and flags that do not go together exit 2 naming the flag', () => {
    expect(sim(ex, '--quiz', '--seed', 'abc')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^--seed: a seed is a whole number/),
    });
    expect(sim(ex, '--quiz', '--seed', '-1').code).toBe(2);
    expect(sim(ex, '--check', 'nope=3')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--check nope: no question 'nope'.*its questions are first-window, faults/),
    });
    expect(sim(ex, '--answers').err).toMatch(/--answers goes with --quiz/);
    expect(sim('scenarios/fault-around/sequential.yaml', '--quiz').err).toMatch(/take an exercise \(a \.tour\.yaml/);
    expect(sim('scenarios/fault-around/talk.tour.yaml', '--quiz').err).toMatch(/asks nothing/);
  });

  it('a tunable the exercise does not fix (--set) changes the answer as the model does', async () => {
    /* short-runs fixes anon_prefault_cap, not anon_prefault: with the prefault off every page is a trap */
    const file = 'scenarios/prefault/short-runs.tour.yaml';
    const on = JSON.parse(sim(file, '--quiz', '--answers', '--seed', '1', '--json').out);
    const off = JSON.parse(sim(file, '--quiz', '--answers', '--seed', '1', '--json', '--set', 'anon_prefault=off').out);
    const traps = (j: { questions: { id: string; answer: number }[] }) =>
      j.questions.find((x) => x.id === 'traps')!.answer;
    expect(traps(off)).toBe(1280);
    expect(traps(on)).toBeLessThan(1280);
    /* and it is what a plain run of the scenario counts */
    const plain = JSON.parse(sim('scenarios/prefault/rss.yaml', '--set', 'anon_prefault=off', '--json').out);
    expect(traps(off)).toBe(plain.counters.pgfault);
  });
});

describe('a bad exercise is refused at its file, line and key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmplay-quiz-'));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const BEAT = `  - scenario: fault-around/sequential
    at: { step: 4, end: true }
    caption: go
`;
  const parse = (text: string) => () => parseTour(text, 'bad.tour.yaml');

  it('an empty range, an unknown $name, a duplicate id, a jump moment, two kinds', () => {
    expect(parse(`title: t\nparams:\n  n: { range: [9, 3] }\nbeats:\n${BEAT}`)).toThrow(
      /bad\.tour\.yaml:3:\d+: params\.n\.range: the range is empty: \[9, 3\]/,
    );
    expect(
      parse(
        `title: t\nparams:\n  n: { range: [1, 3] }\nbeats:\n${BEAT.replace('    at:', '    set: { fault_around_bytes: $m }\n    at:')}`,
      ),
    ).toThrow(/bad\.tour\.yaml:6:\d+: beats\[0\]\.set\.fault_around_bytes: no parameter '\$m'; the parameters are \$n/);
    const ask = (id: string) => `    ask: { id: ${id}, prompt: how many?, number: pgfault }\n`;
    expect(parse(`title: t\nbeats:\n${BEAT}${ask('a')}${BEAT}${ask('a')}`)).toThrow(
      /beats\[1\]\.ask\.id: the question id 'a' is taken by beat 1/,
    );
    expect(parse(`title: t\nbeats:\n${BEAT.replace('{ step: 4, end: true }', '{ jump: fault }')}${ask('a')}`)).toThrow(
      /beats\[0\]\.at: a question's beat stands at start, end, a step or a caption/,
    );
    expect(
      parse(`title: t\nbeats:\n${BEAT}    ask: { id: a, prompt: p, number: pgfault, choice: { runs: pgfault } }\n`),
    ).toThrow(/beats\[0\]\.ask: a question is a number:, a choice:, an order: or a pick:, got number and choice/);
    expect(parse(`title: t\nbeats:\n${BEAT}    ask: { id: a, prompt: p, number: nosuch }\n`)).toThrow(
      /beats\[0\]\.ask\.number: must be one of pgfault/,
    );
    expect(parse(`title: t\nbeats:\n${BEAT}    ask: { id: a, prompt: p, choice: { runs: pgfault } }\n`)).toThrow(
      /beats\[0\]\.ask\.choice\.runs: a choice of runs offers the beat's runs: give the beat compare:/,
    );
  });

  it('a question the model cannot answer: a moment the run never reaches, a tie', async () => {
    const core = await loadCore();
    const never = `title: t\nbeats:\n${BEAT.replace('{ step: 4, end: true }', '{ step: 40 }')}    ask: { id: a, prompt: p, number: pgfault }\n`;
    const t = parseTour(never, 'never.tour.yaml');
    expect(() => answerQuestions(core, 'never.tour.yaml', t.beats, { scenario })).toThrow(
      /never\.tour\.yaml:6:5: beats\[0\]\.ask: the run never reaches step 40/,
    );
    const tie = `title: t\nbeats:\n${BEAT.replace('    at:', '    compare: { readahead_kb: 64 }\n    at:')}    ask: { id: a, prompt: p, choice: { runs: pgfault } }\n`;
    const u = parseTour(tie, 'tie.tour.yaml');
    expect(() => answerQuestions(core, 'tie.tour.yaml', u.beats, { scenario })).toThrow(QuizError);
    expect(() => answerQuestions(core, 'tie.tour.yaml', u.beats, { scenario })).toThrow(/a and b tie \(256 each\)/);
    /* through the CLI: exit 2, the same words */
    const f = write('never.tour.yaml', never);
    const r = sim(f, '--quiz');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/never\.tour\.yaml:6:5: beats\[0\]\.ask: the run never reaches step 40/);
  });

  it('seeds as typed', () => {
    expect(parseSeed('12')).toBe(12);
    expect(parseSeed('1.5')).toMatchObject({ error: expect.stringMatching(/whole number/) });
    expect(parseSeed('99999999999')).toMatchObject({ error: expect.any(String) });
  });
});
