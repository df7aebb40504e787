/**
 * `<group>.config`: what is wrong with the --config file for that group (unknown keys with a "did you
 * mean", secret files readable by others), as a warning in the group the section configures, so that
 * `--only signin` with a misspelt `brokr_url` no longer ends in "Nothing was checked" without a word.
 * Only present when there is something to say.
 */
import { escapeLine } from '../escape.js';
import { CONFIG_SECTIONS } from '../config/config-keys.js';
import type { CheckProvider } from './area.js';
import type { Check, CheckResult } from './types.js';

/** What --verbose and --json show: each key of the section that is wrong, and why. */
interface ConfigFacts {
  findings: { key: string; message: string; advice: string }[];
}

export const provideChecks: CheckProvider = (input) => {
  const findings = input.configFindings;
  return CONFIG_SECTIONS.flatMap((group): Check[] => {
    const mine = findings.filter((f) => f.section === group || f.section === undefined);
    if (mine.length === 0) return [];
    return [
      {
        id: `${group}.config`,
        group,
        title: `The ${group}: section of the config file`,
        run: async (): Promise<CheckResult<ConfigFacts>> => ({
          status: 'warn',
          message: mine.map((f) => escapeLine(f.message)).join(' '),
          advice: mine.map((f) => escapeLine(f.advice)).join(' '),
          facts: {
            findings: mine.map((f) => ({
              key: escapeLine(f.key),
              message: escapeLine(f.message),
              advice: escapeLine(f.advice),
            })),
          },
        }),
      },
    ];
  });
};
