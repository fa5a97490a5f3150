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

/** The readers of these users, in one query; the store id is taken only when it is a uuid, as get_user_store_id() does. */
export const readersQuery = `
  select u.id::text as user_id,
         case when (u.raw_app_meta_data ->> 'store_id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           then lower(u.raw_app_meta_data ->> 'store_id') end as store_id,
         coalesce((u.raw_app_meta_data ->> 'is_admin') = 'true', false) as is_admin
  from auth.users u
  where u.id = any($1::uuid[])`;
