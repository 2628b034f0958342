/**
 * The URL holds what is on screen: the scenario (its name, or its whole text
 * compressed when edited), the tunables set in the UI, the cursor, and the
 * views. Reloading the URL restores exactly that.
 *
 *   ?scenario=fault-around/sequential&set=fault_around_bytes=4096&cursor=812
 *   ?src=<deflate + base64url of the YAML>&set=...&cursor=end&views=address,counters
 *   ?scenario=fault-around/sequential&compare=fault_around_bytes=4096     run B beside run A
 *   ?scenario=prefault/sequential&compare=anon_prefault=off&c=thp=always&d=mthp=[65536]   runs C and D too
 *   ?scenario=fault-around/sequential&sweep=fault_around_bytes&y=pgfault  one run per value
 *   ?scenario=...&sweep=readahead_kb:0,64,128                            the values given
 */
import { compressSource, decompressSource, UrlError } from './compress.js';
import { parseSeed } from '../../../wasm-core/ts/load/params.js';

export { compressSource, decompressSource, UrlError };
import { MECHANISMS } from '../../../wasm-core/ts/abi.js';
import { splitValues } from '../../../wasm-core/ts/multirun.js';
import type { CursorTarget, ViewId } from './state.js';
import { ALL_VIEW_IDS, groupOf, shownViews } from '../views/ids.js';

export interface UrlState {
  scenario?: string;
  src?: string;
  set: Record<string, string>;
  cursor?: CursorTarget;
  views?: ViewId[];
  enlarged?: ViewId;
  /** run B's tunables on top of `set` */
  compare?: Record<string, string>;
  /** runs C and D's tunables on top of `set`, in order (only beside run B) */
  more?: Record<string, string>[];
  sweep?: { key: string; values: string[] | null; y: string | null; versus?: Record<string, string> | null };
  theme?: 'light' | 'dark';
  /** the process the address space shows */
  mm?: number;
  /** the charted counters, when not the default ones */
  chart?: string[];
  present?: boolean;
  embed?: boolean;
  /** presenter mode's type scale */
  scale?: number;
  /** what the link asked for and could not be used (views=foo): the page says so */
  ignored?: string[];
  /** a tour (group/name), and the beat on screen (from 1) */
  tour?: string;
  /** an exercise's variant: the seed that draws its parameters (&seed=N) */
  seed?: number;
  /** a teacher's view of an exercise: every answer and the parameters shown (&teacher=1) */
  teacher?: boolean;
  /** an edited tour's whole text (`#tour-src=`, deflated like an edited scenario's) */
  tourSrc?: string;
  /** the editor's text not yet run (`#draft=`, deflated), valid or not: a reload, Back or the link bring it back */
  draft?: string;
  beat?: number;
  /** the beats a tour may walk, from 1, inclusive: &beats=3-7 */
  beats?: [number, number];
}

/**
 * The query, and the fragment for an edited scenario's text (`#src=`): a
 * fragment is never sent to a server, so a long scenario cannot get a link
 * refused (HTTP 414), and the text stays off server logs.
 */
