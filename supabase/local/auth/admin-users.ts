/**
 * `/auth/v1/admin/users`: user management for the service role (the admin edge function
 * and scripts). Metadata updates shallow-merge, and a key set to null is removed. A new
 * password or a ban ends the user's sessions; deleting the user deletes them with it.
 */
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import { hashPassword } from './passwords.ts';
import { endUserSessions } from './sessions.ts';
import { checkEmail, checkMetadataSize, checkPassword, createUser, findUser, mergeMetadata, userJson, userSelect } from './users.ts';

type ErrorReply = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page parameter as GoTrue's strconv.ParseUint reads it: digits only. */
function pageParameter(raw: string | null, fallback: number): number | string {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) return `strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : `strconv.ParseUint: parsing ${JSON.stringify(raw)}: value out of range`;
}

/**
 * GET /admin/users: newest first (GoTrue's default sort), `page` and `per_page` as
 * GoTrue validates them. `per_page=0` (which GoTrue cannot serve) is refused, and a page
 * holds at most 1,000 users.
 */
async function listUsers(req: StackRequest, db: Database, fail: ErrorReply): Promise<Reply> {
  const page = pageParameter(req.url.searchParams.get('page'), 1);
  const perPageAsked = pageParameter(req.url.searchParams.get('per_page'), 50);
  const problem = typeof page === 'string' ? page : typeof perPageAsked === 'string' ? perPageAsked : perPageAsked === 0 ? 'per_page must be at least 1' : null;
  if (problem) return fail(400, 'validation_failed', `Bad Pagination Parameters: ${problem}`);
  const perPage = Math.min(1000, perPageAsked as number);
  const current = Math.max(1, page as number);
  const { rows } = await db.query<{ u: unknown; total: number }>(
    `select ${userSelect} as u, count(*) over ()::integer as total from auth.users u
     where u.deleted_at is null order by u.created_at desc, u.id limit $1 offset $2`,
    [perPage, (current - 1) * perPage],
  );
  const total =
    rows[0]?.total ??
    (await db.query<{ n: number }>('select count(*)::integer as n from auth.users where deleted_at is null')).rows[0]
      ?.n ??
    0;
  const users = rows.map((row) => userJson((typeof row.u === 'string' ? JSON.parse(row.u) : row.u) as never));
  const last = Math.ceil(total / perPage);
  const link = (p: number, rel: string) => `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  const links = [...(last > current ? [link(current + 1, 'next')] : []), link(last, 'last')];
  return jsonReply(200, { users, aud: 'authenticated' }, { 'X-Total-Count': String(total), Link: links.join(', ') });
}

const durationUnitsMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A ban_duration as hosted Auth reads it: "none" lifts a ban, otherwise a Go duration such as "24h" or "1h30m". */
export function parseBanDuration(raw: unknown): { lift: true } | { ms: number } | null {
  if (raw === 'none') return { lift: true };
  if (typeof raw !== 'string' || !/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(raw)) return null;
  let ms = 0;
  for (const [, amount, , unit] of raw.matchAll(/(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    ms += Number(amount) * (durationUnitsMs[unit as string] ?? 0);
  }
  return Number.isFinite(ms) && ms <= 876_000 * 3_600_000 ? { ms } : null;
}

async function updateUser(id: string, body: Record<string, unknown>, db: Database, fail: ErrorReply): Promise<Reply> {
  const user = await findUser(db, { id });
  if (!user) return fail(404, 'user_not_found', 'User not found');
  const weak = checkPassword(body.password);
  if (weak) return fail(weak.status, weak.code, weak.message, weak.extra);
  let email = user.email;
  if (body.email !== undefined) {
    const checked = checkEmail(body.email);
    if (!checked.ok) return fail(checked.status, checked.code, checked.message);
    email = checked.email;
    const holder = await findUser(db, { email });
    if (holder && holder.id !== id) {
      return fail(422, 'email_exists', 'A user with this email address has already been registered');
    }
  }
  const ban = body.ban_duration === undefined ? undefined : parseBanDuration(body.ban_duration);
  if (ban === null) return fail(400, 'validation_failed', 'invalid format for ban duration');
  const appMetadata = mergeMetadata(user.raw_app_meta_data, body.app_metadata);
  const userMetadata = mergeMetadata(user.raw_user_meta_data, body.user_metadata);
  const tooLarge = checkMetadataSize(userMetadata) ?? checkMetadataSize(appMetadata);
  if (tooLarge) return fail(tooLarge.status, tooLarge.code, tooLarge.message);
  const newHash = typeof body.password === 'string' ? await hashPassword(body.password) : null;
  await db.transaction(async (tx) => {
    await tx.query(
      `update auth.users set email = $2, encrypted_password = coalesce($3, encrypted_password),
         email_confirmed_at = case when $4 then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
         raw_app_meta_data = $5::jsonb, raw_user_meta_data = $6::jsonb, updated_at = now(),
         banned_until = case when $7 then null when $8::float8 is not null
           then now() + make_interval(secs => $8::float8 / 1000) else banned_until end
       where id = $1`,
      [
        id,
        email,
        newHash,
        body.email_confirm === true,
        JSON.stringify(appMetadata),
        JSON.stringify(userMetadata),
        ban !== undefined && 'lift' in ban,
        ban !== undefined && 'ms' in ban ? ban.ms : null,
      ],
    );
    // A new password (an admin's reset) or a ban ends every session: whoever held the
    // old password, or the banned person, is signed out at their next refresh.
    if (newHash || (ban && 'ms' in ban)) await endUserSessions(tx, id);
  });
  const updated = await findUser(db, { id });
  return jsonReply(200, updated ? userJson(updated) : null);
}

export async function handleAdminUsers(
  req: StackRequest,
  body: Record<string, unknown>,
  db: Database,
  fail: ErrorReply,
): Promise<Reply> {
  const id = req.path.slice('/admin/users/'.length);
  if (req.path === '/admin/users' || req.path === '/admin/users/') {
    if (req.method === 'GET') return listUsers(req, db, fail);
    if (req.method === 'POST') {
      const created = await createUser(db, body);
      return created.ok
        ? jsonReply(200, userJson(created.user))
        : fail(created.status, created.code, created.message, created.extra);
    }
    return fail(405, 'method_not_allowed', 'Method not allowed');
  }
  if (!uuidPattern.test(id)) return fail(404, 'user_not_found', 'User not found');
  if (req.method === 'GET') {
    const user = await findUser(db, { id });
    return user ? jsonReply(200, userJson(user)) : fail(404, 'user_not_found', 'User not found');
  }
  if (req.method === 'PUT') return updateUser(id, body, db, fail);
  if (req.method === 'DELETE') {
    const { affectedRows } = await db.query('delete from auth.users where id = $1', [id]);
    return affectedRows > 0 ? jsonReply(200, {}) : fail(404, 'user_not_found', 'User not found');
  }
  return fail(405, 'method_not_allowed', 'Method not allowed');
}
