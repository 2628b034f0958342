/**
 * Exports for charts: a sweep's numbers as CSV, a rendered SVG as a
 * standalone file (the app's CSS variables and fonts resolved and inlined, so
 * it looks the same opened on its own or pasted into a slide), the same as a
 * PNG, and a download through an <a download> with a blob URL.
 *
 * sweepCsv is pure; svgText reads computed styles (DOM); svgToPng needs a
 * browser canvas; download needs a document.
 */

/** One series as the CSV writer needs it (SweepSeries fits). */
export interface CsvSeries {
  label: string;
  points: { x: number; y: number | null }[];
}

/** A number as plain text: `65536`, never `65,536` or `6.5e4`-style grouping; empty when missing. */
function plain(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '' : String(n);
}

/**
 * A text cell: quoted when it holds a comma, quote or line break; a leading
 * = + - @ (which spreadsheets would run as a formula) is defused with a '.
 */
function cell(s: string): string {
  let t = s;
  if (/^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * The sweep as CSV: header `<xKey>,<label>,<label>...`, then one row per x
 * value found in any series (ascending), plain numbers, an empty cell where a
 * series has no value (not run, failed, or not in that series).
 */
export function sweepCsv(xKey: string, series: CsvSeries[], xLabel?: (x: number) => string): string {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)).filter(Number.isFinite))].sort(
    (a, b) => a - b,
  );
  const byX = series.map((s) => {
    const m = new Map<number, number | null>();
    for (const p of s.points) if (p.y !== null || !m.has(p.x)) m.set(p.x, p.y);
    return m;
  });
  const lines = [[xKey, ...series.map((s) => s.label)].map(cell).join(',')];
  for (const x of xs) lines.push([xLabel ? cell(xLabel(x)) : plain(x), ...byX.map((m) => plain(m.get(x)))].join(','));
  return `${lines.join('\n')}\n`;
}

/** rows as CSV: numbers plain, text cells quoted and defused as sweepCsv does */
export function plainCsv(rows: (string | number)[][]): string {
  return `${rows.map((r) => r.map((v) => (typeof v === 'number' ? plain(v) : cell(v))).join(',')).join('\n')}\n`;
}

/** `sweep-fault_around_bytes-pgfault.csv`; anything but letters, digits, _ . - becomes _. */
export function sweepFilename(xKey: string, yKey: string, ext: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_') || 'x';
  return `sweep-${safe(xKey)}-${safe(yKey)}.${ext}`;
}

/* ------------------------------------------------------------------ SVG */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The properties that decide how SVG content looks; copied from computed style onto each element. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'paint-order',
  'visibility',
] as const;

/** Used when a variable is defined nowhere (e.g. outside the app, or in tests): the light theme's values. */
const VAR_DEFAULTS: Record<string, string> = {
  '--font': "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  '--mono': "ui-monospace, 'SF Mono', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
  '--c-fault': '#0072b2',
  '--c-around': '#56b4e9',
  '--c-major': '#d55e00',
  '--c-anon': '#cc79a7',
  '--c-zero': '#9b9b9b',
  '--c-cow': '#e69f00',
  '--c-mapped': '#009e73',
  '--c-window': '#e69f00',
  '--c-cached': '#5f656d',
  '--c-ra': '#009e73',
  '--c-huge': '#882255',
  '--c-fork': '#009e73',
  '--bg': '#f5f5f2',
  '--panel': '#ffffff',
  '--panel-2': '#fafaf8',
  '--text': '#1c1d1f',
  '--muted': '#5b6067',
  '--faint': '#8a8f96',
  '--border': '#e1e1dc',
  '--strong-border': '#c9c9c3',
  '--accent': '#0a66c2',
};
const FALLBACK_FONT = VAR_DEFAULTS['--font'];

type Lookup = (name: string) => string;

/**
 * A lookup of custom properties as seen from `el`: its own computed value,
 * else its ancestors' (browsers inherit custom properties; jsdom does not),
 * else the defaults.
 */
