import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GALLERY } from './scenarios.js';
import { teaserOf } from './teaser.js';
import { TEXTS } from './texts.js';

const plain = (s: string) =>
  s
    .replace(/\*\*|`|\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('gallery teasers', () => {
  it('keep a sentence whole across a dot inside a word', () => {
    expect(
      teaserOf('The count does not depend on the order (do_fault_around maps the block): still 256 faults. More.'),
    ).toBe('The count does not depend on the order (do_fault_around maps the block): still 256 faults. More.');
  });
  it('take a second sentence when the first is short, and cut long ones at a word', () => {
    const t = teaserOf(`Reads take time. ${'A very long sentence that goes on '.repeat(10)}end.`);
    expect(t.startsWith('Reads take time. A very long sentence')).toBe(true);
    expect(t.endsWith('\u2026')).toBe(true);
    expect(t.length).toBeLessThanOrEqual(181);
  });
  it('never end inside a parenthesis', () => {
    const t = teaserOf(
      `${'word '.repeat(25)}so it does not depend on the order (do_fault_around maps the block): still 256 faults.`,
    );
    expect(t).toBe(`${'word '.repeat(25)}so it does not depend on the order…`);
  });
  it('keep a last sentence without a full stop', () =>
    expect(teaserOf('One. Two without a stop')).toBe('One. Two without a stop'));
  it('are, for every shipped scenario, the start of its about text and of a readable length', () => {
    expect(GALLERY.length).toBeGreaterThan(10);
    for (const g of GALLERY) {
      const about = (parse(TEXTS[g.file]) as { about?: string }).about ?? '';
      if (!about) continue;
      expect(plain(about).startsWith(g.teaser.replace(/\u2026$/, '')), g.name).toBe(true);
      expect(g.teaser.length, g.name).toBeGreaterThanOrEqual(Math.min(60, plain(about).length));
      expect(g.teaser.length, g.name).toBeLessThanOrEqual(181);
    }
  });
});
