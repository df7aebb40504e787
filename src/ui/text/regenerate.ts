/**
 * What `cloudgate regenerate` says, in words: each event of the run (core/setup/regenerate-events.ts)
 * as the lines it prints. The kubectl commands of a dry run go to stdout (`--dry-run > delete.sh` must
 * hold only them); everything else to stderr.
 */
import { escapeLine } from '../../core/escape.js';
import { lineWriter } from '../../core/net/http-log.js';
import type { RegenerateEvent } from '../../core/setup/regenerate-events.js';
import { reviewText } from '../../core/setup/review.js';
import { writtenText } from '../../core/setup/outcome.js';
import { selectionLines } from '../../core/setup/regenerate-cluster.js';
import { batchCommandLine, describeBatchDeletion, describeStopped } from '../../core/setup/regenerate-delete.js';

export interface Printed {
  stdout?: string[];
  stderr: string[];
}

const DRY_RUN: Record<Extract<RegenerateEvent, { kind: 'dry-run' }>['verdict'], (deleting: number) => string> = {
  undecided: () => 'Dry run: nothing was written and no secret would be deleted automatically (see above).',
  'not-deployed': () =>
    'Dry run: nothing was written. The real run would write the inventory but delete no secret until the deployment has run (see above), and exit 1.',
  'would-delete': (n) =>
    `Dry run: nothing was written${n ? ' and no secret was deleted; the commands above would delete them' : ''}.`,
};

const KEPT: Record<Extract<RegenerateEvent, { kind: 'kept' }>['why'], string> = {
  'not-deployed':
    'No secret was deleted. Deploy the inventory (the platform\'s playbooks), then run "cloudgate regenerate" again with the same answers.',
  undecided: 'No secret was deleted: cloudgate cannot tell which secrets the replaced issuer issued (see above).',
  'nothing-stale': 'No certificate secret to delete.',
};

const REISSUING =
  'cert-manager now issues new certificates from the new issuer. Until each is issued, its endpoints serve the ingress controller\'s self-signed "Fake Certificate".';

export function regenerateLines(event: RegenerateEvent): Printed {
  switch (event.kind) {
    case 'review':
      return { stderr: reviewText(event.review) };
    case 'blocked':
      return { stderr: ['Nothing was written and no secret was deleted: fix the errors above and run again.'] };
    case 'kubectl-failed':
      return { stderr: [`! ${event.message}`, `  ${event.advice}`, 'Nothing was written and no secret was deleted.'] };
    case 'selection':
      return { stderr: selectionLines(event.selection, event.issuerName, event.namespaces) };
    case 'not-deployed':
      return { stderr: [`! ${event.why}`] };
    case 'no-cluster':
      return { stderr: [`! Cannot list the certificate secrets: ${event.reason}`] };
    case 'delete-commands':
      return { stdout: event.batches.map((batch) => escapeLine(batchCommandLine(batch, event.context))), stderr: [] };
    case 'dry-run':
      return { stderr: [DRY_RUN[event.verdict](event.deleting)] };
    case 'written':
      return { stderr: writtenText(event.outcome) };
    case 'kept':
      return { stderr: [KEPT[event.why]] };
    case 'stopped':
      return { stderr: describeStopped(event.progress).map(escapeLine) };
    case 'deleted':
      return { stderr: describeBatchDeletion(event.progress, event.context).map(escapeLine) };
    case 'reissuing':
      return {
        stderr: [
          REISSUING,
          event.waitSeconds === undefined
            ? 'Follow them with: cloudgate doctor --only kube,tls (or run regenerate with --wait).'
            : `Waiting up to ${event.waitSeconds} s for the certificates to be issued again...`,
        ],
      };
    case 'waited': {
      const { ready, notReady } = event.waited;
      return {
        stderr: [
          ...(ready.length ? [escapeLine(`Issued again (${ready.length}): ${ready.join(', ')}`)] : []),
          ...notReady.map(({ name, why }) => escapeLine(`! Not issued yet: ${name}: ${why}`)),
          ...(notReady.length
            ? [
                'Look at "cloudgate status certificate NAMESPACE/NAME" (its request, order, challenges and the fix); "cloudgate doctor --only kube,acme" checks the issuer.',
              ]
            : []),
        ],
      };
    }
  }
}

/** Prints an event on the command's streams; stderr's lines redacted and escaped as every log line is. */
export function printRegenerateEvent(
  event: RegenerateEvent,
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): void {
  const { stdout = [], stderr } = regenerateLines(event);
  for (const line of stdout) streams.stdout.write(`${line}\n`);
  const log = lineWriter(streams.stderr);
  for (const line of stderr) log(line);
}
