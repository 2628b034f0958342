// @vitest-environment jsdom
/**
 * SweepChart and its exports: the CSV, the standalone SVG, the points' data
 * attributes, the log2 x axis and the automatic log10 y axis.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SweepChart, type SweepChartProps, type SweepSeries } from '../components/SweepChart.js';
import { download, resolveVars, sweepCsv, sweepFilename, svgText } from './export.js';

const KIB = (x: number) => (x >= 2 ** 20 ? `${x / 2 ** 20} MiB` : `${x / 1024} KiB`);
const XS = Array.from({ length: 10 }, (_, i) => 4096 * 2 ** i); // 4 KiB .. 2 MiB

let root: Root | null = null;
let host: HTMLElement | null = null;

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = host = null;
  for (const s of document.head.querySelectorAll('style[data-test]')) s.remove();
});

function render(over: Partial<SweepChartProps> = {}): HTMLElement {
  const props: SweepChartProps = {
    title: 'pgfault against fault_around_bytes',
    xKey: 'fault_around_bytes',
    yKey: 'pgfault',
    xFormat: KIB,
    log2x: true,
    series: [{ id: 'model', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 1000 + 100 * i })) }],
    ...over,
  };
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  act(() => root!.render(createElement(SweepChart, props)));
  return host;
}

const tickLabels = (el: Element, axis: 'x' | 'y') =>
  Array.from(el.querySelectorAll(`.swc-${axis}-axis .tick text`)).map((t) => t.textContent);

describe('sweepCsv', () => {
  it('writes a header of the x key and series labels, one row per x, plain numbers, empty where missing', () => {
    const series: SweepSeries[] = [
      {
        id: 'm',
        label: 'model',
        kind: 'model',
        points: [
          { x: 4096, y: 1200 },
          { x: 65536, y: null },
          { x: 2097152, y: 40 },
        ],
      },
      {
        id: 'r',
        label: 'patch table',
        kind: 'reference',
        points: [
          { x: 4096, y: 1234567 },
          { x: 2097152, y: 41.5 },
        ],
      },
    ];
    expect(sweepCsv('fault_around_bytes', series)).toBe(
      'fault_around_bytes,model,patch table\n4096,1200,1234567\n65536,,\n2097152,40,41.5\n',
    );
  });

  it('quotes labels with commas or quotes and defuses spreadsheet formulas', () => {
    const csv = sweepCsv('x', [
      { label: 'a, "b"', points: [{ x: 1, y: 2 }] },
      { label: '=cmd()', points: [] },
    ]);
    expect(csv.split('\n')[0]).toBe(`x,"a, ""b""",'=cmd()`);
    expect(csv.split('\n')[1]).toBe('1,2,');
  });

  it('names the files after the tunable and counter', () => {
    expect(sweepFilename('fault_around_bytes', 'pgfault', 'csv')).toBe('sweep-fault_around_bytes-pgfault.csv');
    expect(sweepFilename('a/b c', 'pg', 'png')).toBe('sweep-a_b_c-pg.png');
  });
});

describe('SweepChart', () => {
  it('draws one [data-sweep-point] per model value with plain data-x / data-y', () => {
    const el = render();
    const pts = Array.from(el.querySelectorAll('[data-sweep-point]'));
    expect(pts).toHaveLength(10);
    expect(pts.map((p) => p.getAttribute('data-x'))).toEqual(XS.map(String));
    expect(pts.map((p) => p.getAttribute('data-y'))).toEqual(XS.map((_, i) => String(1000 + 100 * i)));
    expect(el.querySelectorAll('[data-reference-point]')).toHaveLength(0);
  });

  it('puts ticks at the powers of two on a log2 x axis, labelled with xFormat', () => {
    const el = render();
    expect(tickLabels(el, 'x')).toEqual([
      '4 KiB',
      '8 KiB',
      '16 KiB',
      '32 KiB',
      '64 KiB',
      '128 KiB',
      '256 KiB',
      '512 KiB',
      '1 MiB',
      '2 MiB',
    ]);
    const labels = Array.from(el.querySelectorAll('.swc-axis-label')).map((t) => t.textContent);
    expect(labels[0]).toBe('fault_around_bytes (log₂ scale)');
    expect(labels[1]).toBe('pgfault');
    // equal spacing on a log2 axis
    const xs = Array.from(el.querySelectorAll('.swc-x-axis .tick')).map((t) =>
      Number(/translate\(([\d.]+)/.exec(t.getAttribute('transform')!)![1]),
    );
    const gaps = xs.slice(1).map((v, i) => v - xs[i]);
    for (const g of gaps) expect(g).toBeCloseTo(gaps[0], 6);
  });

  it('keeps the x domain and the box fixed while a sweep runs; only finished points are drawn', () => {
    const points = XS.map((x, i) => ({ x, y: i < 3 ? 5000 - i * 1000 : null }));
    const onCancel = vi.fn();
    const el = render({
      series: [{ id: 'm', label: 'model', kind: 'model', points }],
      progress: { done: 3, total: 10 },
      onCancel,
    });
    expect(el.querySelectorAll('[data-sweep-point]')).toHaveLength(3);
    expect(tickLabels(el, 'x')).toHaveLength(10);
    const svg = el.querySelector('svg')!;
    expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual(['640', '360']);
    expect(el.querySelector('.swc-line')).not.toBeNull();
    expect(el.textContent).toContain('3 of 10 runs');
    const cancel = Array.from(el.querySelectorAll('button')).find((b) => b.textContent === 'Cancel')!;
    act(() => cancel.click());
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('uses a linear y axis with thousands separators, and log10 when values span more than 3 decades', () => {
    const lin = render({
      series: [{ id: 'm', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 20000 - 1000 * i })) }],
    });
    expect(tickLabels(lin, 'y')).toContain('10,000');
    expect(lin.querySelectorAll('.swc-axis-label')[1].textContent).toBe('pgfault');
    act(() => root!.unmount());
    host!.remove();

    const log = render({
      series: [{ id: 'm', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 2 ** (20 - 2 * i) })) }],
    });
    expect(log.querySelectorAll('.swc-axis-label')[1].textContent).toBe('pgfault (log₁₀ scale)');
    expect(tickLabels(log, 'y')).toEqual(['1', '10', '100', '1,000', '10,000', '100,000', '1,000,000', '10,000,000']);
  });

  it('draws reference series with their own attribute, a legend, role=img with a summary, and a hidden data table', () => {
    const el = render({
      series: [
        { id: 'm', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 1000 + i })) },
        {
          id: 'r',
          label: 'patch benchmark',
          kind: 'reference',
          points: [
            { x: 4096, y: 990 },
            { x: 65536, y: 1010 },
          ],
        },
      ],
      source: 'Will Deacon, mm: speed up fault-around, LKML 2021',
    });
    const ref = Array.from(el.querySelectorAll('[data-reference-point]'));
    expect(ref.map((p) => [p.getAttribute('data-x'), p.getAttribute('data-y')])).toEqual([
      ['4096', '990'],
      ['65536', '1010'],
    ]);
    const svg = el.querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toContain(
      'Model series “model”: 10 of 10 values, pgfault from 1,000 at 4 KiB to 1,009 at 2 MiB.',
    );
    expect(svg.getAttribute('aria-label')).toContain('Reference series “patch benchmark”: 2 of 2 values');
    expect(Array.from(el.querySelectorAll('.swc-legend text')).map((t) => t.textContent)).toEqual([
      'model',
      'patch benchmark',
    ]);
    expect(el.querySelector('.swc-source')!.textContent).toBe('Will Deacon, mm: speed up fault-around, LKML 2021');
    const rows = el.querySelectorAll('table.swc-sr tbody tr');
    expect(rows).toHaveLength(10);
    expect(Array.from(rows[4].children).map((c) => c.textContent)).toEqual(['64 KiB', '1,004', '1,010']);
  });

  it('shows the exact numbers in a tooltip on hover', () => {
    const el = render({
      series: [{ id: 'm', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 1234567 + i })) }],
    });
    const pt = el.querySelector('[data-sweep-point][data-x="65536"]')!;
    const Ev = typeof PointerEvent === 'function' ? PointerEvent : MouseEvent;
    act(() => {
      pt.dispatchEvent(new Ev('pointerover', { bubbles: true }));
    });
    const tip = el.querySelector('.tooltip')!;
    expect(tip).not.toBeNull();
    expect(tip.textContent).toContain('fault_around_bytes = 64 KiB (65,536)');
    expect(tip.textContent).toContain('pgfault = 1,234,571');
    act(() => {
      pt.dispatchEvent(new Ev('pointerout', { bubbles: true }));
    });
    expect(el.querySelector('.tooltip')).toBeNull();
  });

  it('renders scenario text as text, never as markup', () => {
    const el = render({ title: '<img src=x onerror=alert(1)>', source: '<b>bold</b>' });
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('b')).toBeNull();
    expect(el.querySelector('.swc-title')!.textContent).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('svgText', () => {
  it('gives standalone SVG with the points and their data, CSS variables resolved', () => {
    const el = render({
      series: [
        { id: 'm', label: 'model', kind: 'model', points: XS.map((x, i) => ({ x, y: 1000 + i })) },
        { id: 'r', label: 'patch', kind: 'reference', points: [{ x: 65536, y: 999 }] },
      ],
    });
    const text = svgText(el.querySelector('svg')!);
    expect(text).not.toContain('var(--');
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text).toContain('data-x="65536"');
    expect(text).toContain('data-y="1004"');
    expect(text.match(/data-sweep-point=""/g)).toHaveLength(10);
    expect(text.match(/data-reference-point=""/g)).toHaveLength(1);
    expect(text).toContain('#0072b2'); // the model colour, from the defaults here (no stylesheet)
    expect(text).toContain('font-family');
    expect(text).not.toContain('data-export-skip'); // hover hit areas left out
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(doc.documentElement.getAttribute('width')).toBe('640');
  });

  it('takes the colours from the theme in force', () => {
    const style = document.createElement('style');
    style.dataset.test = '';
    style.textContent = ':root { --c-fault: #123456; --panel: #1a1d20; --c-major: #abcdef }';
    document.head.appendChild(style);
    const el = render({
      series: [
        { id: 'r', label: 'patch', kind: 'reference', points: [{ x: 4096, y: 1 }] },
        { id: 'm', label: 'model', kind: 'model', points: [{ x: 4096, y: 2 }] },
      ],
    });
    const text = svgText(el.querySelector('svg')!);
    expect(text).toContain('#123456');
    expect(text).toContain('#abcdef');
    expect(text).toContain('fill="#1a1d20"'); // the background
    expect(text).not.toContain('#0072b2');
  });

  it('resolves nested variables and fallbacks', () => {
    const vars: Record<string, string> = { '--a': 'var(--b)', '--b': '#fff' };
    expect(resolveVars('var(--a)', (n) => vars[n] ?? '')).toBe('#fff');
    expect(resolveVars('var(--nope, var(--b))', (n) => vars[n] ?? '')).toBe('#fff');
    expect(resolveVars('1px solid var(--nope, red)', () => '')).toBe('1px solid red');
  });
});

describe('download', () => {
  it('clicks an <a download> with a blob URL', () => {
    const created: Blob[] = [];
    const urlApi = URL as unknown as { createObjectURL?: (b: Blob) => string; revokeObjectURL?: (u: string) => void };
    const saved = { c: urlApi.createObjectURL, r: urlApi.revokeObjectURL };
    urlApi.createObjectURL = (b: Blob) => {
      created.push(b);
      return 'blob:test/1';
    };
    urlApi.revokeObjectURL = () => {};
    const clicks: { name: string; href: string }[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ name: this.download, href: this.href });
    });
    try {
      download('sweep-x-y.csv', new Blob(['a,b\n'], { type: 'text/csv' }));
      expect(clicks).toEqual([{ name: 'sweep-x-y.csv', href: 'blob:test/1' }]);
      expect(created).toHaveLength(1);
      expect(document.querySelector('a[download]')).toBeNull();
    } finally {
      spy.mockRestore();
      urlApi.createObjectURL = saved.c;
      urlApi.revokeObjectURL = saved.r;
    }
  });
});
