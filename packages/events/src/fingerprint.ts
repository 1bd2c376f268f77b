import type { Type } from 'avsc';

// CRC-64-AVRO, the Rabin fingerprint of the Avro specification ("Schema Fingerprints").
const EMPTY = 0xc15d213aa4d7a795n;
const TABLE = buildTable();

function buildTable(): BigUint64Array {
  const table = new BigUint64Array(256);
  for (let i = 0; i < 256; i++) {
    let fp = BigInt(i);
    for (let bit = 0; bit < 8; bit++) {
      fp = (fp >> 1n) ^ (EMPTY & BigInt.asUintN(64, -(fp & 1n)));
    }
    table[i] = fp;
  }
  return table;
}

/** The 64-bit CRC-64-AVRO fingerprint of `text` (UTF-8) or `bytes`, unsigned. */
export function rabinFingerprint64(input: string | Uint8Array): bigint {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  let fp = EMPTY;
  for (const byte of bytes) {
    fp = (fp >> 8n) ^ (TABLE[Number((fp ^ BigInt(byte)) & 0xffn)] ?? 0n);
  }
  return fp;
}

/**
 * The schema's Parsing Canonical Form, which the fingerprint is taken over.
 * avsc's schema() without attributes is that form; the unit tests hold it to
 * the Avro specification's own test vectors.
 */
export function parsingCanonicalForm(type: Type): string {
  return JSON.stringify(type.schema());
}

/** A fingerprint as 16 lowercase hex digits, most significant first: the form used in Kafka headers and the pin file. */
export function fingerprintHex(fingerprint: bigint): string {
  return fingerprint.toString(16).padStart(16, '0');
}
