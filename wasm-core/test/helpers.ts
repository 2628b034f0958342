import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Core } from '../ts/core.js';
import { compile, type Program } from '../ts/compile.js';
import { applyOverrides } from '../ts/overrides.js';
import { parseScenario } from '../ts/load/index.js';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const wasmPath = (variant: 'release' | 'debug') =>
  `${repo}wasm-core/build/wasm/${variant === 'release' ? 'mmsim' : 'mmsim-debug'}.wasm`;

const cores = new Map<string, Promise<Core>>();
export function loadCore(variant: 'release' | 'debug' = 'release'): Promise<Core> {
  if (!cores.has(variant)) cores.set(variant, Core.fromBytes(readFileSync(wasmPath(variant))));
  return cores.get(variant)!;
}

export function programOf(file: string, sets: Record<string, string> = {}): Program {
  const path = file.startsWith('/') ? file : `${repo}${file}`;
  return compile(applyOverrides(parseScenario(readFileSync(path, 'utf8'), file), sets));
}

export function programFrom(source: string, file = 'test.yaml'): Program {
  return compile(parseScenario(source, file));
}

/** FNV-1a 64 over raw event records, as tools/mmsim-run.c computes it */
export class Digest {
  n = 0;
  private lo = 0x84222325;
  private hi = 0xcbf29ce4;
  add(bytes: Uint8Array): void {
    // 64-bit FNV-1a in two 32-bit halves (BigInt per byte is too slow)
    let lo = this.lo,
      hi = this.hi;
    for (let i = 0; i < bytes.length; i++) {
      lo = (lo ^ bytes[i]) >>> 0;
      // multiply (hi:lo) by 0x100000001b3 = 2^40 + 0x1b3
      const l = lo * 0x1b3;
      const carry = Math.floor(l / 0x100000000);
      const nlo = l >>> 0;
      const nhi = (hi * 0x1b3 + carry + (lo << 8)) >>> 0;
      lo = nlo;
      hi = nhi;
    }
    this.lo = lo;
    this.hi = hi;
    this.n += bytes.length / 32;
  }
  hex(): string {
    return (this.hi >>> 0).toString(16).padStart(8, '0') + (this.lo >>> 0).toString(16).padStart(8, '0');
  }
}

/** every scenario under scenarios/, sorted */
export function shippedScenarios(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(`${repo}${d}`, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(`${d}/${e.name}`);
      else if (/\.(ya?ml|json)$/.test(e.name) && !e.name.endsWith('.tour.yaml')) out.push(`${d}/${e.name}`);
    }
  };
  walk('scenarios');
  return out;
}
