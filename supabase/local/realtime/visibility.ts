/**
 * Who may hear of a change the server cannot read back as the subscriber: a DELETE.
 *
 * The row is gone, so row-level security cannot be asked; instead the capture trigger
 * reports whose row it was (its `store_id` and `user_id`), and this rule mirrors the
 * SELECT policies of the synced tables (see docs/security.md, "Realtime"):
 *   - a row with a `user_id` is private to that user (dashboard preferences);
 *   - a row of `public.stores` is seen by that store's members and by admins;
 *   - any other row with a `store_id` is seen by that store's members;
 *   - a row with neither reaches no signed-in user;
 *   - anonymous subscribers hear of no delete; the service role hears of every one.
 * Store membership and the admin flag are read from auth.users at the time of the
 * delete, as the policies' helper functions read them.
 */

import type { Queryable } from '../db/database.ts';
import type { JwtClaims } from '../jwt.ts';

export type DeletedRow = { schema: string; table: string; key: Record<string, unknown>; scope?: { store_id?: unknown; user_id?: unknown } };

/** The subscriber as the policies see them. */
export type Reader = { userId: string; storeId: string | null; isAdmin: boolean };

export type Audience =
  | { kind: 'user'; userId: string }
  | { kind: 'store'; storeId: string; admins: boolean }
  | { kind: 'nobody' };

export function deleteAudience(row: DeletedRow): Audience {
  const scope = row.scope ?? {};
  if (typeof scope.user_id === 'string') return { kind: 'user', userId: scope.user_id };
  if (row.schema === 'public' && row.table === 'stores' && typeof row.key.id === 'string') {
    return { kind: 'store', storeId: row.key.id, admins: true };
  }
  if (typeof scope.store_id === 'string') return { kind: 'store', storeId: scope.store_id, admins: false };
  return { kind: 'nobody' };
}

export function mayHearOfDelete(audience: Audience, reader: Reader | null): boolean {
  if (!reader) return false;
  if (audience.kind === 'user') return reader.userId === audience.userId;
  if (audience.kind === 'store') return reader.storeId === audience.storeId || (audience.admins && reader.isAdmin);
  return false;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Store and admin flag of these users, in one query; the store only when it is a uuid, as get_user_store_id() takes it. */
export async function readersOf(db: Queryable, userIds: string[]): Promise<Map<string, Reader>> {
  const valid = [...new Set(userIds.map((id) => id.toLowerCase()))].filter((id) => uuidPattern.test(id));
  if (valid.length === 0) return new Map();
  const { rows } = await db.query<{ user_id: string; store_id: string | null; is_admin: boolean }>(
    `select u.id::text as user_id,
            case when (u.raw_app_meta_data ->> 'store_id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then lower(u.raw_app_meta_data ->> 'store_id') end as store_id,
            coalesce((u.raw_app_meta_data ->> 'is_admin') = 'true', false) as is_admin
     from auth.users u
     where u.id = any($1::uuid[])`,
    [valid],
  );
  return new Map(rows.map((row) => [row.user_id, { userId: row.user_id, storeId: row.store_id, isAdmin: row.is_admin }]));
}

/** Whether a subscriber with these claims may hear of the delete: the service role always, anonymous never. */
export function claimsMayHearOfDelete(claims: JwtClaims, audience: Audience, readers: Map<string, Reader>): boolean {
  if (claims.role === 'service_role') return true;
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') return false;
  return mayHearOfDelete(audience, readers.get(claims.sub.toLowerCase()) ?? null);
}
