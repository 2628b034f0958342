import { describe, expect, it } from 'vitest';
import { COUNTERS, EV, FaultKind, PC, PC_READAHEAD, PC_STATE_MASK, SkipReason } from '../../../wasm-core/ts/abi.js';
import { Engine } from './engine.js';
import { CAUSE, type Frame } from './types.js';
import { recorded } from '../mechanisms/testing.js';
import { FRAME_PROVIDERS } from '../gen/frames.js';
import { computeMarks } from '../mechanisms/registry.js';
import { runProgram } from '../../../wasm-core/ts/runner.js';
import { loadCore, programFrom, programOf } from '../../../wasm-core/test/helpers.js';
import type { CoreSnapshot } from '../../../wasm-core/ts/core.js';
import { FIRSTS_KEPT } from '../../../wasm-core/ts/load/tour-format.js';

/** a frame without what legitimately depends on how we got there */
const comparable = (f: Frame) =>
  JSON.parse(JSON.stringify(f, (_, v) => (v instanceof Uint8Array || v instanceof Uint32Array ? Array.from(v) : v)));

describe('engine: recording', () => {
  it('walks a scenario by the steps written at its top: a repeat is one beat however often it runs', async () => {
    const prog = programOf('scenarios/lru/backup.yaml');
    const eng = new Engine(await loadCore(), prog);
    const tl = eng.recordAll();
    const top = prog.steps.filter((st) => st.depth === 0).length;
    const says = prog.steps.filter((st) => st.depth === 0 && st.kind === 'say').length;
    /* thousands of steps run inside repeats; a speaker's beats are the top-level ones, each run once */
    expect(tl.stepEvents.length).toBeGreaterThan(10 * top);
    /* a say's beat is its caption (sayEvents), so that no press shows an empty caption */
    expect(tl.beatEvents.length).toBe(top - says);
    expect(tl.sayEvents.length).toBe(says);
    expect(tl.beatEvents.every((i) => tl.stepEvents.includes(i))).toBe(true);
    eng.destroy();
  });

  it("a run's jump marks are the same read through its type index as from every event decoded", async () => {
    for (const file of ['scenarios/vma-cache/ebizzy.yaml', 'scenarios/prefault/threads.yaml']) {
      const eng = new Engine(await loadCore(), programOf(file), {}, FRAME_PROVIDERS);
      const tl = eng.recordAll();
      const event = (i: number) => eng.event(i);
      const indexed = computeMarks(tl.nEvents, event, (types) => eng.ofTypes(types));
      const decoded = computeMarks(tl.nEvents, event);
      expect(indexed, file).toEqual(decoded);
      /* and they mark something: faults are jumped to in every run */
      expect(indexed['fault']?.length, file).toBeGreaterThan(0);
      eng.destroy();
    }
  });

  it("a run's timeline indexes (steps, faults, major faults, says, each kind's first events) are every event's", async () => {
    for (const file of [
      'scenarios/fault-around/cold-sequential.yaml',
      'scenarios/lru/backup.yaml',
      'scenarios/large-folios/walkthrough.yaml',
    ]) {
      const eng = new Engine(await loadCore(), programOf(file), {}, FRAME_PROVIDERS);
      const tl = eng.recordAll();
      const want = { stepEvents: [] as number[], stepOf: [] as number[], faultEvents: [] as number[] };
      const major: number[] = [],
        says: number[] = [],
        firsts: Record<string, number[]> = {};
      for (let i = 0; i < tl.nEvents; i++) {
        const e = eng.event(i);
        const f = (firsts[e.name] ??= []);
        if (f.length < FIRSTS_KEPT) f.push(i);
        if (e.name === 'mmsim_step') {
          want.stepEvents.push(i);
          want.stepOf.push(e.pc);
        } else if (e.name === 'page_fault_user' && e.attempt === 0) want.faultEvents.push(i);
        else if (e.name === 'mm_filemap_fault' && !e.cached) major.push(i);
        else if (e.name === 'mmsim_say') says.push(i);
      }
      expect({ stepEvents: tl.stepEvents, stepOf: tl.stepOf, faultEvents: tl.faultEvents }, file).toEqual(want);
      expect(tl.majorEvents, file).toEqual(major);
      expect(tl.sayEvents, file).toEqual(says);
      expect(tl.firsts, file).toEqual(firsts);
      /* in the order the kinds first happen */
      expect(Object.keys(tl.firsts), file).toEqual(Object.keys(firsts));
      eng.destroy();
    }
  });

  it('records the sequential scenario with its indexes', async () => {
    const prog = programOf('scenarios/fault-around/sequential.yaml');
    const eng = new Engine(await loadCore(), prog);
    const tl = eng.recordAll();
    expect(tl.big).toBe(false);
    expect(tl.status).toBe('ok');
    expect(tl.stepEvents).toHaveLength(6);
    expect(tl.faultEvents).toHaveLength(256);
    expect(tl.majorEvents).toHaveLength(0);
    expect(tl.sayEvents).toHaveLength(3);
    expect(tl.nEvents).toBeGreaterThan(256 * 18);
    const last = eng.frame(tl.nEvents);
    const direct = runProgram(await loadCore(), prog);
    expect(last.counters[COUNTERS.indexOf('pgfault')]).toBe(direct.counters.pgfault);
    expect(last.counters).toEqual(COUNTERS.map((c) => ({ ...direct.counters, ...direct.model })[c]));
    eng.destroy();
  });

  it('keeps snapshots within its budget by thinning them', async () => {
    const eng = new Engine(
      await loadCore(),
      programOf('scenarios/fault-around/sequential.yaml', { fault_around_bytes: '4096' }),
      { snapshotBudget: 4 * 2 ** 20, interval: 256 },
    );
    const tl = eng.recordAll();
    expect(tl.snapshotBytes).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(tl.interval).toBeGreaterThan(256);
    expect(tl.snapshots).toBeGreaterThan(1);
    eng.destroy();
  });

  it('snapshots right after filling the page cache, and keeps that snapshot when thinning', async () => {
    /* 81,920 pages filled with one event: without it every early step back would refill them */
    const eng = new Engine(await loadCore(), programOf('wasm-core/bench/timetravel-100k.yaml'), {
      snapshotBudget: 16 * 2 ** 20,
    });
    const tl = eng.recordAll();
    const snaps = (eng as unknown as { snaps: { event: number; work: number; pinned: boolean }[] }).snaps;
    const afterFill = snaps.find((s) => s.work >= 81920);
    expect(afterFill?.pinned).toBe(true);
    expect(afterFill!.event).toBeLessThan(8);
    expect(tl.interval).toBeGreaterThan(2048); /* the budget did thin the others */
    expect(snaps.every((s, i) => i === 0 || s.event > snaps[i - 1].event)).toBe(true);
    /* and a frame restored from it equals one replayed from the start */
    const a = comparable(eng.frame(tl.nEvents >> 1));
    eng.frame(1);
    expect(comparable(eng.frame(tl.nEvents >> 1))).toEqual(a);
    eng.destroy();
  });

  it('runs a million-touch scenario as a big run, with aggregates', async () => {
    const eng = new Engine(await loadCore(), programOf('scenarios/fault-around/seed/random-1g.yaml'), {
      bigRunWork: 100_000,
    });
    const tl = eng.recordAll();
    expect(tl.big).toBe(true);
    expect(tl.nEvents).toBe(0);
    expect(tl.samples.x.length).toBeGreaterThan(1);
    const f = eng.frame(0);
    expect(f.big).toBe(true);
    expect(f.counters[COUNTERS.indexOf('pgfault')]).toBe(16384);
    const heat = f.mms[0].vmas[0].heat!;
    expect(heat.reduce((a, b) => a + b, 0)).toBe(262144);
    eng.destroy();
  });

  it('can be cancelled between slices', async () => {
    const eng = new Engine(
      await loadCore(),
      programOf('scenarios/fault-around/seed/sequential-16g.yaml', { fault_around_bytes: '4096' }),
    );
    expect(eng.isBig).toBe(true);
    expect(eng.recordSome(5)).toBe(false);
    const p = eng.progress;
    expect(p.done).toBeGreaterThan(0);
    expect(p.done).toBeLessThan(p.total);
    eng.cancel();
    expect(eng.recordSome(5)).toBe(true);
    expect(eng.wasCancelled).toBe(true);
    eng.destroy();
  });
});

