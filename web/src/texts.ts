/**
 * Every shipped scenario's and tour's text, by file (`scenarios/...`): one
 * chunk, loaded when the first scenario or tour is opened, so that the
 * gallery's first load carries only the cards' facts (./scenarios.ts,
 * ./tours.ts, read at build time). The tour reader (./tour-load.ts) and the
 * tests import it directly.
 */
const raw = import.meta.glob('../../scenarios/**/*.{yaml,yml,json}', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export const TEXTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(raw).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ''), text]),
);
