import { describe, expect, it } from 'vitest';
import { branchWords } from '../../../../src/core/config/branch.js';
import { choicesOf } from '../../../../src/core/config/variables.js';

describe('branchWords', () => {
  it('names the issuer, the solver, or the solver and its auth', () => {
    expect(branchWords(choicesOf({ cluster_issuer_type: 'ca' }))).toBe('cluster_issuer_type: ca');
    expect(branchWords(choicesOf({ cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'http01' }))).toBe(
      'cluster_issuer_acme_solver: http01',
    );
    expect(
      branchWords(
        choicesOf({
          cluster_issuer_type: 'acme',
          cluster_issuer_acme_solver: 'route53',
          cluster_issuer_acme_route53_auth: 'kubernetes',
        }),
      ),
    ).toBe('cluster_issuer_acme_solver: route53, auth kubernetes');
  });
});
