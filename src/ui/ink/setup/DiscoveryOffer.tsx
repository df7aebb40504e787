import { Box, Static, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { RunOptions } from '../../../core/doctor/runner.js';
import type { Check, DoctorReport } from '../../../core/doctor/types.js';
import { issuerUrlError } from '../../../core/setup/wizard-flow.js';
import { GroupBlock, OpenGroups, useDoctorRun } from '../doctor-live.js';
import { GROUP_TITLES } from '../../../core/areas/index.js';
import { KeyHints } from '../components/KeyHints.js';
import { SelectList } from '../components/SelectList.js';
import { TextInput } from '../components/TextInput.js';
import { colorEnabled, tint } from '../components/theme.js';
import { FinalScreen } from './FinalScreen.js';
import { issuerUrlSteps, type Outcome } from '../../../core/setup/outcome.js';
import { OFFER, type SetupSession } from '../../../core/setup/session.js';
import { InlineError } from '../components/InlineError.js';
import { escapeLine } from '../../../core/escape.js';

interface Props {
  outcome: Outcome;
  session: SetupSession;
  /** The report of the checks, or undefined when the operator skipped them. */
  onDone(report?: DoctorReport): void;
}

type Phase = 'offer' | 'url' | 'running' | 'ran' | 'skipped';
type Line = { id: string; heading?: string };

/**
 * After keyless route53 (auth kubernetes) is written: offers the doctor's discovery and kube checks for the
 * public issuer URL and shows each check as it settles. The final screen and the settled lines are
 * printed once (<Static>), so a long run scrolls like the doctor's instead of redrawing the screen.
 */
export function DiscoveryOffer({ outcome, session, onDone }: Props) {
  const [phase, setPhase] = useState<Phase>('offer');
  const [url, setUrl] = useState('');
  const [failure, setFailure] = useState<string>();
  const [settled, setSettled] = useState<Line[]>([{ id: 'final' }]);
  const [assembled, setAssembled] = useState<{ checks: Check[]; options: RunOptions }>();
  const cancel = useRef(new AbortController());
  const color = colorEnabled();
  // Ctrl+C quits: what stands then is what the outcome says (written, or nothing was).
  const quit = `Ctrl+C quit (${outcome.standing})`;
  // The doctor's own run loop; each group settles into the lines above once it is done.
  const run = useDoctorRun(assembled?.checks, assembled?.options ?? {}, (report) => {
    setPhase('ran');
    onDone(report);
  });

  useEffect(() => () => cancel.current.abort(), []);

  useInput((_input, key) => {
    if (!key.escape) return;
    if (phase === 'offer') skip();
    else if (phase === 'url') setPhase('offer');
  });

  const skip = () => {
    setPhase('skipped');
    onDone(undefined);
  };

  useEffect(() => {
    if (phase !== 'running' || assembled) return;
    session.discoveryChecks!(url, cancel.current.signal).then(
      (found) => setAssembled(found),
      (error: unknown) => {
        // The checks could not be assembled (e.g. the inventory became unreadable): say why, ask again.
        setFailure(error instanceof Error ? error.message : String(error));
        setPhase('url');
      },
    );
  }, [phase]);

  let body = null;
  if (phase === 'offer') {
    body = (
      <Box flexDirection="column">
        <Text bold>{OFFER}</Text>
        <Text dimColor wrap="wrap">
          The doctor's discovery and kube checks: is the cluster's OIDC issuer published as keyless DNS credentials
          need, and is the cluster ready (steps 1-4 of the prerequisites).
        </Text>
        <Box marginTop={1}>
          <SelectList
            choices={[
              { value: 'yes', label: 'Yes, check now', help: 'Asks the public issuer URL, then runs the checks here' },
              { value: 'no', label: 'No, later', help: 'The command is listed under Next' },
            ]}
            onSelect={(v) => (v === 'yes' ? setPhase('url') : skip())}
          />
        </Box>
        <Box marginTop={1}>
          <KeyHints hints={['Enter choose', 'Esc skip', quit]} />
        </Box>
      </Box>
    );
  } else if (phase === 'url') {
    body = (
      <Box flexDirection="column">
        <Text bold>Public issuer URL</Text>
        <Text dimColor wrap="wrap">
          The https:// URL the API server puts in tokens (--service-account-issuer), where
          /.well-known/openid-configuration is published
        </Text>
        <Box marginTop={1}>
          <TextInput
            initialValue={url}
            placeholder="e.g. https://oidc.example.com/cluster1"
            validate={(v) => issuerUrlError(v)}
            onSubmit={(v) => {
              setFailure(undefined);
              setUrl(v.trim());
              setSettled((s) => [
                ...s,
                { id: `heading:${s.length}`, heading: `Discovery and cluster checks for ${v.trim()}:` },
              ]);
              setPhase('running');
            }}
          />
        </Box>
        <InlineError message={failure} />
        <Box marginTop={1}>
          <KeyHints hints={['Enter run the checks', 'Esc back', quit]} />
        </Box>
      </Box>
    );
  } else if (phase === 'running' || phase === 'ran') {
    body = (
      <Box flexDirection="column">
        {/* A few lines: drawn with the summary in one frame, so the verdict never shows before its groups. */}
        {run.settled.map((g) => (
          <GroupBlock key={g.group} state={g} verbose={false} color={color} titles={GROUP_TITLES} />
        ))}
        <OpenGroups run={run} verbose={false} color={color} titles={GROUP_TITLES} />
        {phase === 'running' ? <KeyHints hints={[`Ctrl+C stop (${outcome.standing})`]} /> : null}
        {phase === 'ran' ? (
          <Box marginTop={1} flexDirection="column">
            <Text bold>Next, with this issuer URL:</Text>
            {issuerUrlSteps(outcome, url).map((line) => (
              <Text key={line} wrap="wrap">
                {'  '}
                {escapeLine(line)}
              </Text>
            ))}
          </Box>
        ) : null}
      </Box>
    );
  }

  return (
    <Box flexDirection="column">
      <Static items={settled}>
        {(line) =>
          line.heading ? (
            <Text key={line.id} bold wrap="wrap">
              {line.heading}
            </Text>
          ) : (
            <Box key={line.id} flexDirection="column" marginBottom={1}>
              <Text bold color={tint('cyan')}>
                cloudgate setup
              </Text>
              <FinalScreen outcome={outcome} />
            </Box>
          )
        }
      </Static>
      {body}
    </Box>
  );
}
