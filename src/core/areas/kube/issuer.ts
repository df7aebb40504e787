/**
 * An issuer judged as cert-manager leaves it: `kube.issuer` judges the platform's ClusterIssuer (its
 * name from the inventory) and whether it is of the inventory's type; `kube.issuers` judges every other
 * issuer the platform makes or its Certificates use the same way. The issuer is read by the one reader
 * (kube/live-issuer.ts) and its Ready reason explained by cert-manager's own table
 * (kube/cert-manager-reasons.ts). Pure.
 */
import type { IssuerFacts, IssuersFacts } from './facts.js';
import type { CheckResult, CheckSubject, StuckStepFact } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import type { CmObject } from '../../kube/objects.js';
import { readLiveIssuer, isOfType, type IssuerHints, type LiveIssuer } from '../../kube/live-issuer.js';
import { explainReason, fillIn } from '../../kube/cert-manager-reasons.js';
import { acmeProblemOf } from '../../kube/acme-problems.js';
import { ISSUER, ISSUERS } from './messages/issuers.js';

/** What an issuer's state is, in one verdict: `ok`, `warn` (cert-manager has not looked yet) or `fail`. */
export interface IssuerVerdict {
  issuer: LiveIssuer;
  status: 'ok' | 'warn' | 'fail';
  /** One line: what is wrong, or the Ready reason. */
  summary: string;
  advice?: string;
  /** The reason table's code for the cause (`ErrGetKeyPair`, `ca-secret-missing`, `venafi-token-refused`, `unknown`, ...). */
  code?: string;
  stuck?: StuckStepFact;
}

/** Where an issuer's CA Secret comes from: the Certificate (if any) whose secretName it is. */
function caSource(issuer: LiveIssuer, certificates: readonly CmObject[]): string | undefined {
  if (!issuer.caSecret) return undefined;
  const maker = certificates.find(
    (c) => c.metadata?.namespace === issuer.secretNamespace && c.spec?.secretName === issuer.caSecret,
  );
  return maker ? `${maker.metadata?.namespace}/${maker.metadata?.name}` : undefined;
}

/**
 * The verdict on one issuer. `certificates`: the cluster's Certificates, to name the one that makes a
 * CA issuer's Secret (the platform's self-signed CA, the CAs of the openstack namespace's issuers).
 */
export function judgeIssuer(issuer: LiveIssuer, certificates: readonly CmObject[] = []): IssuerVerdict {
  const ready = issuer.ready;
  const said = ready ? `${ready.reason ?? 'no reason'}${ready.message ? `: ${escapeLine(ready.message)}` : ''}` : '';
  const stuck = (reason: string): StuckStepFact => ({ step: 'issuer', object: issuer.ref, reason });
  if (ready?.stale) {
    return {
      issuer,
      status: 'warn',
      code: 'Stale',
      summary: ISSUER.stale(
        ready.status === 'True' ? 'Ready' : 'not Ready',
        ready.observedGeneration,
        ready.generation,
      ),
      advice: ISSUER.notProcessedYet,
    };
  }
  if (ready?.status === 'False') {
    const why = explainReason('Issuer Ready', ready.reason, ready.message ?? '');
    // The ACME CA's own problem (External Account Binding, an email it refuses) says more than the reason.
    const acme = issuer.mechanism === 'acme' ? acmeProblemOf(ready.message ?? '') : undefined;
    const source = caSource(issuer, certificates);
    const cause = acme?.cause ?? why.cause;
    // A CA Secret a Certificate makes (the self-signed CA, the CAs of openstack's issuers): that Certificate is where to look.
    const fix =
      source && /^ca-secret|^ErrGetKeyPair$/.test(why.code)
        ? `The Secret ${issuer.secretNamespace}/${issuer.caSecret} is made by Certificate ${source}, which has not issued it (or not as a CA): cloudgate status certificate ${source} says why.`
        : (acme?.fix ?? why.fix);
    return {
      issuer,
      status: 'fail',
      code: acme?.code ?? why.code,
      stuck: stuck(ready.reason ?? 'NotReady'),
      summary: ISSUER.notReady(cause, said),
      advice: fillIn(fix, { issuer: issuer.ref }),
    };
  }
  if (ready?.status !== 'True') {
    return {
      issuer,
      status: 'warn',
      code: 'NotProcessed',
      summary: ISSUER.noCondition(said),
      advice: ISSUER.checkController,
    };
  }
  return { issuer, status: 'ok', code: ready.reason, summary: ISSUER.isReady(said) };
}

