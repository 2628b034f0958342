/**
 * The engine worker, started by index.html itself (the production build): a
 * small inline script in <head> starts it, and asks for the scenario texts
 * (and a tour's reader), when the link runs something, before the page's own
 * script has been parsed and evaluated, which takes a fresh page about 150 ms
 * on this machine kind. The page's engine client adopts that worker and the
 * messages it sent meanwhile (src/engine/client.ts, adoptEarlyWorker). The dev
 * server and the offline single-file build (whose worker is inline) start the
 * worker from the page's script, as before.
 */
import type { Plugin } from 'vite';
import type { OutputBundle } from 'rolldown';

/**
 * The inline script's body, run by the page as it stands (no bundling): a
 * link that names a scenario, a tour or an edited text (the conditions under
 * which controller.ts's route() warms the worker) starts the worker now.
 */
function early(worker: string, texts: string, tourLoad: string) {
  try {
    const q = new URLSearchParams(location.search);
    const h = new URLSearchParams(location.hash.slice(1));
    if (q.get('notes') === '1' || !(q.get('scenario') || q.get('tour') || q.has('src') || h.has('src'))) return;
    const w = new Worker(new URL(worker, document.baseURI), { type: 'module', name: 'mmplay-engine' });
    const kept: MessageEvent[] = [];
    const errors: string[] = [];
    w.onmessage = (e) => kept.push(e);
    w.onerror = (e) => errors.push(e.message);
    (window as unknown as { __mmplayEngine: unknown }).__mmplayEngine = {
      worker: w,
      kept,
      errors,
      at: performance.now(),
    };
    for (const f of q.get('tour') ? [texts, tourLoad] : [texts]) {
      const l = document.createElement('link');
      l.rel = 'modulepreload';
      l.href = f;
      document.head.appendChild(l);
    }
  } catch {
    /* the page's script starts the worker */
  }
}

/** the one bundle file whose name matches, named in the page's own script (the client starts the same) */
function fileOf(bundle: OutputBundle, re: RegExp, what: string, page: string): string {
  const found = Object.keys(bundle).filter((f) => re.test(f));
  if (found.length !== 1) throw new Error(`boot plugin: expected one ${what} in the build, found ${found.length}`);
  const f = found[0]!;
  if (!page.includes(f.slice(f.lastIndexOf('/') + 1)))
    throw new Error(`boot plugin: the page's script does not refer to ${f} (the ${what})`);
  return f;
}

export function bootPlugin(): Plugin {
  let offline = false;
  return {
    name: 'mmplay-boot',
    apply: 'build',
    configResolved(c) {
      offline = c.define?.['import.meta.env.MMPLAY_OFFLINE_WORKER'] !== undefined;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (offline || !ctx.bundle) return html;
        const page = Object.values(ctx.bundle)
          .map((o) => (o.type === 'chunk' ? o.code : ''))
          .join('\n');
        const args = [
          fileOf(ctx.bundle, /^assets\/worker-[\w-]+\.js$/, 'engine worker', page),
          fileOf(ctx.bundle, /^assets\/texts-[\w-]+\.js$/, 'scenario texts chunk', page),
          fileOf(ctx.bundle, /^assets\/tour-load-[\w-]+\.js$/, "tours' reader chunk", page),
        ].map((f) => JSON.stringify(`./${f}`));
        /* before the page's module script and its stylesheet: a classic script waits for the stylesheets
           above it (a stylesheet held back 1.5 s held the worker's start back as long) */
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('boot plugin: index.html has no module script to start the worker before');
        return `${html.slice(0, at)}<script>(${early.toString()})(${args.join(', ')});</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
