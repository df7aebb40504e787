/**
 * The doctor's typed options from command-line flags as tests write them (kebab-case names, as on the
 * command line), through the same conversion `cloudgate doctor` uses: a test cannot hand core a shape
 * the command would not build.
 */
import { flagsOf, type ParsedValues } from '../../src/cli-flags.js';
import { COMMAND_OPTIONS } from '../../src/cli-options.js';
import { doctorOptionsOf } from '../../src/commands/options.js';
import type { DoctorInput, DoctorOptions } from '../../src/core/doctor/input.js';

export function doctorOptionsFrom(flags: ParsedValues = {}, cwd = process.cwd()): DoctorOptions {
  // A flag doctor does not have would be dropped without a word: a test that gives one is wrong.
  const unknown = Object.keys(flags).filter((name) => !COMMAND_OPTIONS.doctor!.flags.some((f) => f.name === name));
  if (unknown.length) throw new Error(`not flags of cloudgate doctor: ${unknown.join(', ')}`);
  return doctorOptionsOf(flagsOf('doctor', flags), cwd);
}

/**
 * The fields of a DoctorInput that come from flags (the settings given, names, vault), with no --config
 * findings: the tests that build an input by hand give their config as a mapping.
 */
export function flagFields(
  flags: ParsedValues = {},
  cwd = process.cwd(),
): Pick<DoctorInput, 'given' | 'names' | 'vault' | 'configFindings'> {
  const o = doctorOptionsFrom(flags, cwd);
  return { configFindings: [], given: o.given, vault: o.vault, ...(o.names !== undefined ? { names: o.names } : {}) };
}
