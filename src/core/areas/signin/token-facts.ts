/**
 * Decodes (never verifies) a JWT's claims so a check can say what a token proves: who issued it,
 * for whom, about whom, and for how long. The token itself is never returned or printed.
 */
import { jwtClaims } from '../../jwt/token.js';
import { textOf } from '../../records.js';

export interface TokenFacts {
  issuer?: string;
  audience?: string | string[];
  subject?: string;
  username?: string;
  authorizedParty?: string;
  expiresAt?: string;
  /** Seconds left at decoding time; negative when already expired. */
  secondsLeft?: number;
}

/** `now`: milliseconds since the epoch, from the run's clock. */
export function tokenFacts(token: string, now: number): TokenFacts | undefined {
  const claims = jwtClaims(token);
  if (!claims) return undefined;
  const aud = claims.aud;
  const facts: TokenFacts = {
    issuer: textOf(claims.iss),
    audience: typeof aud === 'string' || Array.isArray(aud) ? aud : undefined,
    subject: textOf(claims.sub),
    username: textOf(claims.preferred_username) ?? textOf(claims.username) ?? textOf(claims.email),
    authorizedParty: textOf(claims.azp),
  };
  if (typeof claims.exp === 'number') {
    facts.expiresAt = new Date(claims.exp * 1000).toISOString();
    facts.secondsLeft = Math.round(claims.exp - now / 1000);
  }
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined));
}

/** "4 min 59 s", "2 h 3 min", "expired 10 s ago". */
export function formatLeft(seconds: number): string {
  if (seconds < 0) return `expired ${formatDuration(-seconds)} ago`;
  return `${formatDuration(seconds)} left`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h} h${m ? ` ${m} min` : ''}`;
}

/** One line of the claims that matter: "iss …, aud …, user …, expires … (… left)". */
export function describeFacts(facts: TokenFacts): string {
  const parts: string[] = [];
  if (facts.issuer) parts.push(`iss ${facts.issuer}`);
  if (facts.audience) parts.push(`aud ${Array.isArray(facts.audience) ? facts.audience.join(',') : facts.audience}`);
  if (facts.username) parts.push(`user ${facts.username}`);
  else if (facts.subject) parts.push(`sub ${facts.subject}`);
  if (facts.expiresAt && facts.secondsLeft !== undefined)
    parts.push(`expires ${facts.expiresAt} (${formatLeft(facts.secondsLeft)})`);
  return parts.join(', ');
}
