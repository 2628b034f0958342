/**
 * The README and docs/ are the project's manual: every relative link in
 * them goes to a file that exists and, with a #fragment, to a heading there
 * (GitHub's anchors), and no page points outside the repository's tree.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './helpers.js';

const pages = [
  'README.md',
  ...readdirSync(join(repo, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of md.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .trim()
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe('the docs', () => {
  it.each(pages)('%s: every relative link resolves, to a heading where it names one', (page) => {
    const md = readFileSync(join(repo, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const bad: string[] = [];
    for (const m of md.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1];
      if (/^[a-z]+:/.test(link)) continue;
      const [path, frag] = link.split('#');
      const target = path ? join(repo, dirname(page), path) : join(repo, page);
      if (relative(repo, target).startsWith('..')) {
        bad.push(`${link}: outside the repository`);
        continue;
      }
      if (!existsSync(target)) {
        bad.push(`${link}: no such file`);
        continue;
      }
      if (
        frag &&
        statSync(target).isFile() &&
        target.endsWith('.md') &&
        !anchors(readFileSync(target, 'utf8')).has(frag)
      )
        bad.push(`${link}: no heading #${frag} in ${relative(repo, target)}`);
    }
    expect(bad).toEqual([]);
  });

  it('the project never points at the material it was started from', () => {
    const hits = pages.filter((p) => /\.\.\/shared\/|kernel-mechanisms\.md/.test(readFileSync(join(repo, p), 'utf8')));
    expect(hits).toEqual([]);
  });
});
