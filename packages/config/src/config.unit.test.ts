import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs embedded with defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBeUndefined();
    expect(config.EARSHOT_EMBEDDED_POSTGRES_PORT).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.EARSHOT_INGEST_REQUESTS_PER_MIN).toBe(120);
    expect(config.EARSHOT_INGEST_EVENTS_PER_MIN).toBe(5_000);
    expect(config.EARSHOT_KEY_REQUESTS_PER_MIN).toBe(600);
  });

  it('reads a broker list', () => {
    expect(loadConfig({ KAFKA_BROKERS: 'a:9092, b:9093' }).KAFKA_BROKERS).toEqual(['a:9092', 'b:9093']);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ KAFKA_BROKERS: 'nohost' })).toThrow(/KAFKA_BROKERS/);
  });

  it('reads durations such as 15s, 2h or 7d, and names a variable that holds none', () => {
    expect(loadConfig({}).EARSHOT_LEASE_TTL).toBe(15_000);
    expect(loadConfig({ EARSHOT_LEASE_TTL: '2m' }).EARSHOT_LEASE_TTL).toBe(120_000);
    expect(() => loadConfig({ EARSHOT_LEASE_TTL: 'soon' })).toThrow(/EARSHOT_LEASE_TTL: must be a duration/);
    expect(() => loadConfig({ EARSHOT_LEASE_TTL: '-5s' })).toThrow(/EARSHOT_LEASE_TTL/);
    expect(loadConfig({}).EARSHOT_ALERT_INTERVAL).toBe(30_000);
    expect(loadConfig({ EARSHOT_BILLING_CLOSE_INTERVAL: '5s' }).EARSHOT_BILLING_CLOSE_INTERVAL).toBe(5_000);
  });

  it('reads what is kept: forever, or whole days for read models', () => {
    const config = loadConfig({ EARSHOT_RETENTION_CALLS: '90d', EARSHOT_TOPIC_RETENTION_DELIVERIES: '36h' });
    expect(config.EARSHOT_RETENTION_CALLS).toBe(90);
    expect(config.EARSHOT_RETENTION_AUDIT).toBe(400);
    expect(config.EARSHOT_TOPIC_RETENTION_EVENTS).toBe('forever');
    expect(config.EARSHOT_TOPIC_RETENTION_DELIVERIES).toBe(36 * 3_600_000);
    expect(() => loadConfig({ EARSHOT_RETENTION_DELIVERIES: '36h' })).toThrow(/EARSHOT_RETENTION_DELIVERIES: must be forever or a number of days/);
    expect(() => loadConfig({ EARSHOT_TOPIC_RETENTION_EVENTS: 'never' })).toThrow(/EARSHOT_TOPIC_RETENTION_EVENTS/);
  });

  it('refuses production without a master key, naming it', () => {
    try {
      loadConfig({ NODE_ENV: 'production', KAFKA_BROKERS: 'k:9092', DATABASE_URL: 'postgres://x@y/z', EARSHOT_ADMIN_TOKEN: 'a'.repeat(20) });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variables).toEqual(['EARSHOT_MASTER_KEY']);
      expect((error as ConfigError).message).toContain('EARSHOT_MASTER_KEY: is required when NODE_ENV=production');
    }
  });
});
