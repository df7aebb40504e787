import { EXIT } from '../core/errors.js';
import { parseObjectRef } from '../core/kube/object-ref.js';
import { renewCertificates, renewFailed } from '../core/areas/kube/renew.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { print, withCluster } from './kube-tool.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'renew'>, operands: readonly string[]): Promise<number> {
  const refs = operands.map((o) => parseObjectRef(o, 'Certificate', 'cloudgate renew openstack/keystone-api'));
  return withCluster(ctx, flags, async (kube) => {
    const report = await renewCertificates(kube, refs, { force: flags.force });
    print(ctx, flags.json, report, () =>
      report.certificates.map((c) => (c.result === 'triggered' ? c.message : `${c.namespace}/${c.name}: ${c.message}`)),
    );
    return renewFailed(report) ? EXIT.findings : EXIT.ok;
  });
}
