/**
 * The gallery: every shipped scenario, grouped by mechanism, each with its
 * teaser; the seed reproductions as a table (test x order), as in the patch
 * series' cover letter.
 */
import { fmt } from '../lib/format.js';
import { GALLERY, GROUPS, SUBGROUPS, sourceOf, type GalleryEntry } from '../scenarios.js';
import { dispatch } from '../store/store.js';
import { TOURS } from '../tours.js';

/* a card's scenario, once its text has come; withSweep: a seed row's sweep, over its reference data's x, charting its y */
function open(e: GalleryEntry, ev: React.MouseEvent, withSweep = false) {
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) return; /* let the browser open a new tab */
  if (withSweep && !e.reference) return;
  ev.preventDefault();
  const sweep = withSweep && e.reference ? { sweep: { key: e.reference.x, values: null, y: e.reference.y } } : {};
  void sourceOf(e.file).then((source) =>
    dispatch({ type: 'openScenario', name: e.name, file: e.file, source, edited: false, ...sweep }),
  );
}

const href = (e: GalleryEntry) => `?scenario=${encodeURIComponent(e.name).replace(/%2F/g, '/')}`;

export function Gallery() {
  const groups = [...new Set(GALLERY.map((e) => e.group))];
  return (
    <main className="gallery" aria-labelledby="gallery-title">
      <h1 id="gallery-title">Linux memory management, made visible</h1>
      <p className="lede">
        Each scenario runs on a model of the kernel&rsquo;s mm compiled to WebAssembly. Step through it event by event,
        watch page tables fill, change the kernel&rsquo;s tunables and see the effect at once.
      </p>
      {!groups.length && (
        <div className="gallery-empty">
          No scenarios found. Add YAML files under <code>scenarios/&lt;mechanism&gt;/</code> and reload.
        </div>
      )}
      {groups.map((g) => {
        const entries = GALLERY.filter((e) => e.group === g);
        const top = entries.filter((e) => !e.sub);
        const subs = [...new Set(entries.filter((e) => e.sub).map((e) => e.sub!))];
        return (
          <section key={g} aria-labelledby={`g-${g}`}>
            <h2 id={`g-${g}`}>{GROUPS[g]?.title ?? g}</h2>
            {GROUPS[g]?.blurb && <p className="blurb">{GROUPS[g].blurb}</p>}
            <div className="cards">
              {top.map((e, i) => (
                <a
                  key={e.name}
                  className={`card ${i === 0 ? 'first' : ''}`}
                  href={href(e)}
                  onClick={(ev) => open(e, ev)}
                  data-scenario={e.name}
                >
                  {i === 0 && <span className="start-here">Start here</span>}
                  <span className="card-title">{e.title}</span>
                  <span className="card-teaser">{e.teaser}</span>
                  <span className="card-route">{e.name}</span>
                </a>
              ))}
            </div>
            {TOURS.some((t) => t.group === g) && (
              <div className="tour-links">
                {TOURS.filter((t) => t.group === g).map((t) => {
                  const c = t.card;
                  return (
                    <a
                      key={t.name}
                      href={`?tour=${t.name}`}
                      data-tour={t.name}
                      className={`tour-link ${c.exercise ? 'exercise' : 'talk'}`}
                    >
                      <span className="tour-kind">
                        {c.exercise ? `Exercise${c.level ? ` · ${c.level.toLowerCase()}` : ''}` : 'Talk'}
                      </span>{' '}
                      {c.title.replace(/^Exercise:\s*/, '')}
                    </a>
                  );
                })}
              </div>
            )}
            {subs.map((sub) => (
              <SeedTable key={sub} title={SUBGROUPS[sub] ?? sub} entries={entries.filter((e) => e.sub === sub)} />
            ))}
          </section>
        );
      })}
    </main>
  );
}

/** the seed reproductions: one row per benchmark table, the seed's numbers, one click to the sweep beside them */
function SeedTable({ title, entries }: { title: string; entries: GalleryEntry[] }) {
  const rank = (e: GalleryEntry) => (e.name.includes('sequential') ? 0 : e.name.includes('random') ? 1 : 2);
  const rows = [...entries].sort((a, b) => rank(a) - rank(b));
  const xs = [...new Set(rows.flatMap((e) => e.reference?.points.map((p) => p[0]) ?? []))].sort((a, b) => a - b);
  const order = (x: number) => Math.log2(x / 4096);
  return (
    <>
      <h3>{title}</h3>
      <table className="seed-table">
        <caption className="sr-only">
          The seed&rsquo;s measured minor faults, one thread, per FAULT_AROUND_ORDER
        </caption>
        <thead>
          <tr>
            <th scope="col">Minor faults the seed measured, one thread</th>
            {xs.map((x) => (
              <th key={x} scope="col">
                {x === 4096 ? 'baseline' : `order ${order(x)}`}
              </th>
            ))}
            <th scope="col">The model beside them</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.name}>
              <th scope="row">
                <a href={href(e)} onClick={(ev) => open(e, ev)} data-scenario={e.name} title={e.teaser}>
                  {e.title.replace(/^Seed: /, '')}
                </a>
              </th>
              {xs.map((x) => {
                const p = e.reference?.points.find((q) => q[0] === x);
                return (
                  <td key={x} className="num">
                    {p ? fmt(p[1]) : ''}
                  </td>
                );
              })}
              <td>
                {e.reference && (
                  <a
                    href={`${href(e)}&sweep=${e.reference.x}&y=${e.reference.y}`}
                    onClick={(ev) => open(e, ev, true)}
                    data-sweep={e.name}
                  >
                    Sweep {e.reference.x}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
