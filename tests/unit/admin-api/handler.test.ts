import { describe, expect, it } from 'vitest';
import type { AuthAdmin, AuthUser } from '../../../supabase/functions/admin-api/auth-admin.ts';
import { AuthApiError } from '../../../supabase/functions/admin-api/auth-admin.ts';
import { createAdminApiHandler } from '../../../supabase/functions/admin-api/handler.ts';

// An in-memory stand-in for the Auth admin endpoints: the handler's own decisions
// (who may call, what is written where) are tested here; the real Auth server is
// exercised by the local-stack conformance suite.
function memoryAuth(users: AuthUser[], tokens: Record<string, string>) {
  const writes: Array<[string, unknown]> = [];
  const auth: AuthAdmin = {
    async getUser(token) {
      const user = users.find((u) => u.id === tokens[token]);
      if (!user) throw new AuthApiError('invalid JWT', 403);
      return user;
    },
    listUsers: async () => users,
    async getUserById(id) {
      const user = users.find((u) => u.id === id);
      if (!user) throw new AuthApiError('User not found', 404);
      return user;
    },
    async createUser(attributes) {
      writes.push(['create', attributes]);
      return { id: 'new-id', email: String(attributes.email), app_metadata: {}, user_metadata: {} };
    },
    async updateUser(id, attributes) {
      writes.push(['update', { id, ...attributes }]);
      return users.find((u) => u.id === id) ?? { id, app_metadata: {}, user_metadata: {} };
    },
    async deleteUser(id) {
      writes.push(['delete', id]);
    },
    async deleteFactor(userId, factorId) {
      writes.push(['delete factor', { userId, factorId }]);
    },
  };
  return { auth, writes };
}

const admin: AuthUser = { id: 'admin', email: 'admin@example.com', app_metadata: { is_admin: true }, user_metadata: {} };
const selfPromoted: AuthUser = {
  id: 'climber',
  email: 'climber@example.com',
  app_metadata: {},
  user_metadata: { is_admin: true },
};
const store = '11111111-1111-4111-8111-111111111111';

function setup() {
  const { auth, writes } = memoryAuth([admin, selfPromoted], { 'admin-token': 'admin', 'climber-token': 'climber' });
  const handler = createAdminApiHandler({
    auth,
    storeExists: async (id) => id === store,
    adminsNeedMfa: async () => false,
    setAdminsNeedMfa: async (on) => ({ admins_need_mfa: on }),
  });
  const call = async (token: string | null, body: unknown) => {
    const response = await handler(
      new Request('http://local/functions/v1/admin-api', {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { call, writes };
}

describe('admin-api handler', () => {
  it('refuses a caller without a token or with a bad one: "Not authenticated"', async () => {
    const { call, writes } = setup();
    expect(await call(null, { action: 'listUsers' })).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    expect(await call('forged', { action: 'listUsers' })).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    expect(writes).toEqual([]);
  });

  it('refuses a non-admin, including one who set is_admin in user_metadata', async () => {
    const { call, writes } = setup();
    expect(await call('climber-token', { action: 'deleteUser', payload: { id: admin.id } })).toEqual({
      status: 403,
      body: { error: 'Unauthorized: Admin access required' },
    });
    expect(writes).toEqual([]);
  });

  it('writes the store and admin flag to app_metadata and user_metadata', async () => {
    const { call, writes } = setup();
    const result = await call('admin-token', {
      action: 'createUser',
      payload: { email: 'tech@example.com', password: 'secret1', email_confirm: true, user_metadata: { store_id: store } },
    });
    expect(result.status).toBe(200);
    expect(writes).toEqual([
      [
        'create',
        {
          email: 'tech@example.com',
          password: 'secret1',
          email_confirm: true,
          app_metadata: { store_id: store, is_admin: false, firstName: null, lastName: null, displayName: null },
          user_metadata: { firstName: null, lastName: null, displayName: null, store_id: store, is_admin: false },
        },
      ],
    ]);
  });

  it('keeps the names the admin gives in app_metadata too, where the server reads who closed a month or changed a figure', async () => {
    const { call, writes } = setup();
    const names = { firstName: 'Nia', lastName: 'Lopez', displayName: 'Nia L.' };
    await call('admin-token', { action: 'createUser', payload: { email: 'nia@example.com', password: 'secret1', user_metadata: { ...names, store_id: store } } });
    await call('admin-token', {
      action: 'updateUserById',
      payload: { id: '33333333-3333-4333-8333-333333333333', attributes: { user_metadata: { firstName: ' Nia ', lastName: '', displayName: null } } },
    });
    // A password change alone leaves every name as it is.
    await call('admin-token', { action: 'updateUserById', payload: { id: '33333333-3333-4333-8333-333333333333', attributes: { password: 'secret2' } } });
    expect(writes.map(([, attributes]) => (attributes as { app_metadata?: unknown }).app_metadata)).toEqual([
      { store_id: store, is_admin: false, ...names },
      // Null removes a name (Auth drops a key set to null): the e-mail address shows instead.
      { store_id: null, is_admin: false, firstName: 'Nia', lastName: null, displayName: null },
      undefined,
    ]);
  });

  it('refuses an unknown store, bad JSON, unknown actions and deleting oneself, writing nothing', async () => {
    const { call, writes } = setup();
    const missingStore = '22222222-2222-4222-8222-999999999999';
    expect(
      await call('admin-token', {
        action: 'createUser',
        payload: { email: 'x@example.com', password: 'secret1', user_metadata: { store_id: missingStore } },
      }),
    ).toEqual({ status: 400, body: { error: 'The selected store does not exist.' } });
    expect((await call('admin-token', '{not json')).status).toBe(400);
    expect(await call('admin-token', { action: 'dropDatabase' })).toEqual({
      status: 400,
      body: { error: 'Unknown action: dropDatabase' },
    });
    expect(await call('admin-token', { action: 'deleteUser', payload: { id: 'admin' } })).toEqual({
      status: 400,
      body: { error: 'A valid user id is required.' },
    });
    expect(writes).toEqual([]);
  });
});