describe('engine: time travel', () => {
  it('stepping back then forward gives the same frames as stepping forward only', async () => {
    const prog = programOf('scenarios/fault-around/partly-cached.yaml');
    const core = await loadCore();
    /* a's snapshots copied out to JavaScript, b's kept in the core's memory */
    const a = new Engine(core, prog, { interval: 64, inCoreFrom: Infinity });
    const b = new Engine(core, prog, { interval: 64, inCoreFrom: 0 });
    const tl = a.recordAll();
    b.recordAll();
    const forward = new Map<number, unknown>();
    for (let c = 0; c <= tl.nEvents; c += 37) forward.set(c, comparable(a.frame(c)));
    /* b visits the same cursors in a scrambled order, with back steps in between */
    const order = [...forward.keys()].sort((x, y) => ((x * 7919) % 1009) - ((y * 7919) % 1009));
    for (const c of order) {
      b.frame(Math.max(0, c - 500));
      expect(comparable(b.frame(c))).toEqual(forward.get(c));
    }
    a.destroy();
    b.destroy();
  });

  it("a frame taken while the run records is the finished run's, and the recording goes on the same", async () => {
    for (const file of ['scenarios/fault-around/partly-cached.yaml', 'scenarios/prefault/threads.yaml']) {
      const prog = programOf(file);
      const core = await loadCore();
      const whole = new Engine(core, prog, { interval: 64 }, FRAME_PROVIDERS);
      const tl = whole.recordAll();
      /* the other records in small slices; between them, frames at cursors it has passed (and one inside an
         operation, so that the core is frozen on a capture when the recording must go on) */
      const live = new Engine(core, prog, { interval: 64 }, FRAME_PROVIDERS);
      const seen = new Map<number, { f: unknown; n: number }>();
      let last = 0;
      while (!live.recordSome(0.05)) {
        /* about a dozen times in the run, however fast the slices go */
        const n = live.recorded.nEvents;
        if (n < 2 || n - last < tl.nEvents / 12) continue;
        last = n;
        for (const c of [n >> 1, n - 1, Math.max(0, n - 40)]) {
          if (seen.has(c)) continue;
          /* the machine's memory as it was: a capture taken for a frame inside an operation is freed */
          const held = live.heldBytes;
          seen.set(c, { f: comparable(live.whileRecording(() => live.frame(c))), n });
          expect(live.heldBytes, `${file}: memory after a frame at ${c}`).toBe(held);
        }
      }
      expect(seen.size, file).toBeGreaterThan(5);
      /* the recording is the one made without interruption: every event, and the same frames at the end */
      expect(live.timeline().nEvents, file).toBe(tl.nEvents);
      expect(live.recorded.stepEvents, file).toEqual(tl.stepEvents);
      /* the same frame, but for the run's length so far, and its log where the recording has not yet gone
         past the log's reach (the worker waits for that before it sends one) */
      for (const [c, { f, n }] of seen) {
        const { nEvents, log, ...rest } = comparable(whole.frame(c));
        const { nEvents: nNow, log: logNow, ...restNow } = f as typeof rest;
        expect(nEvents, file).toBe(tl.nEvents);
        expect(nNow, file).toBe(n);
        expect(restNow, `${file} at ${c}`).toEqual(rest);
        if (c + 60 <= n) expect(logNow, `${file}: the log at ${c}`).toEqual(log);
      }
      expect(comparable(live.frame(tl.nEvents)), file).toEqual(comparable(whole.frame(tl.nEvents)));
      whole.destroy();
      live.destroy();
    }
  });

  it("keeps snapshots in the core's memory, thinned and reused, the same bytes as those copied out", async () => {
    const core = await loadCore();
    const prog = programOf('scenarios/fault-around/random.yaml');
    /* a small budget: seven halvings, whose buffers the later snapshots reuse */
    const opts = { interval: 64, snapshotBudget: 2 ** 18 };
    const a = new Engine(core, prog, { ...opts, inCoreFrom: Infinity });
    const b = new Engine(core, prog, { ...opts, inCoreFrom: 0 });
    type Held = { snaps: { event: number; len: number; data: Uint8Array | CoreSnapshot }[]; spare: unknown[] };
    const halvings = { n: 0 };
    const hb = b as unknown as { halveSnapshots: () => void };
    const halve = hb.halveSnapshots.bind(b);
    hb.halveSnapshots = () => {
      halvings.n++;
      halve();
    };
    const tl = a.recordAll();
    b.recordAll();
    expect(halvings.n).toBeGreaterThan(2);
    const sa = (a as unknown as Held).snaps,
      sb = (b as unknown as Held).snaps;
    expect(sa.every((s) => s.data instanceof Uint8Array)).toBe(true);
    expect(sb.some((s) => s.data instanceof Uint8Array)).toBe(false);
    expect(sb.map((s) => s.event)).toEqual(sa.map((s) => s.event));
    for (let i = 0; i < sb.length; i++) {
      const inCore = sb[i].data as CoreSnapshot;
      expect(Buffer.compare(core.bytes(inCore.ptr, sb[i].len), sa[i].data as Uint8Array), `snapshot ${i}`).toBe(0);
    }
    /* the spares are freed when the recording ends */
    expect((b as unknown as Held).spare).toEqual([]);
    for (const c of [tl.nEvents, 1, tl.nEvents >> 1, 7, tl.nEvents - 3])
      expect(comparable(b.frame(c)), `cursor ${c}`).toEqual(comparable(a.frame(c)));
    a.destroy();
    b.destroy();
  });

  it("shows the state before the operation, flagged, when the host refuses a capture's memory", async () => {
    const prog = programOf('scenarios/fault-around/sequential.yaml');
    const probe = new Engine(await loadCore(), prog);
    probe.recordAll();
    const peak = (probe as unknown as { sim: { memPeak: number } }).sim.memPeak;
    probe.destroy();
    /* room to record, not for the capture (a whole copy of the state, about 175 KB here, and a quarter more to grow into) */
    const eng = new Engine(await loadCore(), prog, { maxBytes: peak + 150_000 });
    const tl = eng.recordAll();
    expect(tl.status).toBe('ok');
    const pf = tl.faultEvents[2];
    const [start, end] = eng.opOf(pf);
    const mid = eng.frame(pf + 3);
    expect(mid.inexact).toBe(true);
    const before = eng.frame(start);
    expect(before.inexact).toBeUndefined();
    expect(mid.counters).toEqual(before.counters);
    expect(mid.mms).toEqual(before.mms);
    /* the narrative is still the cursor's */
    expect(mid.cursor).toBe(pf + 3);
    expect(mid.fault?.addr).toBe(0x7f0000000000 + 32 * 4096);
    /* and the machine goes on: the end of the operation, and the run's end, are exact */
    expect(eng.frame(end).inexact).toBeUndefined();
    expect(eng.frame(end).counters[COUNTERS.indexOf('pgfault')]).toBe(3);
    expect(eng.frame(tl.nEvents).counters[COUNTERS.indexOf('pgfault')]).toBe(256);
    eng.destroy();
  });

  it('shows a fault-around window being mapped, event by event', async () => {
    const eng = new Engine(await loadCore(), programOf('scenarios/fault-around/sequential.yaml'), {}, FRAME_PROVIDERS);
    const tl = eng.recordAll();
    /* the third fault: pages 32..47 (the window is fault-around's mark, from its frame provider) */
    const pf = tl.faultEvents[2];
    const f0 = eng.frame(pf + 1);
    expect(f0.fault?.addr).toBe(0x7f0000000000 + 32 * 4096);
    const windowOf = (f: Frame) => f.fault?.marks.find((m) => m.kind === 'range') ?? null;
    expect(windowOf(f0)).toBeNull();
    let c = pf + 1;
    while (eng.event(c - 1).type !== EV.mm_filemap_map_pages) c++;
    const fw = eng.frame(c);
    expect(windowOf(fw)).toMatchObject({ start: 0x7f0000000000 + 32 * 4096, end: 0x7f0000000000 + 48 * 4096 });
    expect(fw.fault?.notes).toEqual([{ text: 'window pages 32–47' }]);
    const pages = (f: Frame) => f.mms[0].vmas[0].pages!;
    expect(pages(fw)[32] & 1).toBe(0);
    const f5 = eng.frame(c + 5);
    expect([...pages(f5).slice(32, 48)].map((p) => p & 1)).toEqual([1, 1, 1, 1, 1, ...Array(11).fill(0)]);
    expect(pages(f5)[32] >> 4).toBe(CAUSE.fault);
    expect(pages(f5)[33] >> 4).toBe(CAUSE.around);
    const done = eng.frame(eng.opOf(c)[1]);
    expect(done.fault?.done).toBe(true);
    expect([...pages(done).slice(32, 48)].every((p) => p & 1)).toBe(true);
    expect(done.walk?.pte[32]).toBe(1 | 4 | 8);
    expect(done.walk?.pte[47]).toBe(1 | 4);
    expect(done.walk?.pte[48]).toBe(0);
    /* the counters are the core's at the cursor: the fault counts at its end (mm_account_fault) */
    const pgfault = COUNTERS.indexOf('pgfault');
    expect(fw.counters[pgfault]).toBe(2);
    expect(f5.counters[COUNTERS.indexOf('nr_mapped')]).toBe(32 + 5);
    expect(done.counters[pgfault]).toBe(3);
    expect(done.event?.text).toBe(
      'app.0: read fault at 0x7f0000020000 done, minor: fault-around mapped the page and 15 neighbours',
    );
    /* ... and the touch that faulted counts from its start: pages 0..31, then 32 */
    expect(fw.counters[COUNTERS.indexOf('touches')]).toBe(33);
    expect(eng.event(pf - 1).type).toBe(EV.mmsim_access);
    expect(eng.opOf(pf)[0]).toBe(pf);

    /* the next operation is a touch that does not fault: the walk keeps the third fault, marked stale,
       walked in the tables as they are then (its 16 PTEs still marked as set by it) */
    const next = eng.opOf(c)[1];
    expect(eng.event(next).type).not.toBe(EV.page_fault_user);
    const between = eng.frame(next + 1);
    expect(between.fault).toBeNull();
    expect(between.walk?.stale).toBe(true);
    expect(between.walk?.faultEvent).toBe(pf);
    expect(between.walk?.addr).toBe(0x7f0000000000 + 32 * 4096);
    expect(between.walk?.pte[32]).toBe(1 | 4 | 8);
    expect(between.walk?.pte[48]).toBe(0);
    expect(done.walk?.stale).toBe(false);
    expect(done.walk?.faultEvent).toBe(pf);
    /* before the first fault there is nothing to show */
    expect(eng.frame(tl.faultEvents[0]).walk).toBeNull();
    eng.destroy();
  });

  it('explains skipped pages and finds major faults', async () => {
    const eng = new Engine(
      await loadCore(),
      programOf('scenarios/fault-around/partly-cached.yaml'),
      {},
      FRAME_PROVIDERS,
    );
    const tl = eng.recordAll();
    expect(tl.majorEvents.length).toBe(6);
    const at = eng.findEvent(0, 'major', 1)!;
    expect(at).toBe(tl.majorEvents[0] + 1);
    expect(eng.findEvent(at, 'major', -1)).toBeNull();
    expect(eng.findEvent(at, 'major', 1)).toBe(tl.majorEvents[1] + 1);
    /* find a readahead skip and check the log explains it */
    let skip = -1;
    for (let i = 0; i < tl.nEvents && skip < 0; i++) {
      const e = eng.event(i);
      if (e.type === EV.mm_filemap_map_skip && e.reason === SkipReason.Readahead) skip = i;
    }
    expect(skip).toBeGreaterThan(0);
    const f = eng.frame(skip + 1);
    expect(f.event?.text).toMatch(/^skipped page \d+: PG_readahead: left for ->fault$/);
    expect(f.event?.fn).toBe('next_uptodate_folio');
    expect(f.fault?.marks.some((m) => m.kind === 'cross' && m.title === 'PG_readahead: left for ->fault')).toBe(true);
    /* the fault's last line sums it up, reasons and all */
    const done = eng.frame(f.opEnd).event!;
    expect(done.text).toMatch(
      /^app\.0: read fault at 0x7f00000[0-9a-f]{5} done, (minor|major): fault-around mapped the page and \d+ neighbours?, \d+ skipped(: PG_readahead: left for ->fault| \(.*\d+ PG_readahead: left for ->fault.*\))$/,
    );
    /* a fault that completes on its retry is a major fault (mm_account_fault) */
    let retry = -1;
    for (let i = 0; i < tl.nEvents && retry < 0; i++) {
      const e = eng.event(i);
      if (e.type === EV.mm_fault_done && e.kind === FaultKind.Retry) retry = i;
    }
    const [, end] = eng.opOf(retry);
    expect(eng.event(end - 1).type).toBe(EV.mm_fault_done);
    expect(eng.frame(end).event?.text).toMatch(/ done, major: /);
    eng.destroy();
  });
});

