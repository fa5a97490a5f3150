/** The sync transport of the pages: the backend's RPC endpoints through supabase-js. */
import type { DeviceClient } from './device-client.ts';
import type { RpcAnswer, RpcCall } from './rpc-transport.ts';
import { rpcTransport, sessionChanged } from './rpc-transport.ts';
import type { SessionKeeper } from './session-keeper.ts';
import type { SyncTransport } from './transport.ts';

export function supabaseTransport(
  client: DeviceClient,
  sessions: SessionKeeper,
  options: { timeoutMs?: number; deviceId?: () => Promise<string | null> } = {},
): SyncTransport {
  const rpc: RpcCall = async (fn, args, signal, asUser): Promise<RpcAnswer> => {
    const { data: current } = await client.auth.getSession();
    if (!current.session || current.session.user.id !== asUser) return sessionChanged();
    const { data, error, status } = await client.rpc(fn, args).abortSignal(signal);
    return { data, error, status };
  };
  return rpcTransport(rpc, sessions, options);
}
