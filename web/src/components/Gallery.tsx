/**
 * The gallery: every shipped scenario, grouped by mechanism, each with its
 * teaser; the seed reproductions as a table (test x order), as in the patch
 * series' cover letter.
 */
import { fmt } from '../lib/format.js';
import { expectedFaults, GALLERY, GROUPS, SUBGROUPS, type GalleryEntry } from '../scenarios.js';
import { dispatch } from '../store/store.js';

function open(e: GalleryEntry, ev: React.MouseEvent) {
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) return; /* let the browser open a new tab */
  ev.preventDefault();
  dispatch({ type: 'openScenario', name: e.name, file: e.file, source: e.source, edited: false });
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
        <div className="gallery-empty">No scenarios found. Add YAML files under <code>scenarios/&lt;mechanism&gt;/</code> and reload.</div>
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
                <a key={e.name} className={`card ${i === 0 ? 'first' : ''}`} href={href(e)} onClick={(ev) => open(e, ev)}
                  data-scenario={e.name}>
                  {i === 0 && <span className="start-here">Start here</span>}
                  <span className="card-title">{e.title}</span>
                  <span className="card-teaser">{e.teaser}</span>
                  <span className="card-route">{e.name}</span>
                </a>
              ))}
            </div>
            {subs.map((sub) => <SeedTable key={sub} title={SUBGROUPS[sub] ?? sub} entries={entries.filter((e) => e.sub === sub)} />)}
          </section>
        );
      })}
    </main>
  );
}

/** seed scenarios are named <test>-<order>: lay them out as the cover letter's tables */
function SeedTable({ title, entries }: { title: string; entries: GalleryEntry[] }) {
  const split = (e: GalleryEntry) => {
    const base = e.name.split('/').pop()!;
    const m = /^(.*)-(base|order-\d+)$/.exec(base);
    return m ? { test: m[1], order: m[2] } : { test: base, order: '' };
  };
  /* the cover letter's order */
  const rank = (t: string) => (t.startsWith('sequential') ? 0 : t.startsWith('random') ? 1 : 2);
  const tests = [...new Set(entries.map((e) => split(e).test))].sort((a, b) => rank(a) - rank(b));
  const orders = [...new Set(entries.map((e) => split(e).order))].sort((a, b) =>
    (a === 'base' ? -1 : Number(a.slice(6))) - (b === 'base' ? -1 : Number(b.slice(6))));
  const titleOf = (t: string) => entries.find((e) => split(e).test === t)?.title.replace(/^Seed: /, '').replace(/, (baseline|FAULT_AROUND_ORDER \d+)$/, '') ?? t;
  return (
    <>
      <h3>{title}</h3>
      <table className="seed-table">
        <thead>
          <tr>
            <th scope="col">Test, one thread: minor faults in the model</th>
            {orders.map((o) => <th key={o} scope="col">{o === 'base' ? 'baseline' : `order ${o.slice(6)}`}</th>)}
          </tr>
        </thead>
        <tbody>
          {tests.map((t) => (
            <tr key={t}>
              <th scope="row">{titleOf(t)}</th>
              {orders.map((o) => {
                const e = entries.find((x) => split(x).test === t && split(x).order === o);
                const faults = e ? expectedFaults(e.source) : null;
                return (
                  <td key={o} className="num">
                    {e && <a href={href(e)} onClick={(ev) => open(e, ev)} data-scenario={e.name} title={e.teaser}>{faults !== null ? fmt(faults) : 'open'}</a>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