export function encodeUrl(u: UrlState): string {
  const p = new URLSearchParams();
  if (u.tour) {
    /* a tour's beat says everything else: its scenario, runs, views and moment */
    p.set('tour', u.tour);
    if (u.beat && u.beat > 1) p.set('beat', String(u.beat));
    if (u.beats) p.set('beats', `${u.beats[0]}-${u.beats[1]}`);
    if (u.seed !== undefined) p.set('seed', String(u.seed));
    if (u.teacher) p.set('teacher', '1');
    if (u.theme) p.set('theme', u.theme);
    if (u.present) p.set('present', '1');
    if (u.embed) p.set('embed', '1');
    if (u.scale !== undefined && u.scale !== 1) p.set('scale', String(u.scale));
    return `?${p.toString()}${u.tourSrc !== undefined ? `#tour-src=${compressSource(u.tourSrc)}` : ''}`;
  }
  /* with an edited text too: the name keeps its group's views and tunables after a reload */
  if (u.scenario) p.set('scenario', u.scenario);
  for (const [k, v] of Object.entries(u.set)) p.append('set', `${k}=${v}`);
  if (u.cursor !== undefined && u.cursor !== 0 && !(typeof u.cursor === 'object' && 'moment' in u.cursor))
    p.set(
      'cursor',
      typeof u.cursor === 'number'
        ? String(u.cursor)
        : u.cursor === 'end'
          ? 'end'
          : `s${u.cursor.step}:${u.cursor.frac.toFixed(4)}`,
    );
  /* views: only when they are not the scenario's group's default set */
  const usual = shownViews({}, groupOf(u.scenario)).map((v) => v.id);
  if (u.views && (u.views.length !== usual.length || u.views.some((v) => !usual.includes(v))))
    p.set('views', u.views.join(','));
  if (u.enlarged) p.set('enlarged', u.enlarged);
  for (const [k, v] of Object.entries(u.compare ?? {})) p.append('compare', `${k}=${v}`);
  (u.more ?? []).forEach((set, i) => {
    for (const [k, v] of Object.entries(set)) p.append('cd'[i], `${k}=${v}`);
  });
  if (u.sweep) {
    p.set('sweep', u.sweep.values ? `${u.sweep.key}:${u.sweep.values.join(',')}` : u.sweep.key);
    if (u.sweep.y && u.sweep.y !== 'pgfault') p.set('y', u.sweep.y);
    for (const [k, v] of Object.entries(u.sweep.versus ?? {})) p.append('versus', `${k}=${v}`);
  }
  if (u.theme) p.set('theme', u.theme);
  if (u.mm !== undefined) p.set('mm', String(u.mm));
  if (u.chart) p.set('chart', u.chart.join(','));
  if (u.present) p.set('present', '1');
  if (u.embed) p.set('embed', '1');
  if (u.scale !== undefined && u.scale !== 1) p.set('scale', String(u.scale));
  const s = p.toString();
  const hash = [
    u.src !== undefined ? `src=${compressSource(u.src)}` : '',
    u.draft !== undefined ? `draft=${compressSource(u.draft)}` : '',
  ].filter(Boolean);
  return `${s ? `?${s}` : ''}${hash.length ? `#${hash.join('&')}` : ''}`;
}

/** a scenario's name under its group's current spelling: links from before a rename (vmacache/ebizzy) still open */
export function currentName(name: string): string {
  const [group, ...rest] = name.split('/');
  const m = MECHANISMS.find((x) => (x.aliases as readonly string[]).includes(group));
  return m ? [m.id, ...rest].join('/') : name;
}

