/**
 * `<group>.config`: what is wrong with the --config file for that group (unknown keys with a "did you
 * mean", secret files readable by others), as a warning in the group the section configures, so that
 * `--only signin` with a misspelt `brokr_url` no longer ends in "Nothing was checked" without a word.
 * Only present when there is something to say.
 */
import { escapeLine } from '../escape.js';
import { CONFIG_KEYS } from '../config/config-keys.js';
import type { CheckProvider } from './input.js';
import type { Check } from './types.js';

export const provideChecks: CheckProvider = (input) => {
  const findings = input.configFindings;
  const groups = Object.keys(CONFIG_KEYS);
  return groups.flatMap((group): Check[] => {
    const mine = findings.filter((f) => f.section === group || f.section === undefined);
    if (mine.length === 0) return [];
    return [
      {
        id: `${group}.config`,
        group,
        title: `The ${group}: section of the config file`,
        run: async () => ({
          status: 'warn',
          message: mine.map((f) => escapeLine(f.message)).join(' '),
          advice: mine.map((f) => escapeLine(f.advice)).join(' '),
          details: { findings: mine.map((f) => ({ key: escapeLine(f.key), message: escapeLine(f.message), advice: escapeLine(f.advice) })) },
        }),
      },
    ];
  });
};