/** The verdict of `kube.issuer`: the platform's ClusterIssuer `name`, and whether it is of the inventory's type. */
export function issuerResult(
  object: CmObject,
  issuerType: string | undefined,
  name = 'atmosphere',
  hints: IssuerHints = {},
  certificates: readonly CmObject[] = [],
): CheckResult<IssuerFacts> {
  const issuer = readLiveIssuer(object, hints);
  const verdict = judgeIssuer(issuer, certificates);
  const ready = issuer.ready;
  const liveType = issuer.platformType ?? issuer.mechanism;
  const subject: CheckSubject = { kind: 'ClusterIssuer', name };
  const facts = {
    name,
    type: liveType,
    ready: ready?.status,
    reason: ready?.reason,
    message: ready?.message,
    ...(verdict.code ? { cause: verdict.code } : {}),
    ...(ready?.stale ? { observedGeneration: ready.observedGeneration, generation: ready.generation } : {}),
  };
  const shown = `ClusterIssuer "${name}"`;
  if (verdict.status !== 'ok') {
    return {
      status: verdict.status,
      message: ISSUER.judged(shown, verdict.summary),
      ...(verdict.advice ? { advice: verdict.advice } : {}),
      facts,
      subject,
      ...(verdict.stuck ? { stuck: verdict.stuck } : {}),
    };
  }
  if (issuerType && issuerType !== 'none' && !isOfType(issuer, issuerType)) {
    const wanted = issuerType;
    return {
      status: 'warn',
      message: ISSUER.wrongType(shown, liveType, wanted),
      advice: ISSUER.deployThenRegenerate,
      facts,
      subject,
    };
  }
  return {
    status: 'ok',
    message: ISSUER.ready(
      shown,
      liveType,
      `${ready?.reason ?? 'no reason'}${ready?.message ? `: ${escapeLine(ready.message)}` : ''}`,
    ),
    facts,
    subject,
  };
}

/** The verdict when no ClusterIssuer of that name exists (or the cluster lacks cert-manager's CRDs). */
export function missingIssuerResult(name: string, crdsMissing: boolean): CheckResult {
  return crdsMissing
    ? {
        status: 'fail',
        message: ISSUER.noKind,
        advice: ISSUER.installCertManager,
        stuck: {
          step: 'controller',
          object: 'CustomResourceDefinition clusterissuers.cert-manager.io',
          reason: 'NotFound',
        },
      }
    : {
        status: 'fail',
        message: ISSUER.missing(name),
        advice: ISSUER.deployPlatform,
        subject: { kind: 'ClusterIssuer', name },
        stuck: { step: 'issuer', object: `ClusterIssuer ${name}`, reason: 'NotFound' },
      };
}

/**
 * Every issuer `kube.issuers` judges, and the verdict over them. `missingSelfSigned`: ClusterIssuer
 * self-signed does not exist and no Certificate uses it (one that does is kube.certificates' finding).
 */
export function issuersResult(verdicts: IssuerVerdict[], missingSelfSigned: boolean): CheckResult<IssuersFacts> {
  const facts = {
    issuers: verdicts.map((v) => ({
      issuer: v.issuer.ref,
      type: v.issuer.platformType ?? v.issuer.mechanism,
      status: v.status,
      summary: v.summary,
      ...(v.code ? { cause: v.code } : {}),
    })),
  };
  const bad = verdicts.filter((v) => v.status !== 'ok');
  const problems = bad.map((v) => `${v.issuer.ref}: ${v.summary}`);
  if (missingSelfSigned)
    problems.unshift(
      "ClusterIssuer self-signed does not exist (the platform always creates it: the CA Certificates of the self-signed issuer and of the openstack namespace's CA issuers need it)",
    );
  if (problems.length === 0) {
    return verdicts.length
      ? {
          status: 'ok',
          message: ISSUERS.allReady(
            verdicts.length,
            verdicts.map((v) => `${v.issuer.ref} (${v.issuer.platformType ?? v.issuer.mechanism})`).join(', '),
          ),
          facts,
        }
      : { status: 'ok', message: ISSUERS.onlyPlatform, facts };
  }
  const advice = [
    ...new Set([
      ...(missingSelfSigned ? [ISSUERS.deploySelfSigned] : []),
      ...bad.map((v) => (v.advice ? `${v.issuer.ref}: ${v.advice}` : undefined)).filter((a): a is string => Boolean(a)),
    ]),
  ];
  const worst = bad.find((v) => v.status === 'fail') ?? bad[0];
  return {
    status: bad.some((v) => v.status === 'fail') ? 'fail' : 'warn',
    message: ISSUERS.notReady(problems.length, problems.join('; ')),
    advice: advice.join(' '),
    facts,
    ...(worst?.stuck
      ? { stuck: worst.stuck }
      : missingSelfSigned
        ? { stuck: { step: 'issuer', object: 'ClusterIssuer self-signed', reason: 'NotFound' } }
        : {}),
  };
}