function varLookup(el: Element): Lookup {
  const cache = new Map<string, string>();
  return (name) => {
    let v = cache.get(name);
    if (v !== undefined) return v;
    v = '';
    for (let e: Element | null = el; e && !v; e = e.parentElement)
      v = getComputedStyle(e).getPropertyValue(name).trim();
    v ||= VAR_DEFAULTS[name] ?? '';
    cache.set(name, v);
    return v;
  };
}

/** Replaces every var(--name[, fallback]) (nested too) with its value; what is undefined becomes the fallback or nothing. */
export function resolveVars(value: string, lookup: Lookup): string {
  let out = value;
  for (let guard = 0; guard < 20 && out.includes('var('); guard++) {
    const i = out.lastIndexOf('var('); // innermost first
    let depth = 0,
      j = i + 4;
    for (; j < out.length; j++) {
      if (out[j] === '(') depth++;
      else if (out[j] === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    const inner = out.slice(i + 4, j);
    const comma = inner.indexOf(',');
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim();
    const fallback = comma < 0 ? '' : inner.slice(comma + 1).trim();
    out = out.slice(0, i) + (lookup(name) || fallback) + out.slice(j + 1);
  }
  return out.trim();
}

function isTransparent(c: string): boolean {
  return !c || c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c) || /\/\s*0\)$/.test(c);
}

/** The colour behind `el`: the first opaque background of it or an ancestor, else --panel. */
function backgroundOf(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const lookup = varLookup(e);
    const bg = resolveVars(getComputedStyle(e).getPropertyValue('background-color'), lookup);
    if (!isTransparent(bg)) return bg;
  }
  return varLookup(el)('--panel') || '#ffffff';
}

/** a deep clone of `el`, and the elements of both in document order: dst[i] is the copy of src[i] */
function deepClone<T extends Element>(el: T): { clone: T; src: Element[]; dst: Element[] } {
  const clone = el.cloneNode(true) as T;
  return {
    clone,
    src: [el, ...Array.from(el.querySelectorAll('*'))],
    dst: [clone, ...Array.from(clone.querySelectorAll('*'))],
  };
}

/**
 * The rendered `svg` as a standalone SVG document: every element gets the
 * computed look inlined (colours, strokes, fonts) with CSS variables
 * resolved, a background of the colour it is drawn on (so the dark theme's
 * light text stays readable), explicit width/height, and no `var(--` left.
 * Elements marked `data-export-skip` (hover hit areas) are left out.
 */
