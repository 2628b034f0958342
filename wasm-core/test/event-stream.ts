/**
 * A recorded event stream kept as a golden file, and the first place two
 * streams part, told by event, kind, field and step.
 *
 * The file: one line of JSON (the event kinds' names by number, and how many
 * events), then the records column by column (the first word of each as it
 * is, the other seven as the difference from the previous record of the
 * same kind), brotli-compressed. A run's faults, PTEs and pages move in
 * steps of one, so the columns compress to almost nothing: the 1.16 M
 * events of prefault/sequential.yaml take about 1 KB, the LRU backup's
 * 203,317 about 34 KB. Kinds are stored by name, so renumbering them
 * changes no golden file.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { decodeEvent, EVENT_FIELDS, EVENTS, EV_TYPE_MASK } from '../ts/abi.js';
import type { Program } from '../ts/compile.js';

const WORDS = 8; /* u32 words per 32-byte record */

export function encodeStream(events: Uint8Array): Buffer {
  const n = events.length / 32;
  const w = new Uint32Array(events.buffer, events.byteOffset, n * WORDS);
  const cols = new Uint32Array(n * WORDS);
  const prev = new Map<number, Uint32Array>();
  for (let i = 0; i < n; i++) {
    const kind = w[i * WORDS] & EV_TYPE_MASK;
    let p = prev.get(kind);
    if (!p) prev.set(kind, (p = new Uint32Array(WORDS)));
    cols[i] = w[i * WORDS];
    for (let k = 1; k < WORDS; k++) {
      cols[k * n + i] = (w[i * WORDS + k] - p[k]) >>> 0;
      p[k] = w[i * WORDS + k];
    }
  }
  const head = Buffer.from(`${JSON.stringify({ kinds: EVENTS, events: n })}\n`);
  const body = brotliCompressSync(Buffer.from(cols.buffer), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: cols.byteLength },
  });
  return Buffer.concat([head, body]);
}

/** the records of a stream file, with its kinds renumbered to today's by name (an unknown name: type 0x7fff) */
export function decodeStream(file: Buffer): Uint8Array {
  const nl = file.indexOf(10);
  const { kinds, events: n } = JSON.parse(file.subarray(0, nl).toString()) as { kinds: string[]; events: number };
  const raw = brotliDecompressSync(file.subarray(nl + 1));
  const cols = new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const out = new Uint32Array(n * WORDS);
  const prev = new Map<number, Uint32Array>();
  const renumber = kinds.map((k) => {
    const i = (EVENTS as readonly string[]).indexOf(k);
    return i < 0 ? EV_TYPE_MASK : i;
  });
  for (let i = 0; i < n; i++) {
    const first = cols[i];
    const kind = first & EV_TYPE_MASK;
    let p = prev.get(kind);
    if (!p) prev.set(kind, (p = new Uint32Array(WORDS)));
    out[i * WORDS] = ((first & ~EV_TYPE_MASK) | renumber[kind]) >>> 0;
    for (let k = 1; k < WORDS; k++) {
      p[k] = (p[k] + cols[k * n + i]) >>> 0;
      out[i * WORDS + k] = p[k];
    }
  }
  return new Uint8Array(out.buffer);
}

/**
 * Where `got` first departs from `want`, in words: the event's index, its
 * step (line and summary), its kind, and each field that differs with both
 * values; or the kinds, when they differ; or which stream ends first.
 * null when they are the same.
 */
export function firstDifference(want: Uint8Array, got: Uint8Array, prog?: Program): string | null {
  const n = Math.min(want.length, got.length) / 32;
  const a = new DataView(want.buffer, want.byteOffset, want.byteLength),
    b = new DataView(got.buffer, got.byteOffset, got.byteLength);
  for (let i = 0; i < n; i++) {
    const o = i * 32;
    let same = true;
    for (let k = 0; k < 32; k += 4)
      if (a.getUint32(o + k, true) !== b.getUint32(o + k, true)) {
        same = false;
        break;
      }
    if (same) continue;
    const ea = decodeEvent(a, o, i) as unknown as Record<string, unknown>,
      eb = decodeEvent(b, o, i) as unknown as Record<string, unknown>;
    const at = where(prog, eb.step as number | null);
    if (ea.type !== eb.type) return `event ${i}${at}: expected ${ea.name}, got ${eb.name}`;
    const parts: string[] = [];
    for (const k of ['task', 'step', 'opStart'])
      if (ea[k] !== eb[k]) parts.push(`${k} ${String(ea[k])} -> ${String(eb[k])}`);
    for (const f of EVENT_FIELDS[ea.type as number])
      if (ea[f.name] !== eb[f.name]) parts.push(`${f.name} ${String(ea[f.name])} -> ${String(eb[f.name])}`);
    return `event ${i}${at}, ${ea.name}: ${parts.join(', ')}`;
  }
  if (want.length !== got.length)
    return want.length > got.length
      ? `the run ends after ${got.length / 32} events; ${want.length / 32} expected (next: ${String((decodeEvent(a, got.length, got.length / 32) as { name: string }).name)})`
      : `the run goes on after the ${want.length / 32} events expected (next: ${(decodeEvent(b, want.length, want.length / 32) as { name: string }).name})`;
  return null;
}

/* " (step 6, line 21: app.0 reads m: sequential)" */
function where(prog: Program | undefined, step: number | null): string {
  if (step === null) return '';
  const s = prog?.steps[step];
  return s ? ` (step ${step + 1}, line ${s.at.line}: ${s.summary})` : ` (step ${step + 1})`;
}
