/**
 * A scenario's `about` as markdown, rendered as React elements: never as
 * HTML. The text comes from a scenario, which may come from a link anyone
 * made, so nothing in it becomes markup: `<b>` stays the four characters it
 * is, and a link is followed only to http(s) (opened in a new tab, no
 * referrer). The subset is what scenario authors write: paragraphs (lines
 * joined), `-`/`*` and `1.` lists, `#` headings, `|` tables, and inline
 * `code`, **strong**, *emphasis* and [links](https://...).
 */
import type { ReactNode } from 'react';

type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] };

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

export function parseBlocks(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: 'p', text: para.join(' ') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    if (!t) {
      flush();
      continue;
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(t);
    if (h) {
      flush();
      out.push({ kind: 'h', level: h[1].length, text: h[2] });
      continue;
    }
    const li = /^([-*]|\d+[.)])\s+(.*)$/.exec(t);
    if (li) {
      flush();
      const kind = /\d/.test(li[1]) ? 'ol' : 'ul';
      const last = out[out.length - 1];
      if (last && last.kind === kind && (lines[i - 1] ?? '').trim()) last.items.push(li[2]);
      else out.push({ kind, items: [li[2]] });
      continue;
    }
    /* a continuation line of a list item (indented) */
    const last = out[out.length - 1];
    if (
      /^\s+/.test(line) &&
      !para.length &&
      last &&
      (last.kind === 'ul' || last.kind === 'ol') &&
      (lines[i - 1] ?? '').trim()
    ) {
      last.items[last.items.length - 1] += ` ${t}`;
      continue;
    }
    if (t.startsWith('|') && /^\|?\s*:?-{2,}/.test((lines[i + 1] ?? '').trim())) {
      flush();
      const head = cells(t);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(cells(lines[i++]));
      i--;
      out.push({ kind: 'table', head, rows });
      continue;
    }
    para.push(t);
  }
  flush();
  return out;
}

const SAFE_URL = /^https?:\/\/[^\s]+$/i;

/** inline markdown to React nodes: code first (nothing inside it is markdown), then links, strong, emphasis */
export function inline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  const re =
    /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_(?![A-Za-z0-9])/g;
  let last = 0,
    m: RegExpExecArray | null,
    n = 0;
  while ((m = re.exec(text))) {
    /* _x_ inside a word (snake_case names) is not emphasis */
    if (m[7] !== undefined && m.index > 0 && /[A-Za-z0-9]/.test(text[m.index - 1])) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}.${n++}`;
    if (m[1] !== undefined) out.push(<code key={k}>{m[1]}</code>);
    else if (m[2] !== undefined) {
      out.push(
        SAFE_URL.test(m[3]) ? (
          <a key={k} href={m[3]} target="_blank" rel="noreferrer noopener">
            {inline(m[2], k)}
          </a>
        ) : (
          <span key={k}>
            {inline(m[2], k)} ({m[3]})
          </span>
        ),
      );
    } else if (m[4] !== undefined || m[5] !== undefined) out.push(<strong key={k}>{inline(m[4] ?? m[5], k)}</strong>);
    else out.push(<em key={k}>{inline(m[6] ?? m[7], k)}</em>);
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`md ${className ?? ''}`}>
      {parseBlocks(text).map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case 'p':
            return <p key={k}>{inline(b.text, k)}</p>;
          case 'h':
            return b.level <= 2 ? <h3 key={k}>{inline(b.text, k)}</h3> : <h4 key={k}>{inline(b.text, k)}</h4>;
          case 'ul':
            return (
              <ul key={k}>
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it, `${k}.${j}`)}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={k}>
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it, `${k}.${j}`)}</li>
                ))}
              </ol>
            );
          case 'table':
            return (
              <table key={k}>
                <thead>
                  <tr>
                    {b.head.map((h, j) => (
                      <th key={j} scope="col">
                        {inline(h, `${k}.h${j}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {b.rows.map((r, j) => (
                    <tr key={j}>
                      {r.map((c, q) => (
                        <td key={q}>{inline(c, `${k}.${j}.${q}`)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            );
        }
        return null;
      })}
    </div>
  );
}

/** the first paragraph as plain text (for the caption before step 1) */
export function firstParagraph(text: string): string {
  const b = parseBlocks(text).find((x) => x.kind === 'p');
  return b && b.kind === 'p' ? b.text.replace(/[`*]|\[([^\]]+)\]\([^)]*\)/g, '$1') : '';
}
