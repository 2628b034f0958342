/* The 2004 anticipatory prefault of anonymous memory (Christoph Lameter, V1). */
export default {
  id: 'prefault',
  title: 'Anticipatory prefault',
  seed: '004_09eed2baa7b6139a.txt',
  tunables: [
    { key: 'anon_prefault', type: 'choice', choices: ['off', 'anticipatory'], default: 'off',
      cEnum: 'mmsim_prefault_mode', cPrefix: 'MMSIM_PREFAULT_', kernel: '2.6.10-rc (2004 patch)', status: 'later',
      desc: 'The 2004 anticipatory prefault for anonymous faults.' },
    { key: 'anon_prefault_cap', type: 'int', min: 1, max: 512, default: 14, unit: 'pages',
      kernel: '2.6.10-rc (2004 patch)', status: 'later',
      desc: 'PAGEVEC_SIZE cap of one prefault batch (pages).' },
  ],
  counters: [],
  events: [],
};