/** search (`?…`) and hash (`#src=…`); `?src=` of older links is read too */
export function decodeUrl(search: string, hash?: string): UrlState {
  if (hash === undefined) {
    const i = search.indexOf('#');
    hash = i >= 0 ? search.slice(i) : '';
    search = i >= 0 ? search.slice(0, i) : search;
  }
  const p = new URLSearchParams(search);
  /* keyed by the link's text: no prototype, so set=__proto__=… is just an (unknown) key */
  const out: UrlState = { set: Object.create(null) as Record<string, string> };
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  /* an edited text in the link, deflated: a scenario's (#src=) or a tour's (#tour-src=) */
  const inflate = (text: string | null, what: string) => {
    if (text === null) return undefined;
    try {
      return decompressSource(text);
    } catch (e) {
      throw e instanceof UrlError
        ? e
        : new UrlError(`The link holds an edited ${what} that cannot be read back (the link may be truncated).`);
    }
  };
  const src = inflate(h.get('src') ?? p.get('src'), 'scenario');
  if (src !== undefined) out.src = src;
  const tourSrc = inflate(h.get('tour-src'), 'tour');
  if (tourSrc !== undefined) out.tourSrc = tourSrc;
  const draft = inflate(h.get('draft'), 'draft');
  if (draft !== undefined) out.draft = draft;
  const sc = p.get('scenario');
  if (sc) out.scenario = currentName(sc);
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
  const ignored: string[] = [];
  const views = p.get('views');
  if (views !== null) {
    const asked = views.split(',').filter(Boolean);
    const known = asked.filter((v): v is ViewId => ALL_VIEW_IDS.includes(v));
    for (const v of asked)
      if (!known.includes(v)) ignored.push(`views=${v} (the views are ${ALL_VIEW_IDS.join(', ')})`);
    /* a link that names no view we have shows them all rather than none */
    if (known.length) out.views = known;
  }
  const theme = p.get('theme');
  if (theme === 'light' || theme === 'dark') out.theme = theme;
  else if (theme !== null) ignored.push(`theme=${theme} (light or dark)`);
  const mm = p.get('mm');
  if (mm !== null && /^\d{1,6}$/.test(mm)) out.mm = Number(mm);
  const chart = p.get('chart');
  if (chart !== null) out.chart = chart.split(',').filter(Boolean).slice(0, 5);
  if (p.get('present') === '1') out.present = true;
  const tour = p.get('tour');
  if (tour) {
    out.tour = tour;
    const beat = Number(p.get('beat') ?? 1);
    out.beat = Number.isInteger(beat) && beat >= 1 ? beat : 1;
    const beats = p.get('beats');
    if (beats !== null) {
      const m = /^(\d{1,3})(?:-(\d{1,3}))?$/.exec(beats.trim());
      if (m && Number(m[1]) >= 1 && Number(m[2] ?? m[1]) >= Number(m[1])) {
        out.beats = [Number(m[1]), Number(m[2] ?? m[1])];
        if (p.get('beat') === null) out.beat = out.beats[0];
      } else ignored.push(`beats=${beats} (a range of beats, such as 3-7)`);
    }
    const seed = p.get('seed');
    if (seed !== null) {
      const n = parseSeed(seed);
      if (typeof n === 'number') out.seed = n;
      else ignored.push(`seed=${seed.slice(0, 40)} (${n.error}; a new one was drawn)`);
    }
    if (p.get('teacher') === '1') out.teacher = true;
  }
  if (p.get('embed') === '1') out.embed = true;
  const scale = Number(p.get('scale'));
  if (p.get('scale') !== null && Number.isFinite(scale) && scale > 0) out.scale = scale;
  if (ignored.length) out.ignored = ignored;
  /* run B (compare=), and C and D beside it (c=, d=): each key=value, repeatable */
  const settingsOf = (name: string, example: string) => {
    const kvs = p.getAll(name);
    if (!kvs.length) return null;
    const set = Object.create(null) as Record<string, string>;
    for (const kv of kvs) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UrlError(`${name}=${kv}: expected key=value, like ${name}=${example}`);
      set[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    return set;
  };
  const cmp = settingsOf('compare', 'fault_around_bytes=4096');
  if (cmp) out.compare = cmp;
  const runC = settingsOf('c', 'thp=always'),
    runD = settingsOf('d', 'mthp=[65536]');
  if (runC && !cmp) throw new UrlError('c= adds run C beside run B: give compare= too (compare=key=value&c=key=value)');
  if (runD && !runC) throw new UrlError('d= adds run D beside run C: give c= too (compare=…&c=…&d=…)');
  if (runC) out.more = runD ? [runC, runD] : [runC];
  const sw = p.get('sweep');
  if (sw) {
    /* sweep=key, sweep=key:v1,v2 or sweep=key=v1,v2 */
    const m = /^([a-z_.]+)(?:[:=](.*))?$/.exec(sw);
    if (!m)
      throw new UrlError(
        `sweep=${sw}: expected a tunable, like sweep=fault_around_bytes or sweep=readahead_kb:0,64,128`,
      );
    out.sweep = { key: m[1], values: m[2] ? splitValues(m[2]).filter(Boolean) : null, y: p.get('y') };
    /* versus=key=value: the same sweep again with those tunables set, as a second series */
    const vs = p.getAll('versus');
    if (vs.length) {
      const versus = Object.create(null) as Record<string, string>;
      for (const kv of vs) {
        const eq = kv.indexOf('=');
        if (eq <= 0) throw new UrlError(`versus=${kv}: expected key=value, like versus=large_mapcount=false`);
        versus[kv.slice(0, eq)] = kv.slice(eq + 1);
      }
      out.sweep.versus = versus;
    }
  }
  const en = p.get('enlarged');
  if (en && ALL_VIEW_IDS.includes(en)) out.enlarged = en;
  return out;
}
