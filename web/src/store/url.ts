/**
 * The URL holds what is on screen: the scenario (its name, or its whole text
 * compressed when edited), the tunables set in the UI, the cursor, and the
 * views. Reloading the URL restores exactly that.
 *
 *   ?scenario=fault-around/sequential&set=fault_around_bytes=4096&cursor=812
 *   ?src=<deflate + base64url of the YAML>&set=...&cursor=end&views=address,counters
 *   ?scenario=fault-around/sequential&compare=fault_around_bytes=4096     run B beside run A
 *   ?scenario=fault-around/sequential&sweep=fault_around_bytes&y=pgfault  one run per value
 *   ?scenario=...&sweep=readahead_kb:0,64,128                            the values given
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { splitValues } from '../../../wasm-core/ts/multirun.js';
import { VIEW_IDS, type CursorTarget, type ViewId } from './state.js';

export interface UrlState {
  scenario?: string;
  src?: string;
  set: Record<string, string>;
  cursor?: CursorTarget;
  views?: ViewId[];
  enlarged?: ViewId;
  /** run B's tunables on top of `set` */
  compare?: Record<string, string>;
  sweep?: { key: string; values: string[] | null; y: string | null };
}

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

export function compressSource(text: string): string {
  return b64url(deflateSync(strToU8(text), { level: 9 }));
}

export function decompressSource(s: string): string {
  return strFromU8(inflateSync(unb64url(s)));
}

export function encodeUrl(u: UrlState): string {
  const p = new URLSearchParams();
  if (u.src !== undefined) p.set('src', compressSource(u.src));
  else if (u.scenario) p.set('scenario', u.scenario);
  for (const [k, v] of Object.entries(u.set)) p.append('set', `${k}=${v}`);
  if (u.cursor !== undefined && u.cursor !== 0) p.set('cursor', typeof u.cursor === 'number' ? String(u.cursor) : u.cursor === 'end' ? 'end' : `s${u.cursor.step}:${u.cursor.frac.toFixed(4)}`);
  if (u.views && u.views.length !== VIEW_IDS.length) p.set('views', u.views.join(','));
  if (u.enlarged) p.set('enlarged', u.enlarged);
  for (const [k, v] of Object.entries(u.compare ?? {})) p.append('compare', `${k}=${v}`);
  if (u.sweep) {
    p.set('sweep', u.sweep.values ? `${u.sweep.key}:${u.sweep.values.join(',')}` : u.sweep.key);
    if (u.sweep.y && u.sweep.y !== 'pgfault') p.set('y', u.sweep.y);
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export class UrlError extends Error {}

export function decodeUrl(search: string): UrlState {
  const p = new URLSearchParams(search);
  const out: UrlState = { set: {} };
  const src = p.get('src');
  if (src !== null) {
    try {
      out.src = decompressSource(src);
    } catch {
      throw new UrlError('The link holds an edited scenario that cannot be read back (the link may be truncated).');
    }
  }
  const sc = p.get('scenario');
  if (sc) out.scenario = sc;
  for (const kv of p.getAll('set')) {
    const eq = kv.indexOf('=');
    if (eq > 0) out.set[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const c = p.get('cursor');
  if (c === 'end') out.cursor = 'end';
  else if (c && /^\d+$/.test(c)) out.cursor = Number(c);
  else if (c) {
    const m = /^s(\d+):([\d.]+)$/.exec(c);
    if (m) out.cursor = { step: Number(m[1]), frac: Number(m[2]) };
  }
  const views = p.get('views');
  if (views !== null) out.views = views.split(',').filter((v): v is ViewId => (VIEW_IDS as string[]).includes(v));
  const cmp = p.getAll('compare');
  if (cmp.length) {
    out.compare = {};
    for (const kv of cmp) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UrlError(`compare=${kv}: expected key=value, like compare=fault_around_bytes=4096`);
      out.compare[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  }
  const sw = p.get('sweep');
  if (sw) {
    /* sweep=key, sweep=key:v1,v2 or sweep=key=v1,v2 */
    const m = /^([a-z_.]+)(?:[:=](.*))?$/.exec(sw);
    if (!m) throw new UrlError(`sweep=${sw}: expected a tunable, like sweep=fault_around_bytes or sweep=readahead_kb:0,64,128`);
    out.sweep = { key: m[1], values: m[2] ? splitValues(m[2]).filter(Boolean) : null, y: p.get('y') };
  }
  const en = p.get('enlarged');
  if (en && (VIEW_IDS as string[]).includes(en)) out.enlarged = en as ViewId;
  return out;
}