describe('engine: the page cache behind a mapping', () => {
  it('shows pages being read, the PG_readahead mark and the readahead window at every event of a fault', async () => {
    const prog = programOf('scenarios/fault-around/off-centre-resume.yaml');
    const eng = new Engine(await loadCore(), prog, {}, FRAME_PROVIDERS);
    const tl = eng.recordAll();
    const events = Array.from({ length: tl.nEvents }, (_, i) => eng.event(i));
    /* the async readahead at 25 sets PG_readahead on 33, inside the fault's operation */
    const mark = events.findIndex((e) => e.type === EV.mmsim_readahead_mark && e.pgoff === 33 && e.set);
    expect(mark).toBeGreaterThan(0);
    const before = eng.frame(mark),
      after = eng.frame(mark + 1);
    const cacheOf = (f: Frame) => f.mms[0].vmas[0].cache!;
    expect(cacheOf(before)[33] & PC_READAHEAD).toBe(0);
    expect(cacheOf(after)[33] & PC_READAHEAD).toBe(PC_READAHEAD);
    expect(after.files[0].ra).toEqual({ start: 33, size: 31, async: 31 });
    /* the mark on 25 was cleared earlier in the same operation */
    expect(cacheOf(after)[25] & PC_READAHEAD).toBe(0);
    /* at the end: every page cached and uptodate, marks only where a fault has not reached them */
    const end = eng.frame(tl.nEvents);
    const cache = cacheOf(end);
    for (let p = 1; p < 1024; p++) expect(cache[p] & PC_STATE_MASK).toBe(PC.uptodate);
    expect([...cache].filter((c) => c & PC_READAHEAD)).toHaveLength(0);
    /* the last mark (992) pushed the window past EOF: nothing read, the state moved on */
    expect(end.files[0].ra?.start).toBe(1024);
    eng.destroy();
  });
});

