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

/** the inflated pieces of a text, in one array of `total` bytes */
function joined(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/* the last text compressed: the URL is rewritten on every cursor move, the text rarely changes */
let memo: { text: string; packed: string } | null = null;

export function compressSource(text: string): string {
  if (memo?.text !== text) memo = { text, packed: b64url(deflateSync(strToU8(text), { level: 9 })) };
  return memo.packed;
}

/**
 * The most a link's text may inflate to: 16 times the source_bytes limit.
 * A text over source_bytes but under this opens, and the loader asks
 * before reading it (Run anyway), as for every other limit; a bigger one
 * is refused here, before it is inflated: a 1.9 MB link can hold 1.45 GB
 * of YAML.
 */
export const LINK_MAX_BYTES = 16 * DEFAULT_LIMITS.source_bytes;

/**
 * Inflate a link's text, refusing (UrlError, before allocating it) one that
 * inflates to more than maxBytes.
 */
export function decompressSource(s: string, maxBytes = LINK_MAX_BYTES): string {
  /* read ahead by inflateAhead(), or the text this page last put in a link */
  if (memo?.packed === s && memo.text.length <= maxBytes) return memo.text;
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
      `The link holds an edited text of more than ${formatSize(maxBytes)}, the most a link may hold: it was not opened. The link may be damaged; a scenario this big belongs in a file.`,
    );
  const text = strFromU8(joined(chunks, total));
  memo = { text, packed: s }; /* the URL keeps this text: do not compress it again */
  return text;
}

/** a packed text over this many characters is inflated ahead, off the page's critical path */
const AHEAD_CHARS = 64 * 1024;

/**
 * Inflate a big link's text ahead of decompressSource(), with the browser's
 * own DecompressionStream in pieces (fflate inflating 7.5 MB on the page was
 * one task of 150 ms): afterwards decompressSource(s) returns it at once.
 * Returns false when it is not worth it (small, already read, no
 * DecompressionStream) or cannot be done (over the bound, damaged):
 * decompressSource then reads or refuses it as before.
 */
export const worthInflatingAhead = (s: string) =>
  s.length >= AHEAD_CHARS && memo?.packed !== s && typeof DecompressionStream !== 'undefined';

export async function inflateAhead(s: string, maxBytes = LINK_MAX_BYTES): Promise<boolean> {
  if (!worthInflatingAhead(s)) return false;
  try {
    const stream = new Blob([unb64url(s) as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        return false;
      }
      chunks.push(value);
    }
    memo = { text: new TextDecoder().decode(joined(chunks, total)), packed: s };
    return true;
  } catch {
    /* a damaged link: decompressSource says so */
    return false;
  }
}
