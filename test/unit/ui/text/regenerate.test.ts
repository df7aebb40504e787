import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { printRegenerateEvent, regenerateLines } from '../../../../src/ui/text/regenerate.js';
import { deletionBatches } from '../../../../src/core/setup/regenerate-delete.js';
import type { StaleSecret } from '../../../../src/core/setup/regenerate.js';

const stale = (name: string): StaleSecret => ({ namespace: 'openstack', name });

describe('what regenerate says', () => {
  it("words each event of the run: the dry run's commands on stdout, the rest on stderr", () => {
    const batches = deletionBatches([stale('keystone-tls'), stale('nova-tls')]);
    expect(regenerateLines({ kind: 'delete-commands', batches, context: 'prod' })).toEqual({
      stdout: [
        'kubectl --context=prod delete secret --namespace=openstack --ignore-not-found --wait=false --output=name -- keystone-tls nova-tls',
      ],
      stderr: [],
    });
    expect(regenerateLines({ kind: 'dry-run', verdict: 'would-delete', deleting: 2 }).stderr[0]).toBe(
      'Dry run: nothing was written and no secret was deleted; the commands above would delete them.',
    );
    expect(regenerateLines({ kind: 'kept', why: 'nothing-stale' }).stderr).toEqual([
      'No certificate secret to delete.',
    ]);
    expect(
      regenerateLines({ kind: 'waited', waited: { ready: ['openstack/keystone-tls'], notReady: [] } }).stderr,
    ).toEqual(['Issued again (1): openstack/keystone-tls']);
  });

  it('escapes what the cluster said before it reaches the terminal', () => {
    const stderr = new PassThrough();
    const stdout = new PassThrough();
    printRegenerateEvent({ kind: 'no-cluster', reason: 'no context\u001b[2J' }, { stdout, stderr });
    expect(String(stderr.read())).toBe('! Cannot list the certificate secrets: no context\\x1b[2J\n');
  });
});
