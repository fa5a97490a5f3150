/**
 * The few Auth (GoTrue) endpoints the admin function needs, called over fetch so the
 * same code runs on Deno and on Node without a client library.
 */

export type AuthUser = {
  id: string;
  email?: string;
  email_confirmed_at?: string | null;
  created_at?: string;
  last_sign_in_at?: string | null;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  /** The user's MFA factors (Auth leaves the key out when there are none). */
  factors?: AuthFactor[];
};

export type AuthFactor = { id: string; friendly_name?: string; factor_type: string; status: string; created_at?: string };

export class AuthApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export type AuthAdmin = {
  getUser(accessToken: string): Promise<AuthUser>;
  listUsers(): Promise<AuthUser[]>;
  getUserById(id: string): Promise<AuthUser>;
  createUser(attributes: Record<string, unknown>): Promise<AuthUser>;
  updateUser(id: string, attributes: Record<string, unknown>): Promise<AuthUser>;
  deleteUser(id: string): Promise<void>;
  /** Removes one MFA factor of a user (the recovery when a phone is lost). */
  deleteFactor(userId: string, factorId: string): Promise<void>;
};

export function authAdmin(supabaseUrl: string, serviceRoleKey: string): AuthAdmin {
  const base = `${supabaseUrl.replace(/\/$/, '')}/auth/v1`;

  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        apikey: serviceRoleKey,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = parsed as { msg?: string; message?: string; error_description?: string };
      throw new AuthApiError(
        error.msg ?? error.message ?? error.error_description ?? `Auth answered ${response.status}`,
        response.status,
      );
    }
    return parsed as T;
  }

  return {
    getUser: (accessToken) => call<AuthUser>('GET', '/user', accessToken),
    async listUsers() {
      const users: AuthUser[] = [];
      for (let page = 1; ; page += 1) {
        const batch = await call<{ users: AuthUser[] }>(
          'GET',
          `/admin/users?page=${page}&per_page=200`,
          serviceRoleKey,
        );
        users.push(...batch.users);
        if (batch.users.length < 200) return users;
      }
    },
    getUserById: (id) => call<AuthUser>('GET', `/admin/users/${encodeURIComponent(id)}`, serviceRoleKey),
    createUser: (attributes) => call<AuthUser>('POST', '/admin/users', serviceRoleKey, attributes),
    updateUser: (id, attributes) =>
      call<AuthUser>('PUT', `/admin/users/${encodeURIComponent(id)}`, serviceRoleKey, attributes),
    async deleteUser(id) {
      await call('DELETE', `/admin/users/${encodeURIComponent(id)}`, serviceRoleKey);
    },
    async deleteFactor(userId, factorId) {
      await call('DELETE', `/admin/users/${encodeURIComponent(userId)}/factors/${encodeURIComponent(factorId)}`, serviceRoleKey);
    },
  };
}
