/*
 * The import rules, checked by `npm test` (its lint stage): no cycles, and data flows one way,
 *
 *   description -> loader -> core -> events -> frames -> store -> views
 *
 * description  wasm-core/interface/, and what is generated from it (wasm-core/ts/gen/, abi.ts, layout.ts)
 * loader       the scenario's text to a program: load/, schema/ (its validators: gen/validate-*), scenario.ts, compile.ts, limits.ts,
 *              tunables.ts, overrides.ts, plan.ts, multirun.ts, errors.ts, units.ts, letter.ts
 * core         the wasm core and a run of it: core.ts, runner.ts, recorder.ts, align.ts, search.ts
 * events       what the events mean, in words: events.ts, describe/
 * frames       the view models, built in the worker: web/src/frames/, web/src/engine/,
 *              the mechanisms' frame.ts and (no React) index.ts
 * store        web/src/store/ (and the URL), which may know view ids (views/ids.ts, meta.ts) but no view
 * views        React: web/src/views/, components/, the mechanisms' views.tsx, App, main
 *
 * A module may import its own layer and the layers before it, never a later one.
 */
const DESCRIPTION = '^wasm-core/(interface/|ts/gen/(?!describers|validate-)|ts/abi\\.ts$|ts/layout\\.ts$)';
const LOADER =
  '^wasm-core/ts/(load/|schema/|gen/validate-|(scenario|compile|limits|tunables|overrides|plan|multirun|errors|units|letter)\\.ts$)';
const CORE = '^wasm-core/ts/(core|runner|recorder|align|search|judge|letter-run)\\.ts$';
const EVENTS = '^wasm-core/ts/(events\\.ts$|describe/|gen/describers\\.ts$)';
const FRAMES = '^web/src/(frames/|engine/|gen/(frames|mechanisms)\\.ts$|mechanisms/(types|registry|testing)\\.ts$|mechanisms/[^/]+/(frame|index)\\.ts$)';
const STORE = '^web/src/store/';
const VIEW_IDS = '^web/src/views/(ids|types)\\.ts$';
const VIEWS =
  '^web/src/(views/(?!ids\\.ts$|types\\.ts$|meta\\.ts$)|components/|lib/(?!format\\.ts$)|gen/views\\.ts$|mechanisms/[^/]+/views\\.tsx$|App\\.tsx$|main\\.tsx$)';

const later = (name, from, to, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: '\\.test\\.tsx?$' },
  to: { path: to },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'imports run one way: no module reaches itself', severity: 'error', from: {}, to: { circular: true } },
    later('description-imports-later', DESCRIPTION, `${LOADER.replace('errors|', '')}|${CORE}|${EVENTS}|^web/`, 'the description needs nothing but itself (and the error type)'),
    later('loader-imports-later', LOADER, `${CORE}|${EVENTS}|^web/`, 'the loader turns text into a program; it knows no run'),
    later('core-imports-later', CORE, `${EVENTS}|^web/`, 'the core runs programs; what events mean is a later layer'),
    later('events-imports-later', EVENTS, '^web/', 'the event sentences know no playground'),
    later('frames-import-later', FRAMES, `${STORE}|${VIEW_IDS}|${VIEWS}|^react$`, 'the worker builds frames: no store, no React (views/meta.ts names views)'),
    later('store-imports-views', STORE, `${VIEWS}|^react`, 'the store knows view ids (views/ids.ts), never views'),
    later('view-ids-import-views', VIEW_IDS, `${VIEWS}|^react$`, 'view ids and types carry no React'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(node_modules|web/dist|wasm-core/build)' },
  },
};
