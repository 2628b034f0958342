/**
 * The core's module from a URL (the browser's worker), compiled as it downloads
 * (WebAssembly.compileStreaming) so that the browser keeps the optimised code in
 * its cache and the next page reuses it; from the bytes where the response
 * cannot stream (no application/wasm type: a file:// page, a data: URL).
 *
 * No imports: the worker's entry (web/src/engine/worker.ts) starts this before
 * the rest of its script has loaded, and stays small for it.
 */
export async function fetchCore(url: string | URL): Promise<WebAssembly.Module> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot fetch the core from ${url}: HTTP ${res.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' && /wasm/.test(res.headers.get('content-type') ?? ''))
    return WebAssembly.compileStreaming(res);
  return WebAssembly.compile(await res.arrayBuffer());
}
