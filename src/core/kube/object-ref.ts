/** `NAMESPACE/NAME`, the way the cmctl-like commands name a namespaced object, checked before kubectl is asked. */
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { isDnsLabel, isDnsSubdomain } from './names.js';

export interface ObjectRef {
  namespace: string;
  name: string;
}

export const refText = (ref: ObjectRef) => `${ref.namespace}/${ref.name}`;

/** `openstack/keystone-api` → {namespace, name}; anything else is a usage error naming `what` and an example. */
export function parseObjectRef(text: string, what: string, example: string): ObjectRef {
  const parts = text.split('/');
  const shown = escapeLine(text);
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new UsageError(`"${shown}" is not NAMESPACE/NAME: give the ${what} with its namespace.`, `E.g. ${example}.`);
  }
  const [namespace, name] = parts;
  if (!isDnsLabel(namespace))
    throw new UsageError(
      `"${escapeLine(namespace)}" is not a namespace name (lower-case letters, digits and "-", at most 63).`,
      `E.g. ${example}.`,
    );
  if (!isDnsSubdomain(name))
    throw new UsageError(
      `"${escapeLine(name)}" is not a ${what} name (lower-case letters, digits, "-" and ".").`,
      `E.g. ${example}.`,
    );
  return { namespace, name };
}
