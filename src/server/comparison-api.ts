/** Reads the store comparison (admins only; the database refuses everyone else). */
import type { DeviceClient } from '../sync/device-client.ts';
import { ServerError } from '../sync/errors.ts';

/** `month` is 'YYYY-MM'; the answer is the server's rows per store, as store_comparison gives them. */
export async function readStoreComparison(client: DeviceClient, month: string): Promise<unknown> {
  const { data, error, status } = await client.rpc('store_comparison', { p_month: `${month}-01` });
  if (error) {
    // Refused for want of the authenticator code: the server's sentence and what to do.
    if (error.code === '42501' && error.details === 'insufficient_aal') throw new ServerError([error.message, error.hint].filter(Boolean).join(' '), error.code, status);
    throw new ServerError(error.code === '42501' ? 'Only an administrator can compare stores.' : error.message, error.code ?? '', status);
  }
  return data;
}
