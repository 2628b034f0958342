/**
 * An edited scenario's text in a link: deflated and base64url-encoded, and
 * inflated in chunks with a size limit. Apart from url.ts so that the
 * browser tests can make links without importing the views.
 */
import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { DEFAULT_LIMITS } from '../../../wasm-core/ts/limits.js';
import { formatSize } from '../../../wasm-core/ts/units.js';

export class UrlError extends Error {}

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

/* the last text compressed: the URL is rewritten on every cursor move, the text rarely changes */
let memo: { text: string; packed: string } | null = null;

export function compressSource(text: string): string {
  if (memo?.text !== text) memo = { text, packed: b64url(deflateSync(strToU8(text), { level: 9 })) };
  return memo.packed;
}

/**
 * Inflate a link's text, refusing (UrlError, before allocating it) one that
 * inflates to more than maxBytes: a 1.9 MB link can hold 1.45 GB of YAML.
 */
export function decompressSource(s: string, maxBytes = DEFAULT_LIMITS.source_bytes): string {
  const chunks: Uint8Array[] = [];
  let total = 0,
    over = false;
  const inf = new Inflate((chunk) => {
    total += chunk.length;
    if (total > maxBytes) over = true;
    else chunks.push(chunk);
  });
  const bytes = unb64url(s);
  for (let i = 0; i < bytes.length && !over; i += 16384)
    inf.push(bytes.subarray(i, i + 16384), i + 16384 >= bytes.length);
  if (over)
    throw new UrlError(
      `The link holds an edited scenario of more than ${formatSize(maxBytes)} (the limit source_bytes): it was not opened. Open the file with the CLI and --limit source_bytes=..., or trim it.`,
    );
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  const text = strFromU8(out);
  memo = { text, packed: s }; /* the URL keeps this text: do not compress it again */
  return text;
}
