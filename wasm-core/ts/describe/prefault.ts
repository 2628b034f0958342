/**
 * The 2004 anticipatory prefault's event in one sentence (the patch was
 * never merged: its function names are 2.6.10's, linked to v2.6.10).
 */
import { EV, PrefaultEnd } from '../abi.js';
import { hex, plural, type Describer } from './common.js';

const V = 'v2.6.10';

const END: Record<number, string> = {
  [PrefaultEnd.Order]: '2^order pages',
  [PrefaultEnd.Cap]: 'the cap (PAGEVEC_SIZE)',
  [PrefaultEnd.Vma]: 'the end of the VMA',
  [PrefaultEnd.Pmd]: 'the end of the page table',
  [PrefaultEnd.Alloc]: 'an allocation failure (the batch shrank; the stored prediction will miss)',
  [PrefaultEnd.Present]: 'a page already mapped',
};

export const describer: Describer = (e, { task }) => {
  if (e.type !== EV.mmsim_anon_prefault) return null;
  const { planned, end: why } = e;
  if (!e.hit) {
    return {
      text: `${task}: fault at ${hex(e.address)} was not predicted: one page, the order back to 0, the next guess ${hex(e.address + 4096)}`,
      fn: 'do_anonymous_page',
      label: 'prefault miss',
      version: V,
    };
  }
  return {
    text: `${task}: fault at ${hex(e.address)} was predicted (order ${e.order}): ${plural(e.mapped, 'page')} mapped at once${e.mapped < planned ? ` of ${planned} planned` : ''}, ended by ${END[why] ?? '?'}; the next guess ${hex(e.address + planned * 4096)}`,
    fn: 'do_anonymous_page',
    label: `prefault ${e.mapped}`,
    version: V,
  };
};
