/**
 * `npm run kernel-check` needs root and a machine that allows loop devices; it is not run here (it changes
 * system settings). What is checked: it refuses, with the fix, where it cannot run, and changes nothing then.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repo } from './helpers.js';

const THP = '/sys/kernel/mm/transparent_hugepage/enabled';
const canDropRoot = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

describe('npm run kernel-check', () => {
  it.skipIf(!canDropRoot)('refuses without root, saying how to run it, and touches nothing', () => {
    const before = readFileSync(THP, 'utf8');
    const r = spawnSync(
      'setpriv',
      ['--reuid', '65534', '--regid', '65534', '--clear-groups', process.execPath, 'tools/kernel-check/check.mjs'],
      { cwd: repo, encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('needs root');
    expect(r.stderr).toContain('sudo npm run kernel-check');
    expect(readFileSync(THP, 'utf8')).toBe(before);
  });
  it('is the package script the docs name', () => {
    const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8'));
    expect(pkg.scripts['kernel-check']).toBe('node tools/kernel-check/check.mjs');
    expect(readFileSync(`${repo}docs/contributing.md`, 'utf8')).toContain('sudo npm run kernel-check');
  });
});
