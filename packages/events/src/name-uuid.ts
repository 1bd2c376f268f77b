import { hash } from 'node:crypto';

/**
 * A name-based UUID (version 5, RFC 9562): the same name in the same
 * namespace gives the same id in every process and every replay. Built on
 * node:crypto's SHA-1 directly; the `uuid` package's v5 encodes the name
 * byte by byte in JavaScript first, and an id per ingested event made that
 * three times the cost. One-shot `hash` over namespace and name in one
 * buffer: a Hash object per id (createHash, two updates, digest) took twice
 * as long.
 */
export function nameUuid(name: string, namespace: string): string {
  const input = Buffer.allocUnsafe(16 + Buffer.byteLength(name, 'utf8'));
  namespaceBytes(namespace).copy(input, 0);
  input.write(name, 16, 'utf8');
  const digest = hash('sha1', input, 'buffer');
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const NAMESPACE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const namespaces = new Map<string, Buffer>();

function namespaceBytes(namespace: string): Buffer {
  let bytes = namespaces.get(namespace);
  if (bytes === undefined) {
    if (!NAMESPACE.test(namespace)) throw new TypeError(`a UUID namespace must be a UUID, not ${JSON.stringify(namespace)}`);
    bytes = Buffer.from(namespace.replaceAll('-', ''), 'hex');
    namespaces.set(namespace, bytes);
  }
  return bytes;
}
