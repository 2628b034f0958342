/** A gallery card's teaser, made at build time (./gallery-meta.ts) from the scenario's about. */

/** the first sentences of `about`, about 80 to 180 characters, cut at a word if need be */
export function teaserOf(about: string): string {
  const plain = about
    .replace(/\*\*|`|\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  /* a sentence ends at . ! or ? followed by a space, so "mechanisms.md," stays whole */
  const sentences = plain.match(/.+?(?:[.!?]+(?=\s|$)|$)/g) ?? [plain];
  let out = '';
  for (const sn of sentences) {
    if (out.length >= 80 && out.length + sn.length > 170) break;
    out += (out ? ' ' : '') + sn.trim();
  }
  if (out.length <= 180) return out;
  let cut = out.slice(0, 180);
  cut = cut.slice(0, cut.lastIndexOf(' '));
  /* never end inside a parenthesis */
  if (cut.lastIndexOf('(') > cut.lastIndexOf(')')) cut = cut.slice(0, cut.lastIndexOf('('));
  return `${cut.replace(/[\s,;:-]+$/, '')}…`;
}
