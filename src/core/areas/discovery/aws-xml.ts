/**
 * The few pieces of the token service's and the DNS API's XML answers the checks read: a
 * result element's text, and the `<ErrorResponse><Error><Code>/<Message>` of a refusal. The
 * documents are flat and small, so a tag lookup is enough; no XML parser is bundled for this.
 */
import { escapeLine } from '../../escape.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** Text of the first `<tag>…</tag>` (namespace prefixes allowed), unescaped; undefined when absent. */
export function xmlText(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<(?:[\\w-]+:)?${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w-]+:)?${tag}>`).exec(xml);
  return m ? unescapeXml(m[1].trim()) : undefined;
}

export interface AwsError {
  code: string;
  /** Escaped for printing (one line). */
  message: string;
}

/** The error code and message of an AWS query/REST-XML error document, or undefined for any other body. */
export function awsError(body: string): AwsError | undefined {
  const error = xmlText(body, 'Error');
  if (!error) return undefined;
  const code = xmlText(error, 'Code');
  if (!code) return undefined;
  return { code: escapeLine(code), message: escapeLine(xmlText(error, 'Message') ?? '') };
}
