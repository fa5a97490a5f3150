import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import { untilTrue } from '../../support/poll.ts';
/** Until `check` holds (3000 ms unless told). */
const until = (check: () => boolean | Promise<boolean>, ms = 3000) => untilTrue(check, ms);


/** The synced table kinds: store-scoped rows, a user's private rows, and the stores themselves. */
const tables = ['monthly_targets', 'store_settings', 'user_dashboard_preferences', 'stores'];

type Heard = string[];

async function listen(client: SupabaseClient, name: string): Promise<Heard> {
  const heard: Heard = [];
  const channel = client.channel(name);
  for (const table of tables) {
    channel.on('postgres_changes', { event: 'DELETE', schema: 'public', table }, (payload) => {
      heard.push(`${table}:${String((payload.old as { id?: string }).id)}`);
    });
  }
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve();
      if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
    });
  });
  return heard;
}

describe.each(engines)('Realtime deletes reach only those who could have read the row (%s)', (engine) => {
  let stack: TestStack;
  let heard: Record<'manager' | 'other' | 'admin' | 'anon' | 'service' | 'storeC', Heard>;
  let storeC: string;
  let storeCMember: string;

  beforeAll(async () => {
    stack = await startTestStack({ engine });
    const service = stack.service();
    const created = await service.from('stores').insert({ name: 'Closing Motors' }).select('id').single();
    storeC = (created.data as { id: string }).id;
    const member = await service.auth.admin.createUser({
      email: 'closing@example.com',
      password: 'tyre-42-rim',
      email_confirm: true,
      app_metadata: { store_id: storeC },
    });
    storeCMember = member.data.user?.id ?? '';
    heard = {
      manager: await listen(await stack.signIn('manager@example.com'), 'm'),
      other: await listen(await stack.signIn('other@example.com'), 'o'),
      admin: await listen(await stack.signIn('admin@example.com'), 'a'),
      anon: await listen(stack.anon(), 'n'),
      service: await listen(service, 's'),
      storeC: await listen(await stack.signIn('closing@example.com', 'tyre-42-rim'), 'c'),
    };
  });
  afterAll(() => stack?.stop());

  /** Runs `work`, waits until the service role (which hears every delete) heard `count` more, then a little longer for the rest. */
  async function deletes(count: number, work: () => Promise<void>): Promise<Record<keyof typeof heard, Heard>> {
    const before = Object.fromEntries(Object.entries(heard).map(([who, list]) => [who, list.length])) as Record<keyof typeof heard, number>;
    await work();
    await until(() => heard.service.length >= before.service + count);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return Object.fromEntries(
      Object.entries(heard).map(([who, list]) => [who, list.slice(before[who as keyof typeof heard]).sort()]),
    ) as Record<keyof typeof heard, Heard>;
  }

  it('a store-scoped row: its store\'s members, not another store, not an admin of another store, not anonymous', async () => {
    const service = stack.service();
    const target = await service.from('monthly_targets').insert({ store_id: demo.storeA, year: 2032, month: 3, metric_key: 'cpElr', target_value: 150 }).select('id').single();
    const id = (target.data as { id: string }).id;
    const got = await deletes(1, async () => {
      await service.from('monthly_targets').delete().eq('id', id);
    });
    const event = [`monthly_targets:${id}`];
    expect(got).toEqual({ manager: event, admin: event, service: event, other: [], anon: [], storeC: [] });
  });

  it('a user\'s preferences: that user only, not a colleague of the same store, not an admin', async () => {
    const service = stack.service();
    const row = await service.from('user_dashboard_preferences').insert({ user_id: demo.managerId, store_id: demo.storeA, selected_kpis: ['cpElr'] }).select('id').single();
    expect(row.error).toBeNull();
    const id = (row.data as { id: string }).id;
    const got = await deletes(1, async () => {
      await service.from('user_dashboard_preferences').delete().eq('id', id);
    });
    const event = [`user_dashboard_preferences:${id}`];
    expect(got).toEqual({ manager: event, service: event, admin: [], other: [], anon: [], storeC: [] });
  });

  it('a deleted store: its members hear of it and of its rows, admins only of the store itself, nobody else', async () => {
    const service = stack.service();
    const settings = await service.from('store_settings').insert({ store_id: storeC, stalls: 4 }).select('id').single();
    const target = await service.from('monthly_targets').insert({ store_id: storeC, year: 2032, month: 4, metric_key: 'cpElr', target_value: 120 }).select('id').single();
    const prefs = await service.from('user_dashboard_preferences').insert({ user_id: storeCMember, store_id: storeC }).select('id').single();
    const ids = [settings, target, prefs].map((r) => (r.data as { id: string } | null)?.id);
    expect(ids.every(Boolean)).toBe(true);
    const got = await deletes(4, async () => {
      await service.from('stores').delete().eq('id', storeC);
    });
    const all = [`monthly_targets:${ids[1]}`, `store_settings:${ids[0]}`, `stores:${storeC}`, `user_dashboard_preferences:${ids[2]}`].sort();
    expect(got).toEqual({ storeC: all, service: all, admin: [`stores:${storeC}`], manager: [], other: [], anon: [] });
  });

  it('sends clients only the primary key of a deleted row, as hosted Realtime does', async () => {
    const socketFrames: unknown[] = [];
    const client = await stack.signIn('manager@example.com');
    const channel = client.channel('keys');
    channel.on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'monthly_targets' }, (payload) => socketFrames.push(payload.old));
    await new Promise<void>((resolve) => channel.subscribe((status) => status === 'SUBSCRIBED' && resolve()));
    const service = stack.service();
    const target = await service.from('monthly_targets').insert({ store_id: demo.storeA, year: 2032, month: 5, metric_key: 'cpElr', target_value: 99 }).select('id').single();
    const id = (target.data as { id: string }).id;
    await service.from('monthly_targets').delete().eq('id', id);
    await until(() => socketFrames.length === 1);
    expect(socketFrames[0]).toEqual({ id });
  });
});
