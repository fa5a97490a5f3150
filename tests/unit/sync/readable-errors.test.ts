import { describe, expect, it } from 'vitest';
import { readableError, SyncInterrupted } from '../../../src/sync/errors.ts';

const unreachable = /^Cannot reach the server\. Check the connection and try again/;

describe('readableError: every failure becomes a sentence, the technical words only as detail', () => {
  it('says the server cannot be reached for a TypeError "Failed to fetch", however it arrives', () => {
    for (const error of [
      new TypeError('Failed to fetch'),
      // supabase-js (PostgREST) answers a failed fetch as an error object with the name in its message.
      { message: 'TypeError: Failed to fetch', details: 'TypeError: Failed to fetch\n    at ...', hint: '', code: '' },
      new SyncInterrupted({ kind: 'transient', status: 0, code: '', message: 'TypeError: Failed to fetch' }),
      'TypeError: NetworkError when attempting to fetch resource.',
      { name: 'FunctionsFetchError', message: 'Failed to send a request to the Edge Function' },
    ]) {
      const readable = readableError(error);
      expect(readable.text).toMatch(unreachable);
      expect(readable.text).not.toMatch(/TypeError|fetch/i);
    }
    expect(readableError(new TypeError('Failed to fetch')).detail).toBe('Failed to fetch');
  });

  it('names a PostgREST error by what it means and keeps its code as detail', () => {
    const forbidden = readableError({ code: '42501', message: 'permission denied for table stores', details: null, hint: null });
    expect(forbidden.text).toBe('You do not have permission to do this. An administrator can give you access.');
    expect(forbidden.detail).toBe('code 42501, permission denied for table stores');

    const duplicate = readableError({ code: '23505', message: 'duplicate key value violates unique constraint "stores_subdomain_key"' });
    expect(duplicate.text).toBe('This conflicts with an entry that already exists.');
    expect(duplicate.detail).toContain('23505');

    // The server's own sentence for people is shown as it is.
    expect(readableError({ code: '42501', message: 'Only an administrator can compare stores.' }).text).toBe('Only an administrator can compare stores.');
    expect(readableError(new SyncInterrupted({ kind: 'transient', status: 503, code: '', message: 'Too many requests are waiting for the database.' })).text).toBe(
      'Too many requests are waiting for the database.',
    );
    expect(readableError(new SyncInterrupted({ kind: 'transient', status: 503, code: '', message: 'HTTP 503' })).text).toBe('The server is busy. Try again in a moment.');
  });

  it('asks to sign in again for an auth error', () => {
    for (const error of [
      { name: 'AuthApiError', status: 401, code: 'bad_jwt', message: 'invalid JWT: unable to parse or verify signature' },
      { code: 'PGRST301', message: 'JWT expired' },
      { name: 'AuthSessionMissingError', message: 'Auth session missing!' },
    ]) {
      expect(readableError(error).text).toBe('Your session has ended. Sign in again to continue.');
    }
    // The admin API's catalogue wording stays as it is.
    expect(readableError({ status: 401, message: 'Not authenticated' }).text).toBe('Not authenticated');
    expect(readableError({ status: 403, message: 'Unauthorized: Admin access required' }).text).toBe('Unauthorized: Admin access required');
  });

  it('says the server took too long for a timeout', () => {
    for (const error of [
      new DOMException('signal timed out', 'TimeoutError'),
      { message: 'TimeoutError: signal timed out', details: '', hint: 'Request was aborted (timeout or manual cancellation)', code: '' },
      { status: 504, message: 'Gateway Timeout' },
    ]) {
      const readable = readableError(error);
      expect(readable.text).toBe('The server took too long to answer. Try again in a moment.');
    }
  });

  it("blames this device, not the server, for the local database's failures", () => {
    expect(readableError(new DOMException('The quota has been exceeded.', 'QuotaExceededError')).text).toBe(
      'This device is out of storage space, so the change was not saved. Free up space, then try again.',
    );
    expect(readableError({ name: 'DatabaseClosedError', message: 'Database has been closed' }).text).toBe('This device could not read or save its data. Reload the page and try again.');
  });

  it('never answers an empty or technical text for anything else', () => {
    for (const error of [undefined, null, 42, {}, new Error(''), new RangeError('Invalid time value')]) {
      expect(readableError(error).text).toBe('Something went wrong. Try again; if it keeps happening, reload the page.');
    }
  });
});
