import { describe, expect, it } from 'vitest';
import {
  answerError,
  answerQuestion,
  answeredAll,
  answersOf,
  atFirstQuestion,
  goBack,
  progressOf,
  questionOf,
  questionsReducer,
  startQuestions,
  type QuestionsState,
} from '../../../../src/core/setup/questions.js';

const idOf = (state: QuestionsState) => questionOf(state)?.id;

function answered(values: string[], state: QuestionsState = startQuestions()): QuestionsState {
  return values.reduce((s, value) => {
    const next = answerQuestion(s, { value });
    expect(next.error).toBeUndefined();
    return next;
  }, state);
}

/** The issuer part of an inventory with an automatic wildcard (what regenerate starts from). */
const WILDCARD_ACME = {
  certificate_type: 'wildcard-auto',
  openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'ops@example.com',
};

describe('answers', () => {
  it('each accepted answer moves to the next question; the last one ends with the answers for planSetup', () => {
    let state = startQuestions();
    expect(idOf(state)).toBe('certificate_type');
    state = answered(['individual', 'self-signed'], state);
    expect(idOf(state)).toBe('add_subject_annotations');
    expect(answeredAll(state)).toBe(false);
    expect(answersOf(state)).toBeUndefined();
    state = answered(['false'], state);
    expect(answeredAll(state)).toBe(true);
    expect(questionOf(state)).toBeUndefined();
    expect(answersOf(state)).toMatchObject({
      cluster_issuer_type: 'self-signed',
      openstack_helm_ingress_wildcard_domain: null,
      atmosphere_ingress_annotations: null,
    });
  });

  it('the issuer part alone starts at the issuer, from the inventory values, and keeps the rest of the inventory', () => {
    let state = startQuestions(WILDCARD_ACME, { only: 'issuer' });
    expect(idOf(state)).toBe('cluster_issuer_type');
    state = answered(['ca'], state);
    expect(idOf(state)).toBe('cluster_issuer_ca_certificate');
    state = answerQuestion(state, { value: 'file:/pki/ca.pem' });
    state = answerQuestion(state, { value: 'file:/pki/ca.key' });
    expect(answersOf(state)).toMatchObject({
      cluster_issuer_type: 'ca',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      cluster_issuer_ca_certificate: 'file:/pki/ca.pem',
      cluster_issuer_ca_private_key: 'file:/pki/ca.key',
    });
    expect(answersOf(state)).not.toHaveProperty('add_subject_annotations');
  });

  it('answers an answer brings (also) are kept with it', () => {
    const state = answerQuestion(startQuestions({}, { only: 'issuer' }), {
      value: 'self-signed',
      also: { cluster_issuer_acme_email: 'ops@example.com' },
    });
    expect(state.answers).toMatchObject({
      cluster_issuer_type: 'self-signed',
      cluster_issuer_acme_email: 'ops@example.com',
    });
  });

  it('an answer meant for a question that is no longer current is dropped, not given to the next one', () => {
    const state = answered(['individual']);
    expect(answerQuestion(state, { value: 'individual', stepId: 'certificate_type' })).toBe(state);
    expect(idOf(answerQuestion(state, { value: 'acme', stepId: 'cluster_issuer_type' }))).toBe(
      'cluster_issuer_acme_email',
    );
  });

  it('"question N of M" follows the highlighted choice, since it decides the questions after it', () => {
    const state = answered(['individual']);
    expect(progressOf(state)).toEqual({ number: 2, total: 6 });
    expect(progressOf(state, { stepId: 'cluster_issuer_type', value: 'self-signed' })).toEqual({ number: 2, total: 3 });
    // A highlight left from another question does not count.
    expect(progressOf(state, { stepId: 'certificate_type', value: 'wildcard-supplied' })).toEqual({
      number: 2,
      total: 6,
    });
  });
});

describe('validation', () => {
  it('a value in the wrong format is refused: the question stays, with the reason; the next good answer clears it', () => {
    const atEmail = answered(['individual', 'acme']);
    const refused = answerQuestion(atEmail, { value: 'not-an-email' });
    expect(idOf(refused)).toBe('cluster_issuer_acme_email');
    expect(refused.index).toBe(atEmail.index);
    expect(refused.error).toMatch(/not an email address/);
    expect(refused.answers.cluster_issuer_acme_email).toBeUndefined();
    const accepted = answerQuestion(refused, { value: 'ops@example.com' });
    expect(accepted.error).toBeUndefined();
    expect(idOf(accepted)).toBe('cluster_issuer_acme_server');
  });

  it('an answer the inventory rules forbid with the answers before it is refused (HTTP-01 with a wildcard)', () => {
    const atSolver = answered(['acme', 'ops@example.com', ''], startQuestions(WILDCARD_ACME, { only: 'issuer' }));
    expect(idOf(atSolver)).toBe('cluster_issuer_acme_solver');
    expect(answerError(atSolver, { value: 'http01' })).toMatch(/HTTP-01/);
    expect(answerQuestion(atSolver, { value: 'http01' }).error).toMatch(/HTTP-01/);
    expect(answerError(atSolver, { value: 'rfc2136' })).toBeUndefined();
  });

  it('a required question left empty is refused, a file question too (its path is checked where it is typed)', () => {
    const atCertificate = answered(['ca'], startQuestions({}, { only: 'issuer' }));
    expect(questionOf(atCertificate)?.kind).toBe('file');
    expect(answerQuestion(atCertificate, { value: '' }).error).toMatch(/give the path of a PEM file/);
    const atEmail = answered(['individual', 'acme']);
    expect(answerQuestion(atEmail, { value: '  ' }).error).toMatch(/required/);
  });
});

describe('back', () => {
  it('goes back one question with its answer kept, and a changed answer is used', () => {
    let state = answered(['individual', 'acme', 'ops@example.com']);
    expect(idOf(state)).toBe('cluster_issuer_acme_server');
    state = goBack(state) as QuestionsState;
    expect(idOf(state)).toBe('cluster_issuer_acme_email');
    expect(state.answers.cluster_issuer_acme_email).toBe('ops@example.com');
    state = goBack(goBack(state) as QuestionsState) as QuestionsState;
    expect(idOf(state)).toBe('certificate_type');
    state = answered(['individual', 'self-signed', 'false'], state);
    expect(answersOf(state)).toMatchObject({ cluster_issuer_type: 'self-signed' });
  });

  it('at the first question back is a cancel; the reducer then stays where it is', () => {
    const first = startQuestions({}, { only: 'issuer' });
    expect(atFirstQuestion(first)).toBe(true);
    expect(goBack(first)).toBe('cancel');
    expect(questionsReducer(first, { type: 'back' })).toBe(first);
    expect(atFirstQuestion(answered(['acme'], first))).toBe(false);
  });

  it('clears a refusal: the previous question is shown without it', () => {
    const refused = answerQuestion(answered(['individual', 'acme']), { value: 'not-an-email' });
    const back = questionsReducer(refused, { type: 'back' });
    expect(idOf(back)).toBe('cluster_issuer_type');
    expect(back.error).toBeUndefined();
  });

  it("from the end (setup's review) back is the last question", () => {
    const end = answered(['individual', 'self-signed', 'false']);
    expect(idOf(goBack(end) as QuestionsState)).toBe('add_subject_annotations');
  });
});
