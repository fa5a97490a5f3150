import { describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { requestTarget } from '../../../supabase/local/request-boundary.ts';
import { backendLimits, resolveLimits } from '../../../supabase/local/service-limits.ts';

describe('requestTarget', () => {
  it.each([
    ['/rest/v1/stores?select=name', '/rest/v1/stores', '?select=name'],
    ['/rest/v1/%ZZ', '/rest/v1/%ZZ', ''],
    ['//a:b/x', '//a:b/x', ''],
    ['/\\a:b/x', '//a:b/x', ''],
    ['http://any-host:8080/auth/v1/settings?x=1', '/auth/v1/settings', '?x=1'],
    ['HTTPS://H/health', '/health', ''],
  ])('reads %s as path %s and query %s', (raw, pathname, search) => {
    const url = requestTarget(raw);
    expect({ pathname: url?.pathname, search: url?.search }).toEqual({ pathname, search });
  });

  it.each(['', 'http://a:b/x', 'http://[::1/x', 'ftp://x/rest/v1/stores', '*', 'example.com:443', 'javascript:alert(1)', 'rest/v1'])(
    'refuses %j without throwing',
    (raw) => {
      expect(requestTarget(raw)).toBeNull();
    },
  );
});

describe('resolveLimits', () => {
  it('takes the defaults, then the environment, then the caller', () => {
    expect(resolveLimits({})).toEqual({ ...serviceLimits, ...backendLimits });
    const limits = resolveLimits({ LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS: '3000', LOCAL_SUPABASE_DB_QUEUE_LENGTH: '40' }, { dbQueueLength: 2 });
    expect(limits).toMatchObject({ statementTimeoutMs: 3000, dbQueueLength: 2, maxEmbedDepth: serviceLimits.maxEmbedDepth });
  });

  it.each(['0', '-5', 'ten', '1.5', '8s'])('refuses %s as a statement timeout', (value) => {
    expect(() => resolveLimits({ LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS: value })).toThrow(
      `LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS must be a whole number of at least 1, not "${value}".`,
    );
  });
});