describe('engine: pages unmapped, from the core', () => {
  it('madvise(DONTNEED) clears pages one mmsim_pte_clear at a time, and the frame follows the core', async () => {
    const prog = programFrom(`name: zap
machine: { memory: 64MiB }
files:
  data: { size: 256KiB, cached: all }
processes:
  app: { threads: 1 }
steps:
  - mmap:    { task: app, name: m, file: data, prot: read, shared: true }
  - access:  { task: app, map: m, op: read, pattern: sequential }
  - madvise: { task: app, map: m, advice: dontneed, offset: 64KiB, length: 64KiB }
`);
    const eng = new Engine(await loadCore(), prog);
    const tl = eng.recordAll();
    const events = Array.from({ length: tl.nEvents }, (_, i) => eng.event(i));
    const clears = events.map((e, i) => [e, i] as const).filter(([e]) => e.type === EV.mmsim_pte_clear);
    expect(clears).toHaveLength(16);
    const present = (f: Frame) => Array.from(f.mms[0].vmas[0].pages!).map((p) => (p & 3 ? 1 : 0));
    const before = present(eng.frame(clears[0][1]));
    expect(before.slice(16, 32)).toEqual(Array(16).fill(1));
    /* after the fifth clear, mid-operation: pages 16..20 gone, the rest still mapped */
    const mid = present(eng.frame(clears[4][1] + 1));
    expect(mid.slice(16, 21)).toEqual([0, 0, 0, 0, 0]);
    expect(mid.slice(21, 32)).toEqual(Array(11).fill(1));
    const end = present(eng.frame(tl.nEvents));
    expect(end.slice(16, 32)).toEqual(Array(16).fill(0));
    expect(end.slice(0, 16)).toEqual(Array(16).fill(1));
    expect(end.slice(32)).toEqual(Array(32).fill(1));
    eng.destroy();
  });
});

