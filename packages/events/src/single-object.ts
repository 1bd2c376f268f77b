import { EventCodecError } from './codec-error';
import { fingerprintHex } from './fingerprint';

/** The two bytes that open every Avro single-object encoded message. */
export const SINGLE_OBJECT_MARKER: Readonly<Uint8Array> = Uint8Array.of(0xc3, 0x01);

const HEADER_LENGTH = 10;

export interface SingleObject {
  /** CRC-64-AVRO fingerprint of the writer schema's Parsing Canonical Form. */
  readonly fingerprint: bigint;
  readonly body: Buffer;
}

/** Marker, then the writer fingerprint little-endian, then the Avro binary body. */
export function frame(fingerprint: bigint, body: Uint8Array): Buffer {
  const message = Buffer.allocUnsafe(HEADER_LENGTH + body.length);
  message[0] = 0xc3;
  message[1] = 0x01;
  message.writeBigUInt64LE(fingerprint, 2);
  message.set(body, HEADER_LENGTH);
  return message;
}

export function unframe(message: Uint8Array): SingleObject {
  const buf = Buffer.isBuffer(message) ? message : Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  if (buf.length < HEADER_LENGTH || buf[0] !== 0xc3 || buf[1] !== 0x01) {
    throw new EventCodecError(
      'BAD_MARKER',
      `not an Avro single-object message: expected marker C3 01 and an 8-byte fingerprint, got ${buf.subarray(0, 2).toString('hex') || 'nothing'} in ${buf.length} bytes`,
    );
  }
  return { fingerprint: buf.readBigUInt64LE(2), body: buf.subarray(HEADER_LENGTH) };
}

/** The writer schema fingerprint of a message, as hex: what the schema-fingerprint Kafka header carries. */
export function fingerprintOf(message: Uint8Array): string {
  return fingerprintHex(unframe(message).fingerprint);
}
