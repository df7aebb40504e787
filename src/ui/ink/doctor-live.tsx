import { Box, Text, render, useInput } from 'ink';
import { useEffect, useState } from 'react';
import { runChecks, type RunOptions } from '../../core/doctor/runner.js';
import {
  isInterrupted,
  RUN_INTERRUPTED,
  STATUS_MARK as MARK,
  statusCounts,
  summarize,
} from '../../core/doctor/status.js';
import type { Check, CheckOutcome, DoctorReport, Status } from '../../core/doctor/types.js';
import {
  closingLines,
  countsLine,
  groupStatus,
  renderText,
  shown,
  skipSummary,
  titleOf,
  type GroupTitles,
} from '../text/text.js';

const COLOR = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'gray' } as const;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface LiveView {
  verbose: boolean;
  /** False with NO_COLOR: no colour at all. */
  color: boolean;
  titles?: GroupTitles;
  /** The groups named with --only (the report says which of them checked nothing). */
  requested?: string[];
}

interface Props extends LiveView {
  checks: Check[];
  options: RunOptions;
  onDone(report: DoctorReport, interrupted: boolean): void;
}

export interface GroupState {
  group: string;
  checks: Check[];
  running: Check[];
  finished: CheckOutcome[];
}

export interface DoctorRun {
  /** Groups finished, in order, each after every group above it. */
  settled: GroupState[];
  /** Groups still running (or, once interrupted, left unfinished). */
  open: GroupState[];
  report?: DoctorReport;
  interrupted: boolean;
  frame: number;
  /** Stops the checks still running (Ctrl+C). */
  interrupt(): void;
}

/**
 * Runs the checks once (when given) and follows them group by group: the one run loop of the live
 * doctor and of the walkthrough's discovery checks.
 */
export function useDoctorRun(
  checks: Check[] | undefined,
  options: RunOptions,
  onDone: (report: DoctorReport, interrupted: boolean) => void,
): DoctorRun {
  const [groups, setGroups] = useState<GroupState[]>([]);
  const [report, setReport] = useState<DoctorReport>();
  const [frame, setFrame] = useState(0);
  const [stop] = useState(() => new AbortController());

  useEffect(() => {
    if (!checks) return undefined;
    setGroups(groupsOf(checks));
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80);
    // The run reports through its callbacks and the then below: nothing awaits it here.
    void runChecks(checks, {
      ...options,
      signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
      onStart: (c) =>
        setGroups((all) => all.map((g) => (g.group === c.group ? { ...g, running: [...g.running, c] } : g))),
      onFinish: (o) =>
        setGroups((all) =>
          all.map((g) =>
            g.group === o.group
              ? { ...g, running: g.running.filter((c) => c.id !== o.id), finished: [...g.finished, o] }
              : g,
          ),
        ),
    }).then((r) => {
      clearInterval(timer);
      setReport(r);
      onDone(r, stop.signal.aborted);
    });
    return () => clearInterval(timer);
  }, [checks]);

  const settled: GroupState[] = [];
  for (const g of groups) {
    if (g.finished.length < g.checks.length) break;
    settled.push(g);
  }
  return {
    settled,
    open: groups.slice(settled.length),
    report,
    interrupted: stop.signal.aborted,
    frame,
    interrupt: () => stop.abort(),
  };
}

/**
 * Each group is one block: its line (a spinner and done/total while it runs), then its checks, in the
 * usual order, never interleaved. Ctrl+C stops the checks still running. Once the run ends the view
 * draws nothing: the report is printed as plain text after Ink is gone (runLiveDoctor), so no redraw
 * of the terminal (a resize, say) can take the verdict off the screen.
 */
export function DoctorLive({ checks, options, verbose, color, titles, onDone }: Props) {
  const run = useDoctorRun(checks, options, () => {});
  useInput((input, key) => {
    if (key.ctrl && input === 'c') run.interrupt();
  });
  // Told only after the empty frame is committed: Ink then erases the live view when it unmounts,
  // instead of leaving its last frame above the report.
  useEffect(() => {
    if (run.report) onDone(run.report, run.interrupted);
  }, [run.report]);
  if (run.report) return null;
  return (
    <Box flexDirection="column">
      {run.settled.map((g) => (
        <GroupBlock key={g.group} state={g} verbose={verbose} color={color} titles={titles} />
      ))}
      {run.open.map((g) => (
        <GroupBlock key={g.group} state={g} verbose={verbose} color={color} titles={titles} frame={run.frame} />
      ))}
    </Box>
  );
}

