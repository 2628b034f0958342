/**
 * A scenario's problems, located (file, line, column, key path), and the
 * "did you mean" of unknown names. Light on purpose: the page imports it
 * (through limits.ts) without the YAML parser and the schema checker.
 */

export interface At {
  line: number;
  col: number;
  path: string;
}

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly path: string,
    readonly detail: string,
  ) {
    super(
      line
        ? `${file}:${line}:${col}: ${path ? `${path}: ` : ''}${detail}`
        : `${file}${path ? ` ${path}` : ''}: ${detail}`,
    );
    this.name = 'ScenarioError';
  }
}

export class ScenarioErrors extends Error {
  constructor(readonly errors: ScenarioError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'ScenarioErrors';
  }
}

/** Levenshtein distance, for "did you mean" */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

export function suggest(word: string, options: readonly string[]): string {
  let best = '',
    bestD = Infinity;
  for (const o of options) {
    const dd = distance(word.toLowerCase(), o.toLowerCase());
    if (dd < bestD) {
      best = o;
      bestD = dd;
    }
  }
  return bestD <= Math.max(1, Math.floor(best.length / 3)) ? ` (did you mean '${best}'?)` : '';
}
