import { describe, expect, it } from 'vitest';
import { refusedValue, sqlState } from './sql-state';

const failure = (code: unknown) => Object.assign(new Error('failed'), { code });

describe('sqlState', () => {
  it('answers the SQLSTATE of PostgreSQL’s answer, and nothing for a failure of the connection or another kind', () => {
    expect([failure('40P01'), failure('22021'), failure('ECONNRESET'), failure(57), new Error('no code'), 'text', null].map(sqlState)).toEqual([
      '40P01',
      '22021',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('counts as a refused value only the data, integrity and program-limit classes', () => {
    expect([failure('22021'), failure('23505'), failure('54000'), failure('40P01'), failure('08006'), failure('ECONNRESET')].map(refusedValue)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