describe('engine: a process not forked yet is not an exited one', () => {
  it('the child of thp.yaml: neither alive nor exited before the fork, alive after it, exited at the end', async () => {
    const { eng, tl, events } = await recorded('scenarios/large-folios/thp.yaml');
    const prog = eng.program;
    const fork = events.findIndex((e) => e.type === EV.mmsim_fork);
    const exit = events.findIndex((e) => e.type === EV.mmsim_exit);
    expect(fork).toBeGreaterThan(0);
    expect(exit).toBeGreaterThan(fork);
    const child = prog.procs.findIndex((p) => p.name === 'child');
    const state = (c: number) => {
      const m = eng.frame(c).mms[child];
      return [m.alive, m.exited];
    };
    expect(state(0)).toEqual([false, false]);
    expect(state(fork + 1)).toEqual([true, false]);
    expect(state(exit + 1)).toEqual([false, true]);
    expect(state(tl.nEvents)).toEqual([false, true]);
    /* and the parent, there from the start, never exits */
    expect(eng.frame(tl.nEvents).mms[prog.procs.findIndex((p) => p.name === 'parent')].alive).toBe(true);
    eng.destroy();
  });

  it("walkthrough.yaml: the PTEs fork copied are coloured as fork's (no mm_set_pte maps them), the parent's stay anonymous", async () => {
    const { eng, events } = await recorded('scenarios/large-folios/walkthrough.yaml');
    const prog = eng.program;
    const fork = events.findIndex((e) => e.type === EV.mmsim_fork);
    const f = eng.frame(fork + 1);
    const causes = (proc: string) =>
      f.mms[prog.procs.findIndex((p) => p.name === proc)].vmas.map((v) =>
        Array.from(v.pages!)
          .filter((st) => st & 1)
          .map((st) => st >> 4),
      );
    /* a and b: one page written in each, each an order-2 folio of 4 pages */
    expect(causes('parent')).toEqual([
      [CAUSE.anon, CAUSE.anon, CAUSE.anon, CAUSE.anon],
      [CAUSE.anon, CAUSE.anon, CAUSE.anon, CAUSE.anon],
    ]);
    expect(causes('child')).toEqual([
      [CAUSE.fork, CAUSE.fork, CAUSE.fork, CAUSE.fork],
      [CAUSE.fork, CAUSE.fork, CAUSE.fork, CAUSE.fork],
    ]);
    eng.destroy();
  });
});

