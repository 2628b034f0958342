/**
 * The checks that need the whole scenario: names exist where they are used,
 * processes exist (and still live) when their tasks act, mappings exist in
 * the acting process, ranges fit, cached files fit in machine.memory, and
 * repeats leave the mappings as they found them. The step kinds' arguments
 * say what a step uses (../../interface/steps.ts: a task, a map, a file);
 * the kinds that create or end things (mmap, fork, exit, munmap) have their
 * effect here.
 */
import { STEPS, type DescribedStep, type StepKindDesc } from '../../interface/steps.js';
import { MAX_LOOPS } from '../abi.js';
import type { At } from '../errors.js';
import type { DescribedKind, FileDef, Scenario, Step, TaskRef } from '../scenario.js';
import { formatSize, MAX_ADDR, PAGE, suggest } from '../schema/check.js';
import type { Ctx } from './build.js';

/** repeats nest at most this deep (the interpreter's loop stack) */
export const MAX_REPEAT_DEPTH = MAX_LOOPS;

interface ProcState {
  name: string;
  threads: number;
  alive: boolean;
  maps: Map<string, { len: number; at: At }>;
  bornAt?: At;
  diedAt?: At;
}

/**
 * Static checks that need the whole scenario: names exist where they are
 * used, processes exist when their tasks act, maps exist in the acting
 * process, ranges fit, cached files fit in machine.memory.
 */
