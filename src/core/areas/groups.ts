/**
 * The doctor's groups, in report order: the one list the options table (`--only`'s choices, its help,
 * shell completion), the registry (index.ts) and the `--config` sections of each group start from.
 * No imports: the command line reads it at start-up.
 */
export const GROUPS = ['inventory', 'certificate', 'signin', 'tls', 'discovery', 'kube', 'acme'] as const;

export type Group = (typeof GROUPS)[number];
