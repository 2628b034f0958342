/**
 * Read and write the core's fixed-layout structs by field name, with the
 * offsets generated from the interface description (gen/interface.ts
 * STRUCTS). No offset is written by hand anywhere on the TypeScript side.
 */
import { STRUCTS, type FieldType, type StructName } from './gen/interface.js';

type Fields<N extends StructName> = (typeof STRUCTS)[N]['fields'];
type Scalar<T extends FieldType> = T extends 'u64' | 'i64' ? bigint : number;
export type StructValue<N extends StructName> = {
  -readonly [K in keyof Fields<N>]: Fields<N>[K] extends { n: 1; type: infer T extends FieldType }
    ? Scalar<T>
    : Fields<N>[K] extends { type: infer T extends FieldType }
      ? Scalar<T>[]
      : never;
};

function get(v: DataView, p: number, type: FieldType): number | bigint {
  switch (type) {
    case 'u8':
      return v.getUint8(p);
    case 'u16':
      return v.getUint16(p, true);
    case 'u32':
      return v.getUint32(p, true);
    case 'i32':
      return v.getInt32(p, true);
    case 'u64':
      return v.getBigUint64(p, true);
    case 'i64':
      return v.getBigInt64(p, true);
  }
}

function set(v: DataView, p: number, type: FieldType, x: number | bigint): void {
  switch (type) {
    case 'u8':
      v.setUint8(p, Number(x));
      break;
    case 'u16':
      v.setUint16(p, Number(x), true);
      break;
    case 'u32':
      v.setUint32(p, Number(x) >>> 0, true);
      break;
    case 'i32':
      v.setInt32(p, Number(x), true);
      break;
    case 'u64':
      v.setBigUint64(p, BigInt(x), true);
      break;
    case 'i64':
      v.setBigInt64(p, BigInt(x), true);
      break;
  }
}

const SZ: Record<FieldType, number> = { u8: 1, u16: 2, u32: 4, i32: 4, u64: 8, i64: 8 };

/** struct `name` at byte `p` of `v`, as an object keyed by the C field names */
export function readStruct<N extends StructName>(v: DataView, p: number, name: N): StructValue<N> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(STRUCTS[name].fields) as [
    string,
    { offset: number; type: FieldType; n: number },
  ][]) {
    if (f.n === 1) out[k] = get(v, p + f.offset, f.type);
    else out[k] = Array.from({ length: f.n }, (_, i) => get(v, p + f.offset + i * SZ[f.type], f.type));
  }
  return out as StructValue<N>;
}

/** write struct `name` at byte `p`; fields not given are zero (the buffer is assumed zeroed) */
export function writeStruct<N extends StructName>(
  v: DataView,
  p: number,
  name: N,
  values: Partial<Record<keyof Fields<N>, number | bigint>>,
): void {
  const fields = STRUCTS[name].fields as Record<string, { offset: number; type: FieldType; n: number }>;
  for (const [k, x] of Object.entries(values) as [string, number | bigint][]) {
    const f = fields[k];
    if (!f) throw new Error(`struct mmsim_${name} has no field '${k}'`);
    set(v, p + f.offset, f.type, x);
  }
}

export const sizeOf = (name: StructName): number => STRUCTS[name].size;
