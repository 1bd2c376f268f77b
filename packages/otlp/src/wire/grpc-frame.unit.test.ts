import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { frame, unframe } from './grpc-frame';
import { grpcFailure } from './grpc-status';
import { readTraceRequest } from './otlp-body';

const message = (bytes: Buffer, flag = 0, length = bytes.length) => {
  const prefix = Buffer.from([flag, 0, 0, 0, 0]);
  prefix.writeUInt32BE(length, 1);
  return Buffer.concat([prefix, bytes]);
};

describe('unframe', () => {
  it('gives the one message to the OTLP/HTTP decoding, inflating a compressed one by grpc-encoding', () => {
    const plain = unframe(message(Buffer.alloc(0)), undefined);
    expect(plain).toEqual({ ok: true, request: { bytes: Buffer.alloc(0), encoding: 'protobuf', contentEncoding: 'identity' } });
    const compressed = unframe(message(gzipSync(Buffer.alloc(0)), 1), 'gzip');
    expect(compressed.ok && readTraceRequest(compressed.request)).toEqual({ ok: true, request: {} });
  });

  it('refuses a compression it does not implement, naming the one it takes; an uncompressed message may name any', () => {
    expect(unframe(message(Buffer.from('x'), 1), 'Snappy')).toEqual({
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'grpc-encoding snappy is not supported: compress with gzip or not at all',
      headers: { 'grpc-accept-encoding': 'gzip' },
    });
    expect(unframe(message(Buffer.from('x')), 'snappy')).toMatchObject({ ok: true, request: { contentEncoding: 'identity' } });
  });

  it.each([
    ['fewer bytes than a prefix', Buffer.from([0, 0, 0]), 'less than a gRPC message prefix'],
    ['a flag other than 0 or 1', message(Buffer.alloc(1), 2), 'compressed flag is 2'],
    ['a compressed message without grpc-encoding', message(Buffer.alloc(1), 1), 'grpc-encoding names no compression'],
    ['a declared length beyond the bytes', message(Buffer.alloc(3), 0, 10), 'truncated: it declares 10 bytes and 3 arrived'],
    ['bytes after the message', Buffer.concat([message(Buffer.alloc(1)), Buffer.alloc(1)]), 'more than one gRPC message'],
  ])('refuses %s', (_what, body, words) => {
    expect(unframe(body, undefined)).toEqual({ ok: false, code: 'VALIDATION_ERROR', message: expect.stringContaining(words) });
  });

  it('refuses a declared length over 16 MiB as too large, before any of it arrives', () => {
    expect(unframe(message(Buffer.alloc(0), 0, 16 * 1024 * 1024 + 1), undefined)).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('frame and grpcFailure', () => {
  it('prefixes a message with its flag and length', () => {
    expect(frame(Buffer.from([7, 8]))).toEqual(Buffer.from([0, 0, 0, 0, 2, 7, 8]));
  });

  it('percent-encodes grpc-message: `%` and what is not printable ASCII', () => {
    const trailers = grpcFailure({ httpStatus: 400, message: 'bad span “ä” 100%', reason: 'VALIDATION_ERROR' });
    expect(trailers['grpc-status']).toBe('3');
    expect(trailers['grpc-message']).toBe('bad span %E2%80%9C%C3%A4%E2%80%9D 100%25');
    expect(decodeURIComponent(trailers['grpc-message'] ?? '')).toBe('bad span “ä” 100%');
  });
});