export function svgText(svg: SVGSVGElement, caption?: string): string {
  const { clone, src, dst } = deepClone(svg);
  src.forEach((el, i) => {
    const out = dst[i] as SVGElement;
    const lookup = varLookup(el);
    const cs = getComputedStyle(el);
    const inline: string[] = [];
    for (const p of STYLE_PROPS) {
      const raw = cs.getPropertyValue(p);
      if (!raw) continue;
      const v = resolveVars(raw, lookup);
      if (v) inline.push(`${p}: ${v}`);
    }
    if (cs.getPropertyValue('display') === 'none') inline.push('display: none');
    for (const a of Array.from(out.attributes)) {
      if (a.name === 'style') continue;
      if (a.value.includes('var(')) out.setAttribute(a.name, resolveVars(a.value, lookup));
    }
    // the element's own inline style wins over computed (it is part of it), then ours on top
    const own = out.getAttribute('style');
    const merged = [own ? resolveVars(own, lookup).replace(/;\s*$/, '') : '', ...inline].filter(Boolean).join('; ');
    if (merged) out.setAttribute('style', merged);
  });
  for (const skip of Array.from(clone.querySelectorAll('[data-export-skip]'))) skip.remove();

  const vb = svg.viewBox?.baseVal;
  const w = Number(svg.getAttribute('width')) || vb?.width || svg.getBoundingClientRect().width || 640;
  const h = Number(svg.getAttribute('height')) || vb?.height || svg.getBoundingClientRect().height || 360;
  clone.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns', SVG_NS);
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${w} ${h}`);
  clone.removeAttribute('class');
  const rootLookup = varLookup(svg);
  const font =
    resolveVars(getComputedStyle(svg).getPropertyValue('font-family'), rootLookup) ||
    rootLookup('--font') ||
    FALLBACK_FONT;
  clone.setAttribute('font-family', font);
  const style = clone.getAttribute('style') ?? '';
  if (!/font-family/.test(style)) clone.setAttribute('style', `${style ? `${style}; ` : ''}font-family: ${font}`);

  const bg = svg.ownerDocument.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('x', '0');
  bg.setAttribute('y', '0');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', backgroundOf(svg));
  clone.insertBefore(bg, clone.firstChild);

  /* the caption line above the drawing: the scenario, the cursor and the runs (the drawing nested below) */
  let root: Element = clone;
  if (caption) {
    const doc = svg.ownerDocument;
    const outer = doc.createElementNS(SVG_NS, 'svg');
    outer.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns', SVG_NS);
    outer.setAttribute('width', String(w));
    outer.setAttribute('height', String(h + CAPTION_H));
    outer.setAttribute('viewBox', `0 0 ${w} ${h + CAPTION_H}`);
    outer.setAttribute('font-family', font);
    const back = doc.createElementNS(SVG_NS, 'rect');
    back.setAttribute('width', '100%');
    back.setAttribute('height', '100%');
    back.setAttribute('fill', backgroundOf(svg));
    const t = doc.createElementNS(SVG_NS, 'text');
    t.setAttribute('x', '8');
    t.setAttribute('y', String(CAPTION_H - 9));
    t.setAttribute('font-size', '13');
    t.setAttribute('fill', resolveVars(getComputedStyle(svg).color, rootLookup) || '#555');
    t.textContent = caption;
    clone.setAttribute('y', String(CAPTION_H));
    outer.append(back, t, clone);
    root = outer;
  }
  let text = new XMLSerializer().serializeToString(root);
  if (text.includes('var(--')) text = resolveVars(text, (n) => VAR_DEFAULTS[n] ?? ''); // belt and braces
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}

/**
 * Draws standalone SVG text onto a canvas `scale` times larger and returns a
 * PNG. Loaded as a data: URL (not a blob URL) so that no browser taints the
 * canvas.
 */
export function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      try {
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(width * scale);
        canvas.height = Math.round(height * scale);
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('no 2D canvas');
        ctx.scale(scale, scale);
        ctx.drawImage(img, 0, 0, width, height);
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png');
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    img.onerror = () => reject(new Error('the SVG could not be loaded as an image'));
    img.width = width;
    img.height = height;
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/** The properties that decide how HTML looks, copied onto each element of a view's clone. */
const HTML_PROPS = [
  'display',
  'position',
  'top',
  'right',
  'bottom',
  'left',
  'box-sizing',
  'width',
  'height',
  'min-width',
  'min-height',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-radius',
  'outline',
  'outline-offset',
  'box-shadow',
  'color',
  'background-color',
  'background-image',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'line-height',
  'letter-spacing',
  'text-align',
  'text-transform',
  'text-decoration',
  'white-space',
  'word-break',
  'overflow',
  'vertical-align',
  'list-style',
  'flex',
  'flex-direction',
  'flex-wrap',
  'align-items',
  'align-self',
  'justify-content',
  'gap',
  'grid-template-columns',
  'grid-column',
  'aspect-ratio',
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'text-anchor',
  'dominant-baseline',
  'table-layout',
  'border-collapse',
] as const;

/** the caption line's height over an exported view, in CSS px */
const CAPTION_H = 26;

/** how a view is exported: a caption line above it; whole, its scroll boxes drawn at their full height */
export interface PngOptions {
  caption?: string;
  whole?: boolean;
}

/**
 * A view as a PNG `scale` times its size on screen: its DOM cloned with the
 * computed look inlined (variables resolved), canvases replaced by their
 * pixels, drawn through an SVG foreignObject (a data: URL, so the canvas is
 * not tainted). `whole`: every scroll box drawn at its full height (no
 * scrollbar; a list marked `data-export-around="12"` keeps its 12 items either
 * side of the current one), the image as tall as that takes; otherwise what is
 * scrolled out stays out, as on screen. `caption`: a line of text above it.
 */
export async function elementToPng(el: HTMLElement, scale = 2, opts: PngOptions = {}): Promise<Blob> {
  const r = el.getBoundingClientRect();
  const w = Math.ceil(r.width);
  let h = Math.ceil(r.height);
  const { clone, src, dst } = deepClone(el);
  src.forEach((s, i) => {
    const d = dst[i] as HTMLElement;
    const cs = getComputedStyle(s);
    const inline: string[] = [];
    for (const p of HTML_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v) inline.push(`${p}: ${v}`);
    }
    d.setAttribute('style', inline.join('; '));
    d.removeAttribute('class');
    if (s instanceof HTMLCanvasElement) {
      const img = document.createElement('img');
      img.src = s.toDataURL('image/png');
      img.setAttribute('style', `width: ${s.clientWidth}px; height: ${s.clientHeight}px; display: block`);
      d.replaceWith(img);
    }
  });
  if (opts.whole)
    src.forEach((s, i) => {
      if (!(s instanceof HTMLElement)) return;
      const d = dst[i] as HTMLElement;
      /* a long list: the items around the current one */
      const around = Number(s.dataset.exportAround);
      if (around > 0) {
        const list = d.querySelector('ol, ul, tbody') ?? d;
        const items = Array.from(list.children);
        const cur = Math.max(
          0,
          items.findIndex((x) => x.hasAttribute('aria-current')),
        );
        items.forEach((x, k) => {
          if (Math.abs(k - cur) > around) x.remove();
        });
        /* its height was the whole list's */
        (list as HTMLElement).style.height = 'auto';
      }
      /* a scroll box at its full height, and the boxes around it grow with it */
      if (s.scrollHeight > s.clientHeight + 1 || around > 0)
        for (let p: HTMLElement | null = d; p && p !== clone.parentElement; p = p.parentElement) {
          p.style.height = 'auto';
          p.style.maxHeight = 'none';
          p.style.overflow = 'visible';
          p.style.flex = 'none';
        }
    });
  /* scrolled lists: show what is on screen */ else
    src.forEach((s, i) => {
      if (s instanceof HTMLElement && (s.scrollTop || s.scrollLeft) && dst[i].firstElementChild)
        (dst[i].firstElementChild as HTMLElement).style.transform = `translate(${-s.scrollLeft}px, ${-s.scrollTop}px)`;
    });
  clone.style.width = `${w}px`;
  clone.style.height = opts.whole ? 'auto' : `${h}px`;
  clone.style.margin = '0';
  const background = getComputedStyle(el.closest('.panel') ?? el).backgroundColor;
  clone.style.backgroundColor = background;
  /* the image: the caption line, then the view */
  const page = document.createElement('div');
  page.setAttribute('style', `width: ${w}px; background-color: ${background}; margin: 0`);
  if (opts.caption) {
    const c = document.createElement('div');
    c.textContent = opts.caption;
    const cs = getComputedStyle(el);
    c.setAttribute(
      'style',
      `min-height: ${CAPTION_H}px; line-height: 18px; padding: 4px 8px; box-sizing: border-box; font-size: 13px; font-family: ${cs.fontFamily}; color: ${cs.color}; white-space: normal`,
    );
    page.append(c);
  }
  page.append(clone);
  /* its height, laid out off screen with the same inlined look */
  const holder = document.createElement('div');
  holder.setAttribute('style', 'position: fixed; left: -100000px; top: 0');
  holder.append(page);
  document.body.append(holder);
  h = Math.ceil(page.getBoundingClientRect().height);
  holder.remove();
  page.setAttribute('xmlns', 'http://www.w3.org/1999/xhtml');
  const html = new XMLSerializer().serializeToString(page);
  const svg = `<svg xmlns="${SVG_NS}" width="${w}" height="${h}"><foreignObject x="0" y="0" width="100%" height="100%">${html}</foreignObject></svg>`;
  return svgToPng(svg, w, h, scale);
}

/** Saves `blob` as `filename` through a temporary <a download> and a blob URL. */
export function download(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // revoking at once can cancel the download in some browsers
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
