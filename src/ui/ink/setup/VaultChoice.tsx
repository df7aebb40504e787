import { Box, Text } from 'ink';
import { useState } from 'react';
import { escapeLine } from '../../../core/escape.js';
import { MAKE_VAULT_PASSWORD, type VaultCandidate } from '../../../core/setup/vault-choice.js';
import { KeyHints } from '../components/KeyHints.js';
import { InlineError } from '../components/InlineError.js';
import { SelectList } from '../components/SelectList.js';
import { TextInput } from '../components/TextInput.js';
import { completePath } from '../../../core/setup/path-completion.js';

const OTHER = 'other';
const PLAIN = 'plain';

interface Props {
  /** `! Secrets written in plain text: ...`, from the review. */
  plainText: string;
  candidates: VaultCandidate[];
  cwd: string;
  /** Resolves when the vault is in use; rejects with why it cannot be read (shown here). */
  useVault(id: string): Promise<void>;
  /** The operator chose plain text (the review marks it). */
  onPlain(): void;
}

/**
 * Before secrets are written in plain text: the vault passwords Ansible already uses here, another
 * password file, or plain text (mode 0600); how to make a password file when there is none.
 */
export function VaultChoice({ plainText, candidates, cwd, useVault, onPlain }: Props) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const choose = (id: string) => {
    setBusy(true);
    setError(undefined);
    useVault(id).catch((failure: unknown) => {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  };
  return (
    <Box flexDirection="column">
      <Text bold>Write the secrets with Ansible Vault?</Text>
      <Text dimColor wrap="wrap">
        {escapeLine(plainText)}
      </Text>
      <Box marginTop={1} flexDirection="column">
        {asking ? (
          <>
            <Text>Vault password file (or LABEL@FILE)</Text>
            {candidates.length === 0
              ? MAKE_VAULT_PASSWORD.map((line) => (
                  <Text key={line} dimColor wrap="wrap">
                    {' '}
                    {line}
                  </Text>
                ))
              : null}
            <TextInput
              placeholder="e.g. ~/.vault-pass"
              isActive={!busy}
              complete={(line) => completePath(line.value, line.cursor, cwd)}
              validate={(v) => (v.trim() === '' ? 'Give the path of the vault password file.' : undefined)}
              onSubmit={(v) => choose(v.trim())}
            />
          </>
        ) : (
          <SelectList
            isActive={!busy}
            choices={[
              ...candidates.map((c) => ({
                value: c.id,
                label: `Use ${c.file}`,
                help: `The vault password Ansible uses here (${c.source})`,
              })),
              {
                value: OTHER,
                label: 'Another vault password file…',
                help: candidates.length ? 'Give its path' : `None is configured here: ${MAKE_VAULT_PASSWORD[0]}`,
              },
              {
                value: PLAIN,
                label: 'No: write them in plain text (mode 0600)',
                help: 'The review marks them; --vault-password-file FILE vaults them on a later run',
              },
            ]}
            onSelect={(value) => (value === OTHER ? setAsking(true) : value === PLAIN ? onPlain() : choose(value))}
          />
        )}
      </Box>
      <InlineError message={error} />
      {busy && !error ? <Text dimColor>Reading the vault password…</Text> : null}
      <Box marginTop={1}>
        <KeyHints hints={['Enter choose', 'Esc back', 'Ctrl+C cancel (nothing written)']} />
      </Box>
    </Box>
  );
}