/** The groups not settled yet (spinning), then the summary once the run ended. */
export function OpenGroups({
  run,
  verbose,
  color,
  titles,
}: {
  run: DoctorRun;
  verbose: boolean;
  color: boolean;
  titles?: GroupTitles;
}) {
  return (
    <Box flexDirection="column">
      {run.open.map((g) => (
        <GroupBlock
          key={g.group}
          state={g}
          verbose={verbose}
          color={color}
          titles={titles}
          frame={run.report ? undefined : run.frame}
        />
      ))}
      {run.report ? <Summary report={run.report} interrupted={run.interrupted} /> : null}
    </Box>
  );
}

function groupsOf(checks: Check[]): GroupState[] {
  const out: GroupState[] = [];
  for (const check of checks) {
    let g = out.find((x) => x.group === check.group);
    if (!g) out.push((g = { group: check.group, checks: [], running: [], finished: [] }));
    g.checks.push(check);
  }
  return out;
}

/** A group's line (a spinner while it runs), its settled checks, and the hint when it checked nothing. */
export function GroupBlock({
  state,
  verbose,
  color,
  titles,
  frame,
}: {
  state: GroupState;
  verbose: boolean;
  color: boolean;
  titles?: GroupTitles;
  frame?: number;
}) {
  const done = state.finished.length === state.checks.length;
  const status: Status = groupStatus(state.finished);
  const shownChecks = state.finished.filter((o) => verbose || o.status !== 'skip' || isInterrupted(o));
  const hints = done && status === 'skip' && !verbose ? skipSummary(state.finished) : [];
  return (
    <Box flexDirection="column">
      <Text>
        {done || frame === undefined ? (
          <Text color={tone(color, done ? status : 'skip')}>[{done ? MARK[status] : ' '}]</Text>
        ) : (
          <Text color={tone(color, 'run')}>[{FRAMES[frame % FRAMES.length]}]</Text>
        )}{' '}
        {shown(titleOf(state.group, titles))}{' '}
        <Text dimColor={color}>
          ({state.finished.length}/{state.checks.length}
          {done ? `, ${counts(state.finished)}` : ''})
        </Text>
      </Text>
      {shownChecks.map((o) => (
        <CheckLine key={o.id} outcome={o} verbose={verbose} color={color} />
      ))}
      {frame === undefined
        ? null
        : state.running.map((c) => (
            <Text key={c.id}>
              {'    '}
              <Text color={tone(color, 'run')}>{FRAMES[frame % FRAMES.length]}</Text> {shown(c.title)}…
            </Text>
          ))}
      {hints.map((hint) => (
        <Text key={hint} dimColor={color}>
          {' '}
          {hint}
        </Text>
      ))}
    </Box>
  );
}

function counts(outcomes: CheckOutcome[]): string {
  return statusCounts(summarize(outcomes));
}

function tone(color: boolean, status: Status | 'run'): string | undefined {
  if (!color) return undefined;
  return status === 'run' ? 'cyan' : COLOR[status];
}

/** One settled check, and its advice when it failed or warned (always with verbose). */
export function CheckLine({ outcome: o, verbose, color }: { outcome: CheckOutcome; verbose: boolean; color: boolean }) {
  return (
    <Box flexDirection="column">
      <Text>
        {'    '}
        <Text color={tone(color, o.status)}>{MARK[o.status]}</Text> {shown(o.title)}: {shown(o.message)}{' '}
        <Text dimColor={color}>({o.durationMs} ms)</Text>
      </Text>
      {o.advice && (o.status === 'fail' || o.status === 'warn' || verbose) ? <Text> → {shown(o.advice)}</Text> : null}
    </Box>
  );
}

export function Summary({ report, interrupted }: { report: DoctorReport; interrupted: boolean }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      {interrupted ? <Text bold>{RUN_INTERRUPTED}</Text> : null}
      {closingLines(report.checks).map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      <Text>{countsLine(report.checks)}</Text>
    </Box>
  );
}

export async function runLiveDoctor(
  checks: Check[],
  options: RunOptions,
  view: LiveView,
): Promise<{ report: DoctorReport; interrupted: boolean }> {
  let result: { report: DoctorReport; interrupted: boolean } | undefined;
  const app = render(
    <DoctorLive
      checks={checks}
      options={options}
      verbose={view.verbose}
      color={view.color}
      titles={view.titles}
      onDone={(report, interrupted) => {
        result = { report, interrupted };
        setTimeout(() => app.unmount(), 0);
      }}
    />,
    // Ctrl+C is ours: stop the checks and report what finished, never a frozen spinner.
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  const { report, interrupted } = result!;
  if (interrupted) process.stdout.write(`${RUN_INTERRUPTED}\n`);
  process.stdout.write(
    renderText(report, {
      verbose: view.verbose,
      color: view.color,
      titles: view.titles,
      requested: view.requested,
      width: process.stdout.columns,
    }),
  );
  return { report, interrupted };
}