describe('engine: every view is the core at the cursor, also inside a fault', () => {
  const count = (f: Frame, name: (typeof COUNTERS)[number]) => f.counters[COUNTERS.indexOf(name)];

  /** every cursor of the operations of these faults, in order: [opStart, opEnd] each */
  function cursorsOf(eng: Engine, faults: number[]): number[] {
    const out = new Set<number>();
    for (const pf of faults) {
      const [s, e] = eng.opOf(pf);
      for (let c = s; c <= e; c++) out.add(c);
    }
    return [...out].sort((a, b) => a - b);
  }

  /**
   * At each cursor c, what the log 0 .. c-1 says against what the frame
   * shows: the counters the events account for, the walk through every
   * table the operation allocated so far, nr_mapped against the present
   * file PTEs of the page grid, every mapped file page cached and uptodate,
   * the readahead window of the last readahead event; and the same frame
   * when another engine jumps to c from far away (time travel is
   * deterministic).
   */
  function checkAgreement(eng: Engine, jumper: Engine, cursors: number[]) {
    const nFiles = eng.program.files.length;
    const t = { pgfault: 0, pgmajfault: 0, tables: 0, filePages: 0 };
    const ra: ({ start: number; size: number; async: number } | null)[] = Array(nFiles).fill(null);
    let i = 0,
      opStart = 0,
      opAlloc: number[] = [],
      opSet: number[] = [],
      midOp = 0;
    const tl = eng.timeline();
    for (const c of cursors) {
      for (; i < c; i++) {
        const e = eng.event(i);
        if (e.opStart) {
          opStart = i;
          opAlloc = [];
          opSet = [];
        }
        if (e.type === EV.mm_fault_done && e.kind !== FaultKind.Retry) t.pgfault++;
        else if (e.type === EV.mm_filemap_fault && !e.cached) t.pgmajfault++;
        else if (e.type === EV.mm_pgtable_alloc) {
          t.tables++;
          opAlloc.push(e.level);
        } else if (e.type === EV.mm_pgtable_free) t.tables--;
        else if (e.type === EV.mm_filemap_add_to_page_cache) t.filePages += 1 << e.order;
        else if (e.type === EV.mm_filemap_delete_from_page_cache) t.filePages -= 1 << e.order;
        else if (e.type === EV.mmsim_file_preload) t.filePages += e.nr;
        else if (e.type === EV.mm_set_pte) opSet.push(e.address);
        /* async_size 0: a small random read, which leaves the readahead state alone */ else if (
          (e.type === EV.page_cache_sync_ra || e.type === EV.page_cache_async_ra) &&
          e.async_size
        )
          ra[e.file] = { start: e.start, size: e.size, async: e.async_size };
      }
      const f = eng.frame(c);
      const at = `cursor ${c} (after ${c > 0 ? eng.event(c - 1).name : 'nothing'})`;
      if (c > f.opStart && c < f.opEnd) midOp++;
      expect(count(f, 'pgfault'), at).toBe(t.pgfault);
      expect(count(f, 'pgmajfault'), at).toBe(t.pgmajfault);
      expect(count(f, 'nr_page_table_pages'), at).toBe(t.tables);
      expect(count(f, 'nr_file_pages'), at).toBe(t.filePages);
      /* nr_mapped counts file pages mapped (by one process here: one PTE each) */
      let fileMapped = 0;
      for (const mm of f.mms) for (const v of mm.vmas) for (const p of v.pages!) if (p & 3 && !(p & 12)) fileMapped++;
      expect(count(f, 'nr_mapped'), at).toBe(fileMapped);
      /* the walk goes through every table this operation allocated so far, and to every PTE it set */
      if (f.fault && c > opStart) {
        const w = f.walk!;
        for (const level of opAlloc) {
          expect(w.present[level - 1], `${at}: level ${level} allocated`).toBe(true);
          expect(w.allocated[level - 1], at).toBe(true);
        }
        if (opSet.includes(f.fault.addr - (f.fault.addr % 4096))) expect(w.present[3], at).toBe(true);
        for (let k = 0; k < 512; k++)
          if (w.pte[k] & 4) expect(w.pte[k] & 3, `${at}: PTE ${k} set by this operation`).not.toBe(0);
        expect(w.pte.filter((p) => p & 4).length, at).toBe(
          opSet.filter((a) => a >= w.pteBase && a < w.pteBase + 2 ** 21).length,
        );
      }
      /* the page cache and readahead state, from the core too */
      const fa = f;
      expect(
        fa.files.map((x) => x.ra),
        at,
      ).toEqual(ra);
      expect(
        fa.files.reduce((a, x) => a + x.nrpages, 0),
        at,
      ).toBe(t.filePages);
      for (const mm of f.mms)
        for (const v of mm.vmas) {
          if (v.file === null) continue;
          const cache = v.cache!;
          v.pages!.forEach((p, k) => {
            if (p & 3) expect(cache[k] & PC_STATE_MASK, `${at}: page ${k} mapped`).toBe(PC.uptodate);
          });
        }
      /* time travel: the same frame when jumping here from far away */
      jumper.frame((c + (tl.nEvents >> 1)) % tl.nEvents);
      expect(comparable(jumper.frame(c)), at).toEqual(comparable(f));
    }
    return midOp;
  }

  it('sequential.yaml: the first faults, event by event', async () => {
    const core = await loadCore(),
      prog = programOf('scenarios/fault-around/sequential.yaml');
    const eng = new Engine(core, prog, {}, FRAME_PROVIDERS),
      jumper = new Engine(core, prog, {}, FRAME_PROVIDERS);
    const tl = eng.recordAll();
    jumper.recordAll();
    /* the first fault allocates the PUD, PMD and PTE tables; the next ones map a window each */
    const cursors = cursorsOf(eng, tl.faultEvents.slice(0, 4));
    expect(checkAgreement(eng, jumper, cursors)).toBeGreaterThan(60);
    eng.destroy();
    jumper.destroy();
  });

  it('cold-sequential.yaml and readahead-in-flight.yaml: major faults, reads, retries and waits', async () => {
    const core = await loadCore();
    for (const file of [
      'scenarios/fault-around/cold-sequential.yaml',
      'scenarios/fault-around/readahead-in-flight.yaml',
    ]) {
      const prog = programOf(file);
      const eng = new Engine(core, prog, {}, FRAME_PROVIDERS),
        jumper = new Engine(core, prog, {}, FRAME_PROVIDERS);
      const tl = eng.recordAll();
      jumper.recordAll();
      const events = Array.from({ length: tl.nEvents }, (_, k) => eng.event(k));
      /* the first faults (a major one among them), and the first that waits for a read in flight */
      const faults = tl.faultEvents.slice(0, 3);
      const wait = events.findIndex((e) => e.type === EV.mmsim_folio_wait);
      if (wait >= 0) faults.push(eng.opOf(wait)[0]);
      expect(tl.majorEvents[0]).toBeLessThan(eng.opOf(faults[2])[1]);
      expect(checkAgreement(eng, jumper, cursorsOf(eng, faults)), file).toBeGreaterThan(100);
      eng.destroy();
      jumper.destroy();
    }
  });
});
