import { describe, expect, it } from 'vitest';
import { ratioText } from './format.js';

describe('ratioText', () => {
  it.each([
    [16, '×16'],
    [1.5, '×1.5'],
    [1, '×1'],
    [1 / 16, '÷16'],
    [17 / 4096, '÷241'],
    [0.5, '÷2'],
    [17 / 30, '\u221243%'],
    [0.93, '\u22127%'],
    [0, '\u2212100%'],
  ])('%f prints as %s, never ×0', (r, text) => {
    expect(ratioText(r)).toBe(text);
  });
});
