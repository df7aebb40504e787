import { Box, Static, Text, render } from 'ink';
import { useEffect, useState } from 'react';
import { runChecks, type RunOptions } from '../../core/doctor/runner.js';
import type { Check, CheckOutcome, DoctorReport } from '../../core/doctor/types.js';
import { closingLine, groupBy, groupStatus, groupTitle, shown } from '../text/text.js';

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;
const COLOR = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'gray' } as const;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

interface Props {
  checks: Check[];
  options: RunOptions;
  verbose: boolean;
  onDone(report: DoctorReport): void;
}

/** Finished checks settle into <Static> lines; running ones spin below them. */
export function DoctorLive({ checks, options, verbose, onDone }: Props) {
  const [finished, setFinished] = useState<CheckOutcome[]>([]);
  const [running, setRunning] = useState<Check[]>([]);
  const [report, setReport] = useState<DoctorReport>();
  const [frame, setFrame] = useState(0);

  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80);
    runChecks(checks, {
      ...options,
      onStart: (c) => setRunning((r) => [...r, c]),
      onFinish: (o) => {
        setRunning((r) => r.filter((c) => c.id !== o.id));
        setFinished((f) => [...f, o]);
      },
    }).then((r) => {
      clearInterval(timer);
      setReport(r);
      onDone(r);
    });
    return () => clearInterval(timer);
  }, []);

  return (
    <Box flexDirection="column">
      <Static items={finished}>
        {(o) => <CheckLine key={o.id} outcome={o} verbose={verbose} />}
      </Static>
      {running.map((c) => <RunningLine key={c.id} check={c} frame={frame} />)}
      {report ? <Summary report={report} /> : null}
    </Box>
  );
}

/** One settled check, and its advice when it failed or warned (always with verbose). */
export function CheckLine({ outcome: o, verbose }: { outcome: CheckOutcome; verbose: boolean }) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={COLOR[o.status]}>{MARK[o.status]}</Text> {shown(o.title)}: {shown(o.message)}{' '}
        <Text dimColor>({o.durationMs} ms)</Text>
      </Text>
      {o.advice && (o.status === 'fail' || o.status === 'warn' || verbose) ? (
        <Text>  → {shown(o.advice)}</Text>
      ) : null}
    </Box>
  );
}

export function RunningLine({ check, frame }: { check: Check; frame: number }) {
  return (
    <Text>
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {shown(check.title)}…
    </Text>
  );
}

export function Summary({ report }: { report: DoctorReport }) {
  const groups = [...groupBy(report.checks)];
  return (
    <Box flexDirection="column" marginTop={1}>
      {groups.map(([group, checks]) => {
        const status = groupStatus(checks);
        return (
          <Text key={group}>
            <Text color={COLOR[status]}>[{MARK[status]}]</Text> {groupTitle(group)}
          </Text>
        );
      })}
      <Text>{closingLine(report.checks)}</Text>
    </Box>
  );
}

export function runLiveDoctor(checks: Check[], options: RunOptions, view: { verbose: boolean }): Promise<DoctorReport> {
  return new Promise((resolve) => {
    let result: DoctorReport | undefined;
    const app = render(
      <DoctorLive checks={checks} options={options} verbose={view.verbose} onDone={(r) => {
        result = r;
        setTimeout(() => app.unmount(), 0);
      }} />,
      { exitOnCtrlC: true },
    );
    app.waitUntilExit().then(() => resolve(result!));
  });
}
