import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has defaults that need no setting', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.cdnUrl).toBe('http://localhost:8080/cdn');
    expect(config.publishRateLimit).toBe(10);
  });

  it('runs the findings updater in smaller batches, one at a time, on the embedded database', () => {
    // The embedded database's memory is the process's and never shrinks (docs/quality-checks.md, "Memory").
    expect(loadConfig({}).findings).toMatchObject({ batch: 1_000, lanes: 1 });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db' }).findings).toMatchObject({
      batch: 2_000,
      lanes: 2,
    });
    expect(loadConfig({ FINDINGS_BATCH: '300', FINDINGS_LANES: '3' }).findings).toMatchObject({ batch: 300, lanes: 3 });
    expect(() => loadConfig({ FINDINGS_LANES: '0' })).toThrow(/FINDINGS_LANES must be between/);
  });

  it('runs several processes only on PostgreSQL with Redis', () => {
    expect(loadConfig({}).processes).toBe(1);
    expect(() => loadConfig({ PROCESSES: '2' })).toThrow(/PROCESSES above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ PROCESSES: '2', DATABASE_URL: 'postgres://u@127.0.0.1/db' })).toThrow(
      /PROCESSES above 1 needs REDIS_URL/,
    );
    expect(
      loadConfig({ PROCESSES: '2', DATABASE_URL: 'postgres://u@127.0.0.1/db', REDIS_URL: 'redis://127.0.0.1:6379' })
        .processes,
    ).toBe(2);
    expect(() => loadConfig({ PROCESSES: '0' })).toThrow(/PROCESSES must be between 1 and 64/);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be a URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ ADMIN_EMAIL: 'a@b.c' }, /given together/],
    [{ ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'longenough' }, /ADMIN_EMAIL must be an e-mail/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis/],
    [{ PUBLISH_RATE_LIMIT: '0' }, /PUBLISH_RATE_LIMIT must be between/],
    [{ GRAPHQL_MAX_DEPTH: '1' }, /GRAPHQL_MAX_DEPTH must be between/],
    [{ GRAPHQL_MAX_COST: 'lots' }, /GRAPHQL_MAX_COST must be an integer/],
    [{ MAX_BODY_BYTES: '10' }, /MAX_BODY_BYTES must be between/],
    [{ MAX_HEADER_BYTES: '99999999' }, /MAX_HEADER_BYTES must be between/],
    [{ SECRET_KEY: 'too-short' }, /SECRET_KEY must be 32 random bytes/],
    [
      { MT_DEFAULT_PROVIDER: 'DEEPL' },
      /MT_DEFAULT_PROVIDER must be one of MT_PROVIDER_A, MT_PROVIDER_B, PSEUDO, LLM_OPENAI, LLM_ANTHROPIC, got "DEEPL"/,
    ],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('derives CDN_URL from PUBLIC_URL and strips trailing slashes', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://l10n.example.com/' });
    expect(config.publicUrl).toBe('https://l10n.example.com');
    expect(config.cdnUrl).toBe('https://l10n.example.com/cdn');
  });
});