export function checkSemantics(c: Ctx, s: Scenario): void {
  const files = new Map<string, FileDef>();
  for (const f of s.files) {
    if (files.has(f.name)) c.err(f.at, `file '${f.name}' is defined twice`);
    files.set(f.name, f);
  }
  const procs = new Map<string, ProcState>();
  for (const p of s.processes) {
    if (procs.has(p.name)) c.err(p.at, `process '${p.name}' is defined twice`);
    procs.set(p.name, { name: p.name, threads: p.threads, alive: true, maps: new Map() });
  }
  const allMaps = new Map<string, At>();
  const unmappedAt = new Map<string, At>();

  const cachedBytes = s.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / PAGE) * PAGE, 0);
  if (cachedBytes > s.machine.memory - 2 ** 20) {
    const f = s.files.filter((x) => x.cached).sort((a, b) => b.size - a.size)[0];
    c.err(
      f.cachedAt,
      `cached: all needs ${formatSize(cachedBytes)} of page cache for the cached files, more than machine.memory (${formatSize(s.machine.memory)}) can hold next to page tables; raise machine.memory or use cached: none`,
    );
  }

  const proc = (t: TaskRef, allowAll: boolean): ProcState | null => {
    const p = procs.get(t.proc);
    if (!p) {
      c.err(
        t.at,
        `no process '${t.proc}'${suggest(t.proc, [...procs.keys()])}; processes: ${[...procs.keys()].join(', ') || '(none: add a processes: section)'}`,
      );
      return null;
    }
    if (!p.alive) {
      c.err(t.at, `process '${t.proc}' has exited (line ${p.diedAt?.line})`);
      return null;
    }
    if (t.thread === '*' && !allowAll) {
      c.err(t.at, `this step is done by one task, not '${t.text}'`);
      return null;
    }
    if (typeof t.thread === 'number' && t.thread >= p.threads) {
      c.err(
        t.at,
        `process '${t.proc}' has ${p.threads} thread${p.threads > 1 ? 's' : ''} (0 .. ${p.threads - 1}), so '${t.text}' does not exist`,
      );
      return null;
    }
    return p;
  };
  const mapOf = (p: ProcState, name: string, at: At): { len: number } | null => {
    const m = p.maps.get(name);
    if (m) return m;
    const elsewhere = allMaps.get(name);
    const gone = unmappedAt.get(`${p.name}/${name}`);
    c.err(
      at,
      gone
        ? `process '${p.name}' has no mapping '${name}' at this point: it was unmapped at line ${gone.line}`
        : elsewhere && [...procs.values()].some((q) => q !== p && q.maps.has(name))
          ? `process '${p.name}' has no mapping '${name}' at this point (an mmap at line ${elsewhere.line} creates it in another process)`
          : elsewhere
            ? `process '${p.name}' has no mapping '${name}' at this point (the mmap at line ${elsewhere.line} is not in effect here)`
            : `no mmap step before this one creates a map named '${name}'${suggest(name, [...p.maps.keys()])}`,
    );
    return null;
  };
  const range = (m: { len: number }, offset: number, length: number | undefined, at: At, stepAt: At) => {
    if (offset > m.len)
      c.err(at, `offset ${formatSize(offset)} is beyond the end of the mapping (${formatSize(m.len)})`);
    else if (length !== undefined && offset + length > m.len)
      c.err(
        stepAt,
        `offset + length (${formatSize(offset + length)}) runs past the end of the mapping (${formatSize(m.len)})`,
      );
  };
  const fileOf = (name: string, at: At): FileDef | null => {
    const f = files.get(name);
    if (!f)
      c.err(
        at,
        `no file '${name}'${suggest(name, [...files.keys()])}; files: ${[...files.keys()].join(', ') || '(none: add a files: section)'}`,
      );
    return f ?? null;
  };
  const fieldAt = (st: Step, key: string): At => ({ ...st.at, path: `${st.at.path}.${key}` });

  /* a step of a described kind: the task acts on what its arguments name; a few kinds create or end things */
  const described = (st: Step, times: number) => {
    const d = STEPS[st.kind as DescribedKind] as StepKindDesc;
    const v = st as unknown as Record<string, unknown>;
    if (d.effect === 'map') return mapStep(st as DescribedStep<'mmap'>);
    if (d.effect === 'fork') return forkStep(st as DescribedStep<'fork'>, times);
    if (d.effect === 'exit') return exitStep(st as DescribedStep<'exit'>, times);
    const args = Object.entries(d.args);
    const taskArg = args.find(([, a]) => a.type === 'task');
    const p = taskArg ? proc(v[taskArg[0]] as TaskRef, !!taskArg[1].all) : null;
    const offset = v.offset as number,
      length = v.length as number | undefined;
    for (const [k, a] of args) {
      if (a.type === 'map') {
        const m = p && mapOf(p, v[k] as string, fieldAt(st, k));
        if (m) range(m, offset, length, fieldAt(st, 'offset'), st.at);
        /* munmap of the whole mapping: the name is free again */
        if (p && m && d.effect === 'unmap' && offset === 0 && (length === undefined || length >= m.len)) {
          p.maps.delete(v[k] as string);
          unmappedAt.set(`${p.name}/${v[k] as string}`, st.at);
        }
      } else if (a.type === 'maps') {
        if (!p) return;
        const list = v[k] as string | string[];
        const names = Array.isArray(list) ? list : [list];
        if (Array.isArray(list) && list.length !== p.threads)
          c.err(
            fieldAt(st, k),
            `one map per thread: process '${p.name}' has ${p.threads} threads, the list has ${list.length}`,
          );
        for (const n of names) {
          const m = mapOf(p, n, fieldAt(st, k));
          if (!m) continue;
          range(m, offset, length, fieldAt(st, 'offset'), st.at);
          const span = length ?? m.len - offset;
          for (const pg of (v.pages as number[] | undefined) ?? [])
            if (pg * PAGE >= span) {
              c.err(fieldAt(st, 'pages'), `page ${pg} is beyond the range touched (${span / PAGE} pages)`);
              break;
            }
        }
      } else if (a.type === 'file') {
        const f = fileOf(v[k] as string, fieldAt(st, k));
        if (f && d.writes && offset + (length ?? 0) > f.size)
          c.err(
            st.at,
            `this ${st.kind} runs past the end of file '${f.name}' (${formatSize(f.size)}): files do not grow in this model; make the file larger`,
          );
      }
    }
  };
  const mapStep = (st: DescribedStep<'mmap'>) => {
    const p = proc(st.task, false);
    let len = st.length;
    if (st.file !== undefined) {
      const f = fileOf(st.file, fieldAt(st, 'file'));
      if (f && len === undefined) {
        if (st.offset >= f.size) {
          c.err(
            fieldAt(st, 'offset'),
            `offset ${formatSize(st.offset)} is at or beyond the end of file '${f.name}' (${formatSize(f.size)})`,
          );
          return;
        }
        len = Math.ceil((f.size - st.offset) / PAGE) * PAGE;
      }
    }
    if (st.addr !== undefined && len !== undefined && st.addr + len > MAX_ADDR)
      c.err(fieldAt(st, 'addr'), 'the mapping would run past the end of user space');
    if (!p || len === undefined) return;
    if (p.maps.has(st.name)) {
      c.err(
        fieldAt(st, 'name'),
        `process '${p.name}' already has a mapping named '${st.name}' (line ${p.maps.get(st.name)!.at.line}); unmap it first or choose another name`,
      );
      return;
    }
    p.maps.set(st.name, { len, at: st.at });
    allMaps.set(st.name, allMaps.get(st.name) ?? st.at);
  };
  const forkStep = (st: DescribedStep<'fork'>, times: number) => {
    const p = proc(st.task, false);
    if (procs.has(st.child)) {
      const born = procs.get(st.child)!.bornAt;
      c.err(
        fieldAt(st, 'child'),
        `a process named '${st.child}' already exists (${born ? `forked at line ${born.line}` : 'under processes:'})`,
      );
      return;
    }
    if (times > 1) c.err(st.at, `a fork inside a repeat of ${times} would create '${st.child}' ${times} times`);
    if (p) procs.set(st.child, { name: st.child, threads: 1, alive: true, maps: new Map(p.maps), bornAt: st.at });
  };
  const exitStep = (st: DescribedStep<'exit'>, times: number) => {
    const p = proc(st.task, false);
    if (p) {
      if (times > 1) c.err(st.at, `an exit inside a repeat of ${times} would end '${p.name}' again`);
      p.alive = false;
      p.diedAt = st.at;
      p.maps.clear();
    }
  };

  const walk = (steps: Step[], times: number, depth = 0) => {
    for (const st of steps) {
      switch (st.kind) {
        case 'repeat': {
          /* the body must leave the mappings as it found them (an mmap .. munmap pair, as
             will-it-scale loops do, is fine), or its second iteration would fail */
          /* page-aligned offsets (mmap, munmap, madvise, access, a folio's) stay aligned only with a page-multiple stride */
          if (st.stride % PAGE) {
            const paged = (list: Step[]): Step | undefined => {
              for (const x of list) {
                if (
                  (x.kind in STEPS &&
                    Object.values((STEPS[x.kind as DescribedKind] as StepKindDesc).args).some(
                      (a) => a.type === 'page-offset',
                    )) ||
                  (x.kind === 'expect' && x.folio)
                )
                  return x;
                if (x.kind === 'repeat') {
                  const y = paged(x.steps);
                  if (y) return y;
                }
              }
              return undefined;
            };
            const inner = paged(st.steps);
            if (inner) {
              c.err(
                fieldAt(st, 'stride'),
                `must be a multiple of 4 KiB (4096 bytes) here, got ${st.stride}: the ${inner.kind} step at line ${inner.at.line} takes page-aligned offsets`,
              );
              break;
            }
          }
          if (depth === MAX_REPEAT_DEPTH) {
            c.err(
              st.at,
              `repeats nest at most ${MAX_REPEAT_DEPTH} deep (the core's loop stack); this one is the ${MAX_REPEAT_DEPTH + 1}th`,
            );
            break;
          }
          const before = new Map([...procs.values()].map((p) => [p.name, new Set(p.maps.keys())]));
          walk(st.steps, times * Math.max(st.times, 1), depth + 1);
          if (st.times < 2) break;
          for (const p of procs.values()) {
            const had = before.get(p.name);
            if (!had || !p.alive) continue;
            for (const [name, m] of p.maps)
              if (!had.has(name))
                c.err(
                  m.at,
                  `this mmap is inside a repeat of ${st.times} and stays mapped: the second iteration would map '${name}' again; unmap it inside the repeat`,
                );
            for (const name of had)
              if (!p.maps.has(name))
                c.err(
                  unmappedAt.get(`${p.name}/${name}`) ?? st.at,
                  `this munmap is inside a repeat of ${st.times}: the second iteration would unmap '${name}' again; map it again inside the repeat`,
                );
          }
          break;
        }
        case 'expect': {
          if (st.task) proc(st.task, false);
          if (st.folio) {
            const p = proc(st.folio.task, false);
            const m = p && mapOf(p, st.folio.map, st.folio.at);
            if (m && st.folio.offset >= m.len)
              c.err(st.folio.at, `offset ${formatSize(st.folio.offset)} is beyond the mapping (${formatSize(m.len)})`);
          }
          break;
        }
        case 'say':
          break;
        default:
          described(st, times);
      }
    }
  };
  walk(s.steps, 1);

  /* extension: a comparison that changes nothing would run the same thing twice */
  if (s.compare && s.compareAt) {
    const now = (k: string) =>
      k.startsWith('machine.')
        ? (s.machine as unknown as Record<string, unknown>)[k.slice(8)]
        : (s.kernel as unknown as Record<string, unknown>)[k];
    if (Object.entries(s.compare).every(([k, v]) => JSON.stringify(now(k)) === JSON.stringify(v)))
      c.err(
        s.compareAt,
        `compare sets ${Object.keys(s.compare).join(', ')} to the scenario's own value${Object.keys(s.compare).length > 1 ? 's' : ''}: run B would be run A`,
      );
  }
}
