import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checksOf, GROUPS } from '../../../../src/core/areas/index.js';
import { doctorInput } from '../../../../src/core/doctor/input.js';
import { validateReferences } from '../../../../src/core/doctor/runner.js';
import { doctorOptionsFrom } from '../../../helpers/doctor-options.js';

// Every area's needs/after, as the runner sees them: a misspelt id anywhere fails here, not in a run.
describe('needs and after of every area', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cloudgate-refs-'));
  const input = () =>
    doctorInput(doctorOptionsFrom({ 'issuer-url': 'https://oidc.example', endpoint: ['a.example'] }, cwd), {
      env: {},
      cwd,
      stderr: process.stderr,
    });

  it('name checks that exist, in a run of every group and in a run of each group alone', async () => {
    const all = await checksOf(await input(), []);
    expect(new Set(all.map((c) => c.group))).toEqual(new Set(GROUPS));
    expect(() => validateReferences(all)).not.toThrow();
    expect(all.some((c) => c.run && (c.needs ?? []).length + (c.after ?? []).length > 0)).toBe(true);
    for (const group of GROUPS)
      expect(() => validateReferences(all.filter((c) => c.group === group)), group).not.toThrow();
  });
});
